import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import {
  clearImpersonation,
  type ImpersonationSession,
  startImpersonation,
} from '../../../lib/impersonation-mode.ts';
import { impersonationKeys } from './impersonation-api.ts';

/** Queries made with an impersonation pair carry its scope (`as:<xtoken>`) in their key. */
const isImpersonatedQuery = (key: readonly unknown[]) =>
  key.some((k) => typeof k === 'string' && k.startsWith('as:'));

/** The session's own queries: the heartbeat. */
const sessionKeys = {
  heartbeat: (s: ImpersonationSession) => [...impersonationKeys.all, 'heartbeat', `as:${s.xtoken}`] as const,
};

const once = { retry: false, refetchOnWindowFocus: false } as const;

/** How often an open impersonated screen asks whether the session still stands. */
export const HEARTBEAT_MS = 30_000;

/**
 * GET /admin/session with the impersonation pair every HEARTBEAT_MS while the screen is open: a
 * revocation shows within that time even when nothing else is called (the 401 ends the mode).
 */
export const useImpersonationHeartbeat = (s: ImpersonationSession) =>
  useQuery({
    queryKey: sessionKeys.heartbeat(s),
    queryFn: async ({ signal }) => (await callApi('session', { signal, auth: s })).Email,
    refetchInterval: HEARTBEAT_MS,
    refetchIntervalInBackground: true,
    ...once,
  });

/**
 * GET /account/switchapp?appid= with the admin's pair: opens an impersonation session (a new pair)
 * and keeps it for this tab.
 */
export function useStartImpersonation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...impersonationKeys.all, 'start'],
    mutationFn: async (v: { ownerUid: string; appId: number }) => {
      const answer = await callApi('switchApp', { query: { appid: v.appId } });
      return {
        xtoken: answer.xtoken,
        xsign: answer.xsign,
        grant: answer.Data,
        ownerUid: v.ownerUid,
        startedAt: new Date().toISOString(),
      } satisfies ImpersonationSession;
    },
    onSuccess: (session) => {
      queryClient.removeQueries({ predicate: (q) => isImpersonatedQuery(q.queryKey) });
      startImpersonation(session);
    },
  });
}

/**
 * Ends the impersonation: forgets it at once (the caller may leave the screen right away), then
 * POST /admin/logout with its pair (best effort: an already ended session answers 401, which is
 * fine). What it changed shows on the next admin reads.
 */
export function useEndImpersonation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...impersonationKeys.all, 'end'],
    meta: { errorFallback: false },
    mutationFn: async (s: ImpersonationSession) => {
      clearImpersonation();
      try {
        await callApi('logout', { auth: s });
      } catch {
        // Ended or unreachable: the console leaves impersonation mode regardless.
      }
    },
    onSettled: () => {
      queryClient.removeQueries({ predicate: (q) => isImpersonatedQuery(q.queryKey) });
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
    },
  });
}
