import { consolePaths } from '@sac/contract/console-paths';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useT } from '../../../lib/i18n.tsx';
import { keepSecondStep, readSecondStep } from '../../../lib/storage.ts';
import { clearToasts } from '../../../lib/toast-store.ts';
import { type SecondStep, useSecondStep } from '../api/auth-api.ts';
import { AuthFrame } from './auth-frame.tsx';
import loginPageStyles from './login-page.module.css';
import styles from './second-step-page.module.css';
import { useSignInMessages } from './sign-in-messages.ts';
import { OneTimeCodeField } from './totp-setup.tsx';

/** The second step, as the sign-in screen hands it over, while its ticket lasts. */
function secondStepOf(state: unknown, kind: 'verify' | 'enrol'): SecondStep | undefined {
  const s = state as { secondStep?: SecondStep } | null;
  const step = s?.secondStep;
  if (!step || step.Kind !== kind || typeof step.Ticket !== 'string') return undefined;
  return new Date(step.ExpiresAt).getTime() > Date.now() ? step : undefined;
}

/**
 * The second step of this screen: the one the sign-in screen handed over, kept for the tab, else
 * the one kept (after a reload: a forced set-up of a first factor goes on where it was, instead
 * of asking for the password again). The server still decides: the ticket opens nothing but this
 * step, once, for SECOND_STEP_TTL_MINUTES.
 */
export function useSecondStepState(kind: 'verify' | 'enrol'): SecondStep | undefined {
  const handed = secondStepOf(useLocation().state, kind);
  if (handed) {
    keepSecondStep({ secondStep: handed });
    return handed;
  }
  return secondStepOf(readSecondStep(), kind);
}

/** What a screen of the second step shows once its ticket is gone: say so, and link to sign-in. */
export function StepGone() {
  const t = useT('auth');
  return (
    <AuthFrame heading={t('secondStepHeading')} intro={t('secondStepGone')}>
      <p className={loginPageStyles.authSwitch}>
        <Link to={consolePaths.login()}>{t('backToLogin')}</Link>
      </p>
    </AuthFrame>
  );
}

/**
 * /login/second-step: after a right password, a passkey or a one-time code (or a recovery code)
 * before the session. Wrong factors count towards the account's lockout, as wrong passwords do.
 */
export default function SecondStepPage() {
  const t = useT('auth');
  const navigate = useNavigate();
  const step = useSecondStepState('verify');
  const say = useSignInMessages();
  const verify = useSecondStep((e) => say.error(e, 'passkeyCancelled'));
  const [recovery, setRecovery] = useState(!step?.Methods.includes('totp'));
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  if (!step) return <StepGone />;
  const hasPasskey = step.Methods.includes('passkey');
  const hasTotp = step.Methods.includes('totp');
  const done = {
    onSuccess: (ok: boolean) => {
      if (!ok) return;
      clearToasts();
      navigate(consolePaths.dashboard(), { replace: true });
    },
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const value = code.replace(/\s/g, '');
    const valid = recovery
      ? /^[A-Za-z2-7]{4}-?[A-Za-z2-7]{4}-?[A-Za-z2-7]{4}$/.test(value)
      : /^\d{6}$/.test(value);
    if (!valid) {
      setError(recovery ? t('recoveryFormat') : t('codeFormat'));
      return;
    }
    setError(undefined);
    if (verify.isPending) return;
    verify.mutate({ Ticket: step.Ticket, Method: recovery ? 'recovery' : 'totp', Code: value }, done);
  };
  const fieldId = recovery ? 'second-step-recovery' : 'second-step-code';
  return (
    <AuthFrame heading={t('secondStepHeading')} intro={t('secondStepIntro')}>
      <p className="muted">{step.Email}</p>
      {hasPasskey ? (
        <button
          type="button"
          className={`button button-primary ${loginPageStyles.buttonBlock}`}
          aria-busy={verify.isPending}
          onClick={() => verify.mutate({ Ticket: step.Ticket, Method: 'passkey' }, done)}
        >
          {t('usePasskey')}
        </button>
      ) : null}
      {hasTotp || step.Methods.includes('recovery') ? (
        <form onSubmit={onSubmit} noValidate aria-labelledby="auth-heading">
          {hasPasskey ? <p className={styles.authDivider}>{t('orCode')}</p> : null}
          <OneTimeCodeField
            id={fieldId}
            label={recovery ? t('recoveryCode') : t('totpCode')}
            value={code}
            error={error}
            recovery={recovery}
            onChange={setCode}
          />
          <button
            type="submit"
            className={`button ${loginPageStyles.buttonBlock}`}
            aria-busy={verify.isPending}
          >
            {verify.isPending ? t('verifying') : t('verify')}
          </button>
        </form>
      ) : null}
      <p className={loginPageStyles.authSwitch}>
        {hasTotp && step.Methods.includes('recovery') ? (
          <button
            type="button"
            className="button-link"
            onClick={() => {
              setRecovery((r) => !r);
              setCode('');
              setError(undefined);
            }}
          >
            {recovery ? t('useTotpCode') : t('useRecoveryCode')}
          </button>
        ) : null}{' '}
        <Link to={consolePaths.login()}>{t('backToLogin')}</Link>
      </p>
    </AuthFrame>
  );
}
