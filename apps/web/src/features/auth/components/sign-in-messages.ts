import { ERRORS } from '@sac/contract/errors';
import { useMemo } from 'react';
import type { signIn } from '../../../i18n/en/auth.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { translateText, useLanguage, useT } from '../../../lib/i18n.tsx';

type SignInKey = keyof typeof signIn;

/**
 * The phrase of an error code the sign-in screens may meet, for an answer whose text is not one of
 * theirs word for word (a reworded or proxied answer): still said in the chosen language.
 */
const BY_CODE: Partial<Record<number, SignInKey>> = {
  [ERRORS.validation.code]: 'errorValidation',
  [ERRORS.invalidCredentials.code]: 'errorInvalidCredentials',
  [ERRORS.tooManyAttempts.code]: 'errorTooManyAttempts',
  [ERRORS.invalidResetToken.code]: 'errorInvalidResetToken',
  [ERRORS.foreignConsoleUrl.code]: 'errorForeignConsoleUrl',
  [ERRORS.accountLocked.code]: 'errorAccountLocked',
  [ERRORS.secondStepInvalid.code]: 'errorSecondStepInvalid',
  [ERRORS.wrongSecondFactor.code]: 'errorWrongCode',
  [ERRORS.mfaSetupInvalid.code]: 'errorMfaSetupInvalid',
  [ERRORS.mfaConflict.code]: 'errorMfaConflict',
  [ERRORS.internal.code]: 'errorGeneric',
  [ERRORS.unavailable.code]: 'errorUnavailable',
  [ERRORS.storeUnavailable.code]: 'errorStoreUnavailable',
  [ERRORS.tooManyRequests.code]: 'errorTooManyRequests',
  [ERRORS.signInBusy.code]: 'errorSignInBusy',
  [ERRORS.ssoRefused.code]: 'errorSsoRefused',
  [ERRORS.passwordSignInOff.code]: 'errorPasswordSignInOff',
  [ERRORS.ssoOff.code]: 'errorSsoOff',
};

/**
 * The contract's and the API's texts on the sign-in screens, in the language chosen there: field
 * errors of the contract's schemas, success messages and error answers. English stays the
 * contract's exact words; a text no phrase says is shown as it came.
 */
export function useSignInMessages() {
  const { language } = useLanguage();
  const t = useT('auth');
  return useMemo(() => {
    function text(english: string): string;
    function text(english: string | undefined): string | undefined;
    function text(english: string | undefined): string | undefined {
      return english === undefined ? undefined : (translateText(language, 'auth', english) ?? english);
    }
    /**
     * A failed call: the server's text (translated when known, else by its code), else `fallback`
     * (a network failure, a closed passkey prompt).
     */
    const error = (err: unknown, fallback: SignInKey = 'errorGeneric'): string => {
      if (!(err instanceof ApiError)) return t(fallback);
      const known =
        err.serverText === undefined ? undefined : translateText(language, 'auth', err.serverText);
      const byCode = err.code === undefined ? undefined : BY_CODE[err.code];
      return known ?? (byCode ? t(byCode) : (err.serverText ?? t(fallback)));
    };
    return { text, error };
  }, [language, t]);
}
