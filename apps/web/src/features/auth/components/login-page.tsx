import { forgotPasswordBody, loginBody, resetPasswordBody, resetPasswordForm } from '@sac/contract/auth';
import { consolePaths } from '@sac/contract/console-paths';
import { LANGUAGES, type Language } from '@sac/contract/constants';
import { type FormEvent, useId, useMemo } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { FormField } from '../../../components/form-field.tsx';
import { useContractForm } from '../../../lib/form.ts';
import { HTML_LANG, isLanguage, useLanguage, useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useForgotPassword, useLogin, useResetPassword } from '../api/auth-api.ts';
import { useAfterSignIn } from './after-sign-in.ts';
import { AuthFrame } from './auth-frame.tsx';
import styles from './login-page.module.css';
import { useSignInMessages } from './sign-in-messages.ts';
import { SsoSignIn } from './sso-sign-in.tsx';

/** The invitation of a new super user opens the reset mode with vtype=invite. */
const INVITE_VTYPE = 'invite';

/** What the console hands the sign-in screen when it sends a signed-in user back to it. */
export interface SignInState {
  /** Why the session ended, in the server's words (901's Description). */
  sessionEnded?: string;
}

const sessionEndedOf = (state: unknown): string | undefined => {
  const why = (state as SignInState | null)?.sessionEnded;
  return typeof why === 'string' && why !== '' ? why : undefined;
};

export type LoginMode = 'login' | 'forgotpassword' | 'resetpassword';

/** Reset mode when the query has vtype and vtoken; /forgotpassword starts in forgot mode. */
export function modeOf(pathname: string, search: URLSearchParams): LoginMode {
  if (search.has('vtype') && search.has('vtoken')) return 'resetpassword';
  if (pathname.replace(/\/+$/, '') === consolePaths.forgotPassword.path) return 'forgotpassword';
  return 'login';
}

/**
 * What the document title names a mode of the sign-in screen by: each mode its own words (the
 * reset and invitation links open on /login, whose route label is 'Login').
 */
export function signInModeTitle(
  pathname: string,
  search: URLSearchParams,
): 'loginTitle' | 'forgotHeading' | 'resetHeading' | 'inviteHeading' {
  const mode = modeOf(pathname, search);
  if (mode === 'forgotpassword') return 'forgotHeading';
  if (mode === 'login') return 'loginTitle';
  return search.get('vtype') === INVITE_VTYPE ? 'inviteHeading' : 'resetHeading';
}

const forgotEmailOnly = forgotPasswordBody.pick({ email: true });

/** The console page the reset link is built on: `${origin}/login`. */
const loginPageUrl = (): string => `${window.location.origin}/login`;

function LanguageSwitch() {
  const t = useT('auth');
  const names = useT('common')('languageNames').split('|');
  const { language, setLanguage } = useLanguage();
  const id = useId();
  return (
    <div className={`field ${styles.languageSwitch}`}>
      <label htmlFor={id}>{t('language')}</label>
      <select
        id={id}
        value={language}
        onChange={(e) => {
          if (isLanguage(e.target.value)) setLanguage(e.target.value as Language);
        }}
      >
        {LANGUAGES.map((l, i) => (
          <option key={l} value={l} lang={HTML_LANG[l]}>
            {names[i] ?? l}
          </option>
        ))}
      </select>
    </div>
  );
}

function LoginForm() {
  const t = useT('auth');
  const say = useSignInMessages();
  const after = useAfterSignIn();
  const login = useLogin((e) => say.error(e, 'errorInvalidCredentials'));
  const form = useContractForm(loginBody, {
    initial: { email: '', password: '' },
    showErrors: 'submit',
    leaveGuard: false,
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || login.isPending) return;
    login.mutate(data, { onSuccess: after });
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="auth-heading">
      <FormField
        id="login-email"
        name="email"
        type="email"
        label={t('email')}
        autoComplete="username"
        value={form.values.email}
        error={say.text(form.shown('email'))}
        onValueChange={(v) => form.set('email', v)}
      />
      <FormField
        id="login-password"
        name="password"
        type="password"
        label={t('password')}
        autoComplete="current-password"
        value={form.values.password}
        error={say.text(form.shown('password'))}
        onValueChange={(v) => form.set('password', v)}
      />
      <button
        type="submit"
        className={`button button-primary ${styles.buttonBlock}`}
        aria-busy={login.isPending}
      >
        {login.isPending ? t('signingIn') : t('login')}
      </button>
    </form>
  );
}

function ForgotForm() {
  const t = useT('auth');
  const say = useSignInMessages();
  const navigate = useNavigate();
  const forgot = useForgotPassword(say.error);
  const form = useContractForm(forgotEmailOnly, {
    initial: { email: '' },
    showErrors: 'submit',
    leaveGuard: false,
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || forgot.isPending) return;
    forgot.mutate(
      { email: data.email, url: loginPageUrl() },
      {
        onSuccess: (answer) => {
          if (answer.Message) toast.success(say.text(answer.Message));
          navigate(consolePaths.login(), { replace: true });
        },
      },
    );
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="auth-heading">
      <p className="muted">{t('forgotIntro')}</p>
      <FormField
        id="forgot-email"
        name="email"
        type="email"
        label={t('email')}
        autoComplete="username"
        value={form.values.email}
        error={say.text(form.shown('email'))}
        onValueChange={(v) => form.set('email', v)}
      />
      <button
        type="submit"
        className={`button button-primary ${styles.buttonBlock}`}
        aria-busy={forgot.isPending}
      >
        {forgot.isPending ? t('sending') : t('submit')}
      </button>
    </form>
  );
}

function ResetForm({ token, invite }: { token: string; invite: boolean }) {
  const t = useT('auth');
  const say = useSignInMessages();
  const navigate = useNavigate();
  const reset = useResetPassword(say.error);
  const form = useContractForm(resetPasswordForm, {
    initial: { password: '', confirmpassword: '' },
    showErrors: 'submit',
  });
  const tokenCheck = resetPasswordBody.shape.resettoken.safeParse(token);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || reset.isPending) return;
    if (!tokenCheck.success) {
      toast.error(t('errorResetUrl'));
      return;
    }
    reset.mutate(
      { password: data.password, resettoken: tokenCheck.data },
      {
        onSuccess: (answer) => {
          if (answer.Message) toast.success(say.text(answer.Message));
          navigate(consolePaths.login(), { replace: true });
        },
      },
    );
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="auth-heading">
      <p className="muted">{invite ? t('inviteIntro') : t('resetIntro')}</p>
      {tokenCheck.success ? null : (
        <p className="form-alert" role="alert">
          {t('errorResetUrl')}
        </p>
      )}
      <FormField
        id="reset-password"
        name="password"
        type="password"
        label={t('password')}
        autoComplete="new-password"
        hint={t('passwordHint')}
        value={form.values.password}
        error={say.text(form.shown('password'))}
        onValueChange={(v) => form.set('password', v)}
      />
      <FormField
        id="reset-confirmpassword"
        name="confirmpassword"
        type="password"
        label={t('confirmPassword')}
        autoComplete="new-password"
        value={form.values.confirmpassword}
        error={say.text(form.shown('confirmpassword'))}
        onValueChange={(v) => form.set('confirmpassword', v)}
      />
      <button
        type="submit"
        className={`button button-primary ${styles.buttonBlock}`}
        aria-busy={reset.isPending}
      >
        {reset.isPending ? t('resetting') : invite ? t('setPassword') : t('resetPassword')}
      </button>
    </form>
  );
}

/** /login and /forgotpassword: the sign-in screen with its three modes. */
export function LoginPage() {
  const t = useT('auth');
  const { pathname, state } = useLocation();
  const [search] = useSearchParams();
  const mode = modeOf(pathname, search);
  const token = search.get('vtoken') ?? '';
  // Sent back here because the session ended (ran out, or ended from another browser): say why.
  const ended = sessionEndedOf(state);
  const say = useSignInMessages();
  const invite = mode === 'resetpassword' && search.get('vtype') === INVITE_VTYPE;

  const heading = useMemo(
    () =>
      ({
        login: t('signInHeading'),
        forgotpassword: t('forgotHeading'),
        resetpassword: invite ? t('inviteHeading') : t('resetHeading'),
      })[mode],
    [mode, invite, t],
  );

  return (
    <AuthFrame
      heading={heading}
      kicker={mode === 'login' ? undefined : t('signInHeading')}
      intro={mode === 'login' ? t('signInIntro') : undefined}
      after={<LanguageSwitch />}
    >
      {mode === 'login' && ended ? (
        <div className="notice notice-info" role="status">
          <strong>{t('sessionEndedTitle')}</strong> {say.text(ended)}
        </div>
      ) : null}
      {mode === 'login' ? <SsoSignIn passwordForm={<LoginForm />} /> : null}
      {mode === 'forgotpassword' ? <ForgotForm /> : null}
      {mode === 'resetpassword' ? <ResetForm token={token} invite={invite} /> : null}
      <p className={styles.authSwitch}>
        {mode === 'login' ? (
          <Link to={consolePaths.forgotPassword()}>{t('forgotLink')}</Link>
        ) : (
          <Link to={consolePaths.login()}>{t('backToLogin')}</Link>
        )}
      </p>
    </AuthFrame>
  );
}
