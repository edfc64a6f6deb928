import type { ImpersonationRequest } from '@sac/contract/impersonation-api';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { formatDateTimeMinutes } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { coolDownEnd, useCurrentUser } from '../../../lib/session.ts';
import type { LogEntry } from '../api/impersonation-api.ts';
import { ApproveForm } from './approve-form.tsx';
import { DeleteRequestConfirm } from './delete-request-confirm.tsx';
import { EditRequestForm } from './edit-request-form.tsx';
import { LogEntryDetails } from './log-entry-details.tsx';
import { RejectForm } from './reject-form.tsx';
import { RequestDetails } from './request-details.tsx';
import styles from './request-dialog.module.css';
import { actionsFor, type RequestAction, statusAt, useExpiryClock } from './request-view.ts';
import { RevokeForm } from './revoke-form.tsx';

type View = 'details' | RequestAction;

const TITLES = {
  approve: 'approveTitle',
  reject: 'rejectTitle',
  revoke: 'revokeTitle',
  edit: 'editTitle',
  delete: 'deleteTitle',
} as const;

interface RequestDialogProps {
  /** The request (undefined when it is no longer listed, e.g. a log entry of a deleted request). */
  request: ImpersonationRequest | undefined;
  /** From the logs table: the step the popup was opened for. */
  log?: LogEntry;
  /** The request is still being looked up (the logs popup). */
  requestLoading?: boolean;
  /** The request was deleted (a step of its log says so), when it is not listed. */
  requestDeleted?: boolean;
  onClose: () => void;
}

/**
 * The popup of one table row: the request's details and the actions the state machine allows the
 * viewer (approve, reject, revoke for approvers; edit, delete for the requester of a pending one;
 * none once expired). Each action opens its form in the same popup; Back returns to the details.
 */
export function RequestDialog({ request, log, requestLoading, requestDeleted, onClose }: RequestDialogProps) {
  const t = useT('impersonation');
  const viewer = useCurrentUser();
  const [view, setView] = useState<View>('details');
  const bodyRef = useRef<HTMLDivElement>(null);
  const first = useRef(true);
  const noteId = useId();

  // The popup stays open across views: move focus into each new view (the dialog handles the first).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the view changes
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const root = bodyRef.current;
    const target =
      root?.querySelector<HTMLElement>('[data-autofocus]') ??
      root?.querySelector<HTMLElement>('input:not([disabled]), textarea, select, button:not([disabled])');
    target?.focus();
  }, [view]);

  const r = request;
  const now = useExpiryClock(r ? [r] : undefined);
  const actions = r
    ? actionsFor(r, { email: viewer.email, isApprover: viewer.permissions.has('impersonation.approve') }, now)
    : [];
  const back = () => setView('details');
  const title =
    view !== 'details' && r
      ? t(TITLES[view], { id: r.Id })
      : log
        ? t('logTitle', { id: log.Id })
        : t('requestTitle', { id: r?.Id ?? '' });

  let body: ReactNode;
  if (!r || view === 'details') {
    const noConsent = r ? !r.Impersonation : false;
    // A new SuperAdmin may not approve until the cool-down after their promotion has passed.
    const coolingUntil = coolDownEnd(viewer);
    const approveBlocked = noConsent
      ? t('notGranted')
      : coolingUntil
        ? t('approverCoolingDown', { time: formatDateTimeMinutes(coolingUntil) })
        : null;
    body = (
      <>
        {log ? <LogEntryDetails entry={log} /> : null}
        {r ? (
          <RequestDetails request={r} />
        ) : requestLoading ? (
          <Skeleton lines={4} />
        ) : (
          <p className="muted">{t(requestDeleted ? 'requestDeleted' : 'requestNotVisible')}</p>
        )}
        {r && statusAt(r, now) === 'Expired' ? (
          <p className="muted" role="status">
            {t('expiredNote')}
          </p>
        ) : null}
        {r && actions.length > 0 ? (
          <div className="form-actions dialog-actions">
            {actions.includes('approve') ? (
              <button
                type="button"
                className="button button-primary"
                disabled={approveBlocked !== null}
                title={approveBlocked ?? undefined}
                aria-describedby={approveBlocked !== null ? noteId : undefined}
                onClick={() => setView('approve')}
              >
                {t('approve')}
              </button>
            ) : null}
            {actions.includes('reject') ? (
              <button type="button" className="button button-danger" onClick={() => setView('reject')}>
                {t('reject')}
              </button>
            ) : null}
            {actions.includes('revoke') ? (
              <button type="button" className="button button-danger" onClick={() => setView('revoke')}>
                {t('revoke')}
              </button>
            ) : null}
            {actions.includes('edit') ? (
              <button type="button" className="button" onClick={() => setView('edit')}>
                {t('edit')}
              </button>
            ) : null}
            {actions.includes('delete') ? (
              <button type="button" className="button button-danger" onClick={() => setView('delete')}>
                {t('delete')}
              </button>
            ) : null}
          </div>
        ) : null}
        {actions.includes('approve') && approveBlocked !== null ? (
          <p id={noteId} className={`field-hint ${styles.actionNote}`}>
            {approveBlocked}
          </p>
        ) : null}
      </>
    );
  } else if (view === 'approve') {
    body = <ApproveForm request={r} onBack={back} onDone={onClose} />;
  } else if (view === 'reject') {
    body = <RejectForm request={r} onBack={back} onDone={onClose} />;
  } else if (view === 'revoke') {
    body = <RevokeForm request={r} onBack={back} onDone={onClose} />;
  } else if (view === 'edit') {
    body = <EditRequestForm request={r} onBack={back} onDone={onClose} />;
  } else {
    body = <DeleteRequestConfirm request={r} onBack={back} onDone={onClose} />;
  }

  return (
    <Dialog title={title} onClose={onClose} wide>
      <div ref={bodyRef}>{body}</div>
    </Dialog>
  );
}
