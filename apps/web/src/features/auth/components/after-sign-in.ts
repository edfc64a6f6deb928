import { consolePaths } from '@sac/contract/console-paths';
import { useNavigate } from 'react-router';
import { useT } from '../../../lib/i18n.tsx';
import { clearToasts, toast } from '../../../lib/toast-store.ts';
import type { SecondStep } from '../api/auth-api.ts';

/**
 * Where a sign-in goes once its first factor is in (a password, or the OpenID provider): the
 * second step or the set-up of a first factor, a screen of its own whose ticket travels in memory
 * only, else the dashboard.
 */
export function useAfterSignIn() {
  const t = useT('auth');
  const navigate = useNavigate();
  return (result: { signedIn: boolean; secondStep: SecondStep | undefined }) => {
    if (result.secondStep) {
      clearToasts();
      const to = result.secondStep.Kind === 'enrol' ? consolePaths.enrol() : consolePaths.secondStep();
      navigate(to, { state: { secondStep: result.secondStep } });
      return;
    }
    if (!result.signedIn) {
      toast.error(t('errorInvalidCredentials'));
      return;
    }
    clearToasts();
    navigate(consolePaths.dashboard(), { replace: true });
  };
}
