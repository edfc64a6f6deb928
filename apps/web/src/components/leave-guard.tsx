import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { useT } from '../lib/i18n.tsx';
import { hasUnsavedChanges, useHasUnsavedChanges } from '../lib/leave-guard.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

/**
 * Asks before leaving a page with unsaved changes: any in-app navigation (links, Back, sign-out)
 * opens a dialog (Stay is focused); closing or reloading the tab gets the browser's own prompt.
 */
export function LeaveGuard() {
  const t = useT('common');
  const dirty = useHasUnsavedChanges();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      hasUnsavedChanges() &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  // The changes were saved or dropped while the dialog was open: nothing to ask any more.
  useEffect(() => {
    if (blocker.state === 'blocked' && !dirty) blocker.proceed();
  }, [blocker, dirty]);

  if (blocker.state !== 'blocked') return null;
  return (
    <ConfirmDialog
      title={t('leaveTitle')}
      confirmLabel={t('leave')}
      busyLabel={t('leave')}
      cancelLabel={t('stay')}
      danger
      busy={false}
      onConfirm={() => blocker.proceed()}
      onClose={() => blocker.reset()}
    >
      <p>{t('leaveText')}</p>
    </ConfirmDialog>
  );
}
