import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the audit trail records of the call being served, whichever module writes the row: the
 * request id (answered as X-Request-Id), the impersonation request whose session made the call and
 * the API token it was made with.
 * Carried by the call's async context so that no writer of the trail can leave it out.
 */
export interface RequestContext {
  requestId: string;
  impersonationRequestId?: number;
  /** The staff API token the call was made with (its owner is the actor). */
  apiToken?: { id: number; name: string };
}

const storage = new AsyncLocalStorage<RequestContext>();

export const runInRequest = <T>(context: RequestContext, fn: () => T): T => storage.run(context, fn);

/** The call being served, or undefined in a job or at start-up. */
export const currentRequest = (): RequestContext | undefined => storage.getStore();
