import { consolePaths } from '@sac/contract/console-paths';
import { type FormEvent, useState } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useStepUp, useStepUpStatus } from '../api/auth-api.ts';
import { OneTimeCodeField } from './totp-setup.tsx';

type Mode = 'totp' | 'recovery' | 'password';

/** What is wrong with a code, recovery code or password before it is sent (the phrase), if anything. */
function proofProblem(mode: Mode, given: string) {
  if (mode === 'password') return given === '' ? ('stepUpPasswordRequired' as const) : undefined;
  if (mode === 'totp') return /^\d{6}$/.test(given) ? undefined : ('stepUpCodeFormat' as const);
  return /^[A-Za-z2-7]{4}-?[A-Za-z2-7]{4}-?[A-Za-z2-7]{4}$/.test(given)
    ? undefined
    : ('stepUpRecoveryFormat' as const);
}

export default function StepUpForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const t = useT('security');
  const status = useStepUpStatus();
  const stepUp = useStepUp();
  const methods = status.data?.Methods ?? [];
  const [mode, setMode] = useState<Mode>();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const current: Mode | undefined =
    mode ??
    (methods.includes('totp')
      ? 'totp'
      : methods.includes('password')
        ? 'password'
        : methods.includes('recovery')
          ? 'recovery'
          : undefined);

  const failed = (e: unknown, fallback: string) =>
    setError(e instanceof ApiError && e.serverText ? e.serverText : fallback);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (stepUp.isPending || !current) return;
    const given = current === 'password' ? value : value.replace(/\s/g, '');
    const problem = proofProblem(current, given);
    if (problem) {
      setError(t(problem));
      return;
    }
    setError(undefined);
    stepUp.mutate(
      current === 'password' ? { Method: 'password', Password: given } : { Method: current, Code: given },
      {
        onSuccess: onDone,
        onError: (err) => failed(err, t('stepUpLoadFailed')),
      },
    );
  };
  const usePasskey = () =>
    stepUp.mutate(
      { Method: 'passkey' },
      { onSuccess: onDone, onError: (err) => failed(err, t('stepUpPasskeyCancelled')) },
    );

  return (
    <Dialog title={t('stepUpTitle')} onClose={onCancel} busy={stepUp.isPending}>
      {status.isError ? (
        <p role="alert">{t('stepUpLoadFailed')}</p>
      ) : methods.includes('sign-in') ? (
        <SignInAgain onCancel={onCancel} />
      ) : status.data ? (
        <>
          <p>{t('stepUpIntro', { n: Math.max(1, Math.round(status.data.WindowMinutes)) })}</p>
          {methods.includes('passkey') ? (
            <p>
              <button
                type="button"
                className="button button-primary"
                aria-busy={stepUp.isPending}
                onClick={usePasskey}
                data-autofocus
              >
                {t('stepUpPasskey')}
              </button>
            </p>
          ) : null}
          {current ? (
            <ProofForm
              mode={current}
              methods={methods}
              value={value}
              error={error}
              pending={stepUp.isPending}
              onChange={setValue}
              onSwitch={() => {
                setMode(current === 'recovery' ? 'totp' : 'recovery');
                setValue('');
                setError(undefined);
              }}
              onSubmit={submit}
              onCancel={onCancel}
            />
          ) : (
            <>
              {error ? <p role="alert">{error}</p> : null}
              <div className="form-actions dialog-actions">
                <button type="button" className="button" disabled={stepUp.isPending} onClick={onCancel}>
                  {t('cancel')}
                </button>
              </div>
            </>
          )}
        </>
      ) : (
        <p aria-busy="true">{t('stepUpChecking')}</p>
      )}
    </Dialog>
  );
}

/** The code, recovery code or password field of a step-up, with Confirm and Cancel. */
function ProofForm(p: {
  mode: Mode;
  methods: readonly string[];
  value: string;
  error: string | undefined;
  pending: boolean;
  onChange: (v: string) => void;
  onSwitch: () => void;
  onSubmit: (e: FormEvent) => void;
  onCancel: () => void;
}) {
  const t = useT('security');
  const { mode, methods, value, error, pending, onChange, onSwitch, onSubmit: submit, onCancel } = p;
  return (
    <form onSubmit={submit} noValidate aria-label={t('stepUpTitle')}>
      {methods.includes('passkey') ? <p className="muted">{t('stepUpOrCode')}</p> : null}
      {mode === 'password' ? (
        <FormField
          id={`step-up-${mode}`}
          name="password"
          type="password"
          label={t('stepUpPassword')}
          value={value}
          error={error}
          autoComplete="current-password"
          onValueChange={onChange}
        />
      ) : (
        <OneTimeCodeField
          id={`step-up-${mode}`}
          label={mode === 'recovery' ? t('stepUpRecovery') : t('stepUpCode')}
          value={value}
          error={error}
          recovery={mode === 'recovery'}
          onChange={onChange}
        />
      )}
      {methods.includes('totp') && methods.includes('recovery') ? (
        <p>
          <button type="button" className="button-link" onClick={onSwitch}>
            {mode === 'recovery' ? t('stepUpUseCode') : t('stepUpUseRecovery')}
          </button>
        </p>
      ) : null}
      <div className="form-actions dialog-actions">
        <button type="submit" className="button button-primary" aria-busy={pending}>
          {pending ? t('stepUpChecking') : t('stepUpConfirm')}
        </button>
        <button type="button" className="button" disabled={pending} onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * An account that signs in through single sign-on only has nothing to confirm with here: a fresh
 * sign-in is its proof. The action is not done; the user signs in again and does it again.
 */
function SignInAgain({ onCancel }: { onCancel: () => void }) {
  const t = useT('security');
  return (
    <>
      <p>{t('stepUpSignInAgain')}</p>
      <div className="form-actions dialog-actions">
        <a className="button button-primary" href={consolePaths.logout()}>
          {t('stepUpSignInAgainButton')}
        </a>
        <button type="button" className="button" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </>
  );
}
