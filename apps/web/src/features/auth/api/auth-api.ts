import type { BodyOf, ResponseOf } from '@sac/contract/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import type { TokenPair } from '../../../lib/impersonation-mode.ts';
import { clearAuthStorage, keepSsoBinder, saveLogin, takeSsoBinder } from '../../../lib/storage.ts';

/** Query keys of the auth feature. */
const authKeys = {
  all: ['auth'] as const,
  login: () => [...authKeys.all, 'login'] as const,
  sso: () => [...authKeys.all, 'sso'] as const,
  forgotPassword: () => [...authKeys.all, 'forgotpassword'] as const,
  resetPassword: () => [...authKeys.all, 'resetpassword'] as const,
  changePassword: () => [...authKeys.all, 'changepassword'] as const,
  logout: () => [...authKeys.all, 'logout'] as const,
  mySessions: () => [...authKeys.all, 'my-sessions'] as const,
  myFactors: () => [...authKeys.all, 'my-factors'] as const,
};

/** What POST /admin/login asks next when the account has (or must set up) a second factor. */
export type SecondStep = Extract<ResponseOf<'login'>, { SecondStep: unknown }>['SecondStep'] & {
  Email: string;
};

/**
 * The text a sign-in screen toasts for a failed call, in the language chosen there (the hooks of
 * those screens take it; the query client raises the toast).
 */
type ErrorTextOf = (error: unknown) => string;

/**
 * Sign-in (spec section 4): clears the old stored sign and token, calls login, stores token, sign
 * and login state on success. Resolves { signedIn: true } when a token was stored (login
 * successful), or the second step the account needs (a factor to prove, or one to set up first).
 * `errorText` says the server's error, else the generic login error.
 */
export function useLogin(errorText: ErrorTextOf) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: authKeys.login(),
    meta: { errorFallback: errorText },
    mutationFn: async (body: BodyOf<'login'>) => {
      clearAuthStorage();
      queryClient.removeQueries();
      const answer = await callApi('login', { body });
      if ('SecondStep' in answer)
        return { signedIn: false, secondStep: { ...answer.SecondStep, Email: answer.Email } as SecondStep };
      return { signedIn: saveLogin(answer), secondStep: undefined };
    },
  });
}

/** GET /admin/login/sso: whether the sign-in screen shows "Sign in with <name>", and the password form. */
export const useSsoSignInOptions = () =>
  useQuery({
    queryKey: authKeys.sso(),
    queryFn: ({ signal }) => callApi('ssoSignInOptions', { signal }),
    staleTime: 60_000,
  });

/** Starts a single sign-on: the binder kept for this tab, the browser sent to the provider. */
export function useSsoStart(errorText: ErrorTextOf) {
  return useMutation({
    mutationKey: [...authKeys.sso(), 'start'],
    meta: { errorFallback: errorText },
    mutationFn: async () => {
      const { Url, Binder } = await callApi('ssoStart', {});
      keepSsoBinder(Binder);
      window.location.assign(Url);
    },
  });
}

/**
 * Finishes a single sign-on with the code and state the provider sent back, answered as a
 * password sign-in is (useLogin): the session stored, or the second step the account needs.
 */
export function useSsoFinish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...authKeys.sso(), 'finish'],
    // the callback page says the error itself, with the way back
    meta: { errorFallback: false },
    mutationFn: async (q: { Code: string; State: string }) => {
      clearAuthStorage();
      queryClient.removeQueries();
      const answer = await callApi('ssoFinish', { body: { ...q, Binder: takeSsoBinder() ?? 'none' } });
      if ('SecondStep' in answer)
        return { signedIn: false, secondStep: { ...answer.SecondStep, Email: answer.Email } as SecondStep };
      return { signedIn: saveLogin(answer), secondStep: undefined };
    },
  });
}

/** The browser's passkey prompts, loaded only when a passkey is used (not with the sign-in screen). */
const passkeyBrowser = () => import('@simplewebauthn/browser');

type AssertionBody = Extract<BodyOf<'loginSecondStep'>, { Method: 'passkey' }>['Response'];
type RegistrationBody = BodyOf<'passkeyAdd'>['Response'];

/** The passkey's answer to a challenge (navigator.credentials.get), as the API reads it. */
async function passkeyAssertion(options: Record<string, unknown>): Promise<AssertionBody> {
  const { startAuthentication } = await passkeyBrowser();
  return (await startAuthentication({ optionsJSON: options as never })) as AssertionBody;
}

/** A new passkey (navigator.credentials.create), as the API reads it. */
async function passkeyRegistration(options: Record<string, unknown>): Promise<RegistrationBody> {
  const { startRegistration } = await passkeyBrowser();
  return (await startRegistration({ optionsJSON: options as never })) as RegistrationBody;
}

/**
 * The second step with a code, a recovery code or a passkey; stores the pair on success. A
 * failure that is not the API's (the passkey prompt closed) is for `errorText` to say too.
 */
export function useSecondStep(errorText: ErrorTextOf) {
  return useMutation({
    mutationKey: [...authKeys.login(), 'second-step'],
    meta: { errorFallback: errorText },
    mutationFn: async (
      step: { Ticket: string } & ({ Method: 'totp' | 'recovery'; Code: string } | { Method: 'passkey' }),
    ) => {
      if (step.Method !== 'passkey') return saveLogin(await callApi('loginSecondStep', { body: step }));
      const { Options } = await callApi('loginPasskeyOptions', { body: { Ticket: step.Ticket } });
      const Response = await passkeyAssertion(Options);
      return saveLogin(
        await callApi('loginSecondStep', { body: { Ticket: step.Ticket, Method: 'passkey', Response } }),
      );
    },
  });
}

/** At a sign-in that must set up a factor first: a new authenticator-app secret. */
export function useEnrolTotpAtSignIn(errorText: ErrorTextOf) {
  return useMutation({
    mutationKey: [...authKeys.login(), 'enrol-totp'],
    meta: { errorFallback: errorText },
    mutationFn: (Ticket: string) => callApi('loginEnrolTotp', { body: { Ticket } }),
  });
}

/** Finishes the set-up at sign-in: the session pair and the recovery codes (not stored yet). */
export function useFinishEnrolAtSignIn(errorText: ErrorTextOf) {
  return useMutation({
    mutationKey: [...authKeys.login(), 'enrol-finish'],
    meta: { errorFallback: errorText },
    mutationFn: async (
      step: { Ticket: string } & ({ Method: 'totp'; Code: string } | { Method: 'passkey'; Name: string }),
    ) => {
      if (step.Method === 'totp')
        return callApi('loginEnrolTotpConfirm', { body: { Ticket: step.Ticket, Code: step.Code } });
      const { Options } = await callApi('loginEnrolPasskeyOptions', { body: { Ticket: step.Ticket } });
      const Response = await passkeyRegistration(Options);
      return callApi('loginEnrolPasskey', { body: { Ticket: step.Ticket, Name: step.Name, Response } });
    },
  });
}

/** GET /admin/account/mfa: my second factors. */
export const useMyFactors = () =>
  useQuery({
    queryKey: authKeys.myFactors(),
    queryFn: ({ signal }) => callApi('myFactors', { signal }),
  });

/** A change to my factors; the list reloads after it. */
function useFactorChange<V, R>(name: string, fn: (v: V) => Promise<R>, fallback?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...authKeys.myFactors(), name],
    ...(fallback ? { meta: { errorFallback: fallback } } : {}),
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: authKeys.myFactors() }),
  });
}

export const useStartTotp = () =>
  useFactorChange('totp-start', (password: string) => callApi('totpEnrolStart', { body: { password } }));
export const useConfirmTotp = () =>
  useFactorChange('totp-confirm', (Code: string) => callApi('totpEnrolConfirm', { body: { Code } }));
export const useRemoveTotp = () =>
  useFactorChange('totp-remove', (password: string) => callApi('totpRemove', { body: { password } }));
export const useAddPasskey = (fallback: string) =>
  useFactorChange(
    'passkey-add',
    async (v: { password: string; Name: string }) => {
      const { Options } = await callApi('passkeyOptions', { body: { password: v.password } });
      const Response = await passkeyRegistration(Options);
      return callApi('passkeyAdd', { body: { Name: v.Name, Response } });
    },
    fallback,
  );
export const useRenamePasskey = () =>
  useFactorChange('passkey-rename', (body: BodyOf<'passkeyRename'>) => callApi('passkeyRename', { body }));
export const useRemovePasskey = () =>
  useFactorChange('passkey-remove', (body: BodyOf<'passkeyRemove'>) => callApi('passkeyRemove', { body }));
export const useRenewRecoveryCodes = () =>
  useFactorChange('recovery', (password: string) => callApi('recoveryCodesRenew', { body: { password } }));

/** GET /admin/step-up: how I can confirm it is me (read fresh each time the dialog opens). */
export const useStepUpStatus = () =>
  useQuery({
    queryKey: [...authKeys.all, 'step-up'],
    queryFn: ({ signal }) => callApi('stepUpStatus', { signal }),
    staleTime: 0,
    gcTime: 0,
  });

/** A step-up: a code, a recovery code, the password, or a passkey (its challenge asked first). */
export function useStepUp() {
  return useMutation({
    mutationKey: [...authKeys.all, 'step-up'],
    // the dialog says what went wrong beside the field
    meta: { errorFallback: false },
    mutationFn: async (
      v:
        | { Method: 'totp' | 'recovery'; Code: string }
        | { Method: 'password'; Password: string }
        | { Method: 'passkey' },
    ) => {
      if (v.Method !== 'passkey') return callApi('stepUp', { body: v });
      const { Options } = await callApi('stepUpPasskeyOptions');
      return callApi('stepUp', { body: { Method: 'passkey', Response: await passkeyAssertion(Options) } });
    },
  });
}

export function useForgotPassword(errorText: ErrorTextOf) {
  return useMutation({
    mutationKey: authKeys.forgotPassword(),
    meta: { errorFallback: errorText },
    mutationFn: (body: BodyOf<'forgotPassword'>) => callApi('forgotPassword', { body }),
  });
}

export function useResetPassword(errorText: ErrorTextOf) {
  return useMutation({
    mutationKey: authKeys.resetPassword(),
    meta: { errorFallback: errorText },
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
