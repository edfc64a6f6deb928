import type { BulkJob } from '@sac/contract/bulk';
import { consolePaths } from '@sac/contract/console-paths';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import { Link } from 'react-router';
import { errorText } from '../lib/api-client.ts';
import { jobMoving, undoAndFollow, useBulkStep, useRefreshWhenDone } from '../lib/bulk-api.ts';
import { useT } from '../lib/i18n.tsx';
import { useCurrentUser } from '../lib/session.ts';
import { toast } from '../lib/toast-store.ts';
import styles from './bulk.module.css';

/**
 * The job's state, a progress bar and its counts, announced as they change; why a failed job did
 * not run (its requester may no longer run it).
 */
export function BulkJobStatus({ job }: { job: BulkJob }) {
  const t = useT('customers');
  const p = job.Progress;
  const done = p.Changed + p.Refused + p.Cancelled;
  return (
    <div className={styles.status}>
      <p role="status">
        {t(`bulkState.${job.State}`)}{' '}
        {t('bulkProgress', {
          done,
          count: job.Count,
          changed: p.Changed,
          refused: p.Refused,
          cancelled: p.Cancelled,
        })}
      </p>
      <progress
        className={styles.progress}
        aria-label={t('bulkProgressLabel')}
        value={done}
        max={job.Count}
      />
      {job.Failure ? (
        <p className="form-alert" role="alert">
          {job.Failure}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Undo of a finished job: its inverse runs as a job of its own, followed until it ends; then the
 * sites are read again and a toast says what was put back.
 */
export function useBulkUndo() {
  const t = useT('customers');
  const refresh = useRefreshWhenDone();
  return async (id: number) => {
    try {
      const undone = await undoAndFollow(id, refresh);
      toast.success(
        t('bulkUndoneToast', {
          count: undone.Progress.Changed,
          changed: undone.Progress.Changed,
          refused: undone.Progress.Refused,
        }),
      );
    } catch (e) {
      toast.error(errorText(e, t('bulkUndo')));
    }
  };
}

/** The job's actions the viewer may take now: cancel while it moves, undo while offered, approve. */
export function BulkJobActions({ job, withLink = false }: { job: BulkJob; withLink?: boolean }) {
  const t = useT('customers');
  const me = useCurrentUser();
  const cancel = useBulkStep('bulkCancel');
  const approve = useBulkStep('bulkApprove');
  const undo = useBulkUndo();
  const mayApprove =
    job.State === 'awaiting-approval' && me.roles.includes(ROLE_SUPER_ADMIN) && me.uid !== job.ActorUid;
  return (
    <div className="form-actions">
      {mayApprove ? (
        <button
          type="button"
          className="button button-primary"
          aria-busy={approve.isPending}
          onClick={() => approve.mutate(job.Id)}
        >
          {t('bulkApprove')}
        </button>
      ) : null}
      {jobMoving(job) ? (
        <button
          type="button"
          className="button button-danger"
          aria-busy={cancel.isPending}
          onClick={() => cancel.mutate(job.Id)}
        >
          {cancel.isPending ? t('bulkCancelling') : t('bulkCancelJob')}
        </button>
      ) : null}
      {job.UndoUntil ? (
        <button type="button" className="button" onClick={() => void undo(job.Id)}>
          {t('bulkUndo')}
        </button>
      ) : null}
      {withLink ? (
        <Link className="button" to={consolePaths.bulkJob({ id: job.Id })}>
          {t('bulkJobLink')}
        </Link>
      ) : null}
    </div>
  );
}
