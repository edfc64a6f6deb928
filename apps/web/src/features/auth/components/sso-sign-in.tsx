import { type ReactNode, useState } from 'react';
import { useT } from '../../../lib/i18n.tsx';
import { useSsoSignInOptions, useSsoStart } from '../api/auth-api.ts';
import styles from './login-page.module.css';
import { useSignInMessages } from './sign-in-messages.ts';

/**
 * Single sign-on on the sign-in screen: "Sign in with <name>" above the password form, or alone
 * when password sign-in is off (the form then behind a link, for the break-glass account). While
 * the options load, or when they cannot be read, the password form shows as before.
 */
export function SsoSignIn({ passwordForm }: { passwordForm: ReactNode }) {
  const t = useT('auth');
  const say = useSignInMessages();
  const options = useSsoSignInOptions();
  const start = useSsoStart((e) => say.error(e, 'errorSsoRefused'));
  const [breakGlass, setBreakGlass] = useState(false);
  const o = options.data?.Enabled ? options.data : undefined;
  const passwordOff = o !== undefined && !o.PasswordSignIn;
  // Every part keeps its place whether the options have come or not: the password form stays
  // the same element, so what was typed before the button appeared is kept.
  return (
    <>
      {o ? (
        <button
          type="button"
          className={`button ${o.PasswordSignIn ? '' : 'button-primary'} ${styles.buttonBlock}`}
          aria-busy={start.isPending}
          onClick={() => {
            if (!start.isPending) start.mutate();
          }}
        >
          {start.isPending ? t('ssoSigningIn') : t('ssoButton', { name: o.Name })}
        </button>
      ) : null}
      {o?.PasswordSignIn ? (
        <p className={styles.ssoOr}>
          <span>{t('ssoOr')}</span>
        </p>
      ) : null}
      {passwordOff && !breakGlass ? (
        <p className={styles.authSwitch}>
          <button type="button" className="button-link" onClick={() => setBreakGlass(true)}>
            {t('breakGlassLink')}
          </button>
        </p>
      ) : null}
      {!passwordOff ? passwordForm : null}
      {passwordOff && breakGlass ? <div className={styles.breakGlass}>{passwordForm}</div> : null}
    </>
  );
}
