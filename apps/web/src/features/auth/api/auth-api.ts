import type { BodyOf } from '@sac/contract/endpoints';
import { MESSAGES } from '@sac/contract/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import type { TokenPair } from '../../../lib/impersonation-mode.ts';
import { clearAuthStorage, saveLogin } from '../../../lib/storage.ts';

/** Query keys of the auth feature. */
const authKeys = {
  all: ['auth'] as const,
  login: () => [...authKeys.all, 'login'] as const,
  forgotPassword: () => [...authKeys.all, 'forgotpassword'] as const,
  resetPassword: () => [...authKeys.all, 'resetpassword'] as const,
  changePassword: () => [...authKeys.all, 'changepassword'] as const,
  logout: () => [...authKeys.all, 'logout'] as const,
  mySessions: () => [...authKeys.all, 'my-sessions'] as const,
};

/**
 * Sign-in (spec section 4): clears the old stored sign and token, calls login, stores token, sign
 * and login state on success. Resolves true when a token was stored (login successful).
 */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: authKeys.login(),
    meta: { errorFallback: MESSAGES.invalidCredentials },
    mutationFn: async (body: BodyOf<'login'>) => {
      clearAuthStorage();
      queryClient.removeQueries();
      const answer = await callApi('login', { body });
      return saveLogin(answer);
    },
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationKey: authKeys.forgotPassword(),
    mutationFn: (body: BodyOf<'forgotPassword'>) => callApi('forgotPassword', { body }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationKey: authKeys.resetPassword(),
    mutationFn: (body: BodyOf<'resetPassword'>) => callApi('resetPassword', { body }),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationKey: authKeys.changePassword(),
    mutationFn: (body: BodyOf<'changePassword'>) => callApi('changePassword', { body }),
  });
}

/**
 * Best-effort server logout: errors are ignored, the local session ends regardless. With `pair`,
 * the session of that pair (the tab's impersonation) is ended instead of the admin's.
 */
export async function logoutOnServer(pair?: TokenPair): Promise<void> {
  try {
    await callApi('logout', pair ? { auth: pair } : {});
  } catch {
    // The session may already be gone; the console signs out locally anyway.
  }
}

/** GET /admin/account/sessions: my live sessions. */
export const useMySessions = () =>
  useQuery({
    queryKey: authKeys.mySessions(),
    queryFn: async ({ signal }) => (await callApi('mySessions', { signal })).Data,
  });

/** DELETE /admin/account/sessions: end one of my sessions, or all the others; the list reloads. */
export function useEndMySessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...authKeys.mySessions(), 'end'],
    mutationFn: (body: BodyOf<'endMySessions'>) => callApi('endMySessions', { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: authKeys.mySessions() }),
  });
}
