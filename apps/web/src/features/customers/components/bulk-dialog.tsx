import type { BulkJob, BulkSelection } from '@sac/contract/bulk';
import { useEffect, useRef, useState } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import {
  jobMoving,
  useBulkDryRun,
  useBulkJob,
  useBulkStep,
  useRefreshSitesWhenDone,
} from '../api/bulk-api.ts';
import styles from './bulk.module.css';
import { BulkJobActions, BulkJobStatus, useBulkUndo } from './bulk-job-status.tsx';

type SiteAction = 'site.deactivate' | 'site.activate';
/** Refusals listed in the dialog; the job's page lists every item. */
const LISTED = 20;

/** The dry run's answer: what will change, what will be left and why, the bound and the approval. */
function Plan({ plan, action }: { plan: BulkJob; action: SiteAction }) {
  const t = useT('customers');
  const refused = plan.Items.filter((i) => i.Planned === 'refuse');
  const off = action === 'site.deactivate';
  return (
    <>
      <p>
        {plan.Planned.Change > 0
          ? t(off ? 'bulkWouldChangeDeactivate' : 'bulkWouldChangeActivate', { count: plan.Planned.Change })
          : t('bulkNothingChanges')}
      </p>
      {plan.Planned.Refuse > 0 ? (
        <>
          <p>{t('bulkWouldRefuse', { count: plan.Planned.Refuse })}</p>
          <ul className={styles.reasons}>
            {refused.slice(0, LISTED).map((i) => (
              <li key={i.Seq}>
                <strong>{i.Label}</strong>: {i.PlannedReason}
              </li>
            ))}
          </ul>
          {plan.Planned.Refuse > Math.min(refused.length, LISTED) ? (
            <p className="muted">
              {t('bulkMore', { count: plan.Planned.Refuse - Math.min(refused.length, LISTED) })}
            </p>
          ) : null}
        </>
      ) : null}
      {plan.ApprovalNeeded ? <p>{t('bulkApprovalNote', { over: plan.ApprovalOver })}</p> : null}
      <p className="muted">{t('bulkBound', { bound: plan.Bound.toLocaleString('en-US') })}</p>
    </>
  );
}

/**
 * A bulk action on the selected sites: its dry run first (nothing changes), then on confirmation
 * its run as a job, followed here with its progress and a cancel; at its end a toast says what it
 * did, with Undo while the job offers it.
 */
export function BulkDialog({
  uid,
  action,
  selection,
  onClose,
  onEnded,
}: {
  uid: string;
  action: SiteAction;
  selection: BulkSelection;
  onClose: () => void;
  onEnded: () => void;
}) {
  const t = useT('customers');
  const dryRun = useBulkDryRun();
  const run = useBulkStep('bulkRun', uid);
  const [jobId, setJobId] = useState<number | undefined>();
  const job = useBulkJob(jobId).data;
  const refresh = useRefreshSitesWhenDone();
  const undo = useBulkUndo();
  const told = useRef(false);
  const off = action === 'site.deactivate';

  // biome-ignore lint/correctness/useExhaustiveDependencies: the dry run is made once, when the dialog opens
  useEffect(() => {
    dryRun.mutate({ Action: action, Uid: uid, Selection: selection });
  }, []);

  useEffect(() => {
    if (!job || jobMoving(job) || told.current) return;
    told.current = true;
    refresh(job);
    onEnded();
    toast.success(
      t(off ? 'bulkDoneToastDeactivate' : 'bulkDoneToastActivate', {
        changed: job.Progress.Changed,
        refused: job.Progress.Refused,
      }),
      undefined,
      job.UndoUntil ? { label: t('bulkUndo'), onClick: () => void undo(job.Id) } : undefined,
    );
  }, [job, off, onEnded, refresh, t, undo]);

  const plan = dryRun.data;
  const title = t(off ? 'bulkPlanTitleDeactivate' : 'bulkPlanTitleActivate');
  return (
    <Dialog title={title} onClose={onClose} busy={run.isPending} wide>
      {job ? (
        <>
          <BulkJobStatus job={job} />
          <BulkJobActions job={job} withLink />
        </>
      ) : dryRun.isError ? (
        <p role="alert">{errorText(dryRun.error, t('bulkPlanning'))}</p>
      ) : plan ? (
        <Plan plan={plan} action={action} />
      ) : (
        <p role="status">{t('bulkPlanning')}</p>
      )}
      <div className="form-actions dialog-actions">
        {!job && plan && plan.Planned.Change > 0 ? (
          <button
            type="button"
            className={off ? 'button button-danger-solid' : 'button button-primary'}
            aria-busy={run.isPending}
            onClick={() => run.mutate(plan.Id, { onSuccess: (started) => setJobId(started.Id) })}
          >
            {run.isPending
              ? t('bulkStarting')
              : t(off ? 'bulkConfirmDeactivate' : 'bulkConfirmActivate', { count: plan.Planned.Change })}
          </button>
        ) : null}
        <button type="button" className="button" disabled={run.isPending} onClick={onClose} data-autofocus>
          {job ? t('bulkClose') : t('bulkCancel')}
        </button>
      </div>
    </Dialog>
  );
}
