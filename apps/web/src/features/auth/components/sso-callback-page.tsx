import { consolePaths } from '@sac/contract/console-paths';
import { ssoFinishBody } from '@sac/contract/sso';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useT } from '../../../lib/i18n.tsx';
import { useSsoFinish } from '../api/auth-api.ts';
import { useAfterSignIn } from './after-sign-in.ts';
import { AuthFrame } from './auth-frame.tsx';
import styles from './login-page.module.css';
import { useSignInMessages } from './sign-in-messages.ts';

/**
 * /sso/callback, the redirect URI: the OpenID provider sends the browser back here with a code
 * and the state; they go to the API once (a state is single-use), with this tab's binder, and the
 * sign-in goes on as a password sign-in does. A provider's error, or a refusal, is said here with
 * the way back to the sign-in screen.
 */
export default function SsoCallbackPage() {
  const t = useT('auth');
  const say = useSignInMessages();
  const [search] = useSearchParams();
  const after = useAfterSignIn();
  const finish = useSsoFinish();
  const sent = useRef(false);
  const query = ssoFinishBody.pick({ Code: true, State: true }).safeParse({
    Code: search.get('code') ?? '',
    State: search.get('state') ?? '',
  });
  const failed = !query.success || search.has('error') || finish.isError;
  // biome-ignore lint/correctness/useExhaustiveDependencies: sent once, on the first render that has the query
  useEffect(() => {
    if (sent.current || !query.success || search.has('error')) return;
    sent.current = true;
    finish.mutate(query.data, { onSuccess: after });
  }, []);
  return (
    <AuthFrame heading={t('ssoCallbackTitle')}>
      {failed ? (
        <p className="form-alert" role="alert">
          {finish.isError ? say.error(finish.error, 'errorSsoRefused') : t('errorSsoRefused')}
        </p>
      ) : (
        <p role="status" aria-busy="true">
          {t('ssoSigningIn')}
        </p>
      )}
      <p className={styles.authSwitch}>
        <Link to={consolePaths.login()}>{t('backToLogin')}</Link>
      </p>
    </AuthFrame>
  );
}
