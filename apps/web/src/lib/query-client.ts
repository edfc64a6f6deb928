import { ERRORS } from '@sac/contract/errors';
import { MESSAGES } from '@sac/contract/messages';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, errorText } from './api-client.ts';
import { isStaleWrite } from './edit-conflict.ts';
import { dismissActionToasts, toast } from './toast-store.ts';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** A fixed text toasted once when the query fails (after its retries). */
      errorToast?: string;
    };
    mutationMeta: {
      /**
       * Text shown when the server sends no error text; false: the mutation shows its own errors;
       * a function: the whole text for the error (screens that speak the chosen language).
       */
      errorFallback?: string | false | ((error: unknown) => string);
    };
  }
}

/** The action a mutation's toasts speak for: its key, when it has one. */
const actionOf = (key: readonly unknown[] | undefined) => (key ? JSON.stringify(key) : undefined);

const sessionEnded = (e: unknown) => e instanceof ApiError && e.code === ERRORS.unauthenticated.code;

/**
 * One query client. Error toasts of mutations are raised here, in one place, from the error
 * envelope (server text, else the mutation's fallback, else the generic message). Queries that
 * name an `errorToast` in their meta toast that text when they fail.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) =>
          !(error instanceof ApiError && error.status > 0 && error.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
    queryCache: new QueryCache({
      onError: (error, query) => {
        const text = query.meta?.errorToast;
        if (text && !sessionEnded(error)) toast.error(text);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        const fallback = mutation.meta?.errorFallback;
        if (fallback === false) return;
        // An ended session (901) is announced by the shell, which also goes to /login.
        if (sessionEnded(error)) return;
        // A save from a stale read: the form says what changed meanwhile and offers the ways on.
        if (isStaleWrite(error)) return;
        toast.error(
          typeof fallback === 'function'
            ? fallback(error)
            : errorText(error, fallback ?? MESSAGES.genericError),
          actionOf(mutation.options.mutationKey),
        );
      },
      // Done at last: the error toast of an earlier try of the same action goes (the screen's
      // own success toast, shown next, is then not seen beside it).
      onSuccess: (_data, _vars, _ctx, mutation) => {
        const action = actionOf(mutation.options.mutationKey);
        if (action !== undefined) dismissActionToasts(action);
      },
    }),
  });
}
