import { consolePaths } from '@sac/contract/console-paths';
import { passkeyName } from '@sac/contract/mfa';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { FormField } from '../../../components/form-field.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { saveLogin } from '../../../lib/storage.ts';
import { clearToasts } from '../../../lib/toast-store.ts';
import { useEnrolTotpAtSignIn, useFinishEnrolAtSignIn } from '../api/auth-api.ts';
import { AuthFrame } from './auth-frame.tsx';
import loginPageStyles from './login-page.module.css';
import { StepGone, useSecondStepState } from './second-step-page.tsx';
import { useSignInMessages } from './sign-in-messages.ts';
import { OneTimeCodeField, RecoveryCodes, TotpSetup } from './totp-setup.tsx';

type Pair = {
  xtoken: string;
  xsign: string;
  Email: string;
  Name: string;
  Role: string[];
  RecoveryCodes: string[];
};

/**
 * /login/enrol: a right password on an account without a second factor where one is required
 * (STAFF_MFA=required). The staff member adds a passkey or an authenticator app; the session
 * starts only then, after the recovery codes have been shown.
 */
export default function EnrolPage() {
  const t = useT('auth');
  const navigate = useNavigate();
  const step = useSecondStepState('enrol');
  const say = useSignInMessages();
  const finish = useFinishEnrolAtSignIn((e) => say.error(e, 'passkeyCancelled'));
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [signedIn, setSignedIn] = useState<Pair>();
  if (!step) return <StepGone />;

  if (signedIn)
    return (
      <AuthFrame heading={t('enrolHeading')}>
        <RecoveryCodes
          codes={signedIn.RecoveryCodes}
          email={step.Email}
          doneLabel={t('recoverySaved')}
          onDone={() => {
            saveLogin(signedIn);
            clearToasts();
            navigate(consolePaths.dashboard(), { replace: true });
          }}
        />
      </AuthFrame>
    );

  const addPasskey = (e: FormEvent) => {
    e.preventDefault();
    const parsed = passkeyName.safeParse(name);
    if (!parsed.success) {
      setNameError(say.text(parsed.error.issues[0]?.message));
      return;
    }
    setNameError(undefined);
    finish.mutate({ Ticket: step.Ticket, Method: 'passkey', Name: parsed.data }, { onSuccess: setSignedIn });
  };

  return (
    <AuthFrame heading={t('enrolHeading')} intro={t('enrolIntro')}>
      <p className="muted">{step.Email}</p>
      <form onSubmit={addPasskey} noValidate aria-labelledby="enrol-passkey">
        <h2 id="enrol-passkey">{t('addPasskey')}</h2>
        <FormField
          id="enrol-passkey-name"
          name="passkeyName"
          label={t('passkeyName')}
          hint={t('passkeyNameHint')}
          value={name}
          error={nameError}
          maxLength={64}
          onValueChange={setName}
        />
        <button
          type="submit"
          className={`button button-primary ${loginPageStyles.buttonBlock}`}
          aria-busy={finish.isPending}
        >
          {t('addPasskey')}
        </button>
      </form>
      <hr className="menu-separator" />
      <TotpEnrolSection ticket={step.Ticket} finish={finish} onSignedIn={setSignedIn} />
      <p className={loginPageStyles.authSwitch}>
        <Link to={consolePaths.login()}>{t('backToLogin')}</Link>
      </p>
    </AuthFrame>
  );
}

/** The authenticator-app half of enrolment: the app's secret, then a code from it to confirm. */
function TotpEnrolSection({
  ticket,
  finish,
  onSignedIn,
}: {
  ticket: string;
  finish: ReturnType<typeof useFinishEnrolAtSignIn>;
  onSignedIn: (pair: Pair) => void;
}) {
  const t = useT('auth');
  const say = useSignInMessages();
  const totp = useEnrolTotpAtSignIn(say.error);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const confirmCode = (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setCodeError(t('codeFormat'));
      return;
    }
    setCodeError(undefined);
    finish.mutate({ Ticket: ticket, Method: 'totp', Code: code }, { onSuccess: onSignedIn });
  };

  return (
    <section aria-labelledby="enrol-totp">
      <h2 id="enrol-totp">{t('useAuthenticatorApp')}</h2>
      {totp.data ? (
        <form onSubmit={confirmCode} noValidate aria-labelledby="enrol-totp">
          <TotpSetup otpauthUrl={totp.data.OtpauthUrl} secret={totp.data.Secret} />
          <OneTimeCodeField
            id="enrol-totp-code"
            label={t('confirmCode')}
            value={code}
            error={codeError}
            onChange={setCode}
          />
          <button
            type="submit"
            className={`button ${loginPageStyles.buttonBlock}`}
            aria-busy={finish.isPending}
          >
            {t('confirm')}
          </button>
        </form>
      ) : (
        <button
          type="button"
          className={`button ${loginPageStyles.buttonBlock}`}
          aria-busy={totp.isPending}
          onClick={() => totp.mutate(ticket)}
        >
          {t('useAuthenticatorApp')}
        </button>
      )}
    </section>
  );
}
