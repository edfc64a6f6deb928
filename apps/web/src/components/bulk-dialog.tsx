import { BULK_INVERSE, type BulkAction, type BulkDryRunBody, type BulkJob } from '@sac/contract/bulk';
import { decisionComments } from '@sac/contract/impersonation';
import { useEffect, useRef, useState } from 'react';
import { errorText } from '../lib/api-client.ts';
import { jobMoving, useBulkDryRun, useBulkJob, useBulkStep, useRefreshWhenDone } from '../lib/bulk-api.ts';
import { type PhraseRef, useT } from '../lib/i18n.tsx';
import { toast } from '../lib/toast-store.ts';
import styles from './bulk.module.css';
import { BulkJobActions, BulkJobStatus, useBulkUndo } from './bulk-job-status.tsx';
import { Dialog } from './dialog.tsx';
import { TextAreaField } from './textarea-field.tsx';

/** Refusals listed in the dialog; the job's page lists every item. */
const LISTED = 20;

type Key = Extract<PhraseRef, { ns: 'customers' }>['key'];
interface Words {
  title: Key;
  change: Key;
  none: Key;
  confirm: Key;
  toast: Key;
  bound: Key;
  approval: Key;
  /** A change that takes something away: the confirm button is a danger one. */
  danger: boolean;
  /** The dry run lists the items that would change too (the customer search's: each site with its owner). */
  listChanges?: boolean;
  /** The action takes a comment, told to each item's requester as the single action's (first asked for). */
  comment?: true;
}
/** The words of deactivating and activating sites (a customer's, or the customers' picked on the search). */
const DEACTIVATE_SITES: Words = {
  title: 'bulkPlanTitleDeactivate',
  change: 'bulkWouldChangeDeactivate',
  none: 'bulkNothingChanges',
  confirm: 'bulkConfirmDeactivate',
  toast: 'bulkDoneToastDeactivate',
  bound: 'bulkBound',
  approval: 'bulkApprovalNote',
  danger: true,
};
const ACTIVATE_SITES: Words = {
  title: 'bulkPlanTitleActivate',
  change: 'bulkWouldChangeActivate',
  none: 'bulkNothingChanges',
  confirm: 'bulkConfirmActivate',
  toast: 'bulkDoneToastActivate',
  bound: 'bulkBound',
  approval: 'bulkApprovalNote',
  danger: false,
};

/** Each action's words (the bulk phrases live in the customers namespace, where bulk began). */
const WORDS: Record<BulkAction, Words> = {
  'site.deactivate': DEACTIVATE_SITES,
  'site.activate': ACTIVATE_SITES,
  // the sites of the customers picked on the search, each listed with its owner
  'customer.deactivate-sites': { ...DEACTIVATE_SITES, listChanges: true },
  'customer.activate-sites': { ...ACTIVATE_SITES, listChanges: true },
  'request.revoke': {
    title: 'bulkPlanTitleRevoke',
    change: 'bulkWouldChangeRevoke',
    none: 'bulkNothingChangesRequests',
    confirm: 'bulkConfirmRevoke',
    toast: 'bulkDoneToastRevoke',
    bound: 'bulkBoundRequests',
    approval: 'bulkApprovalNoteRequests',
    danger: true,
    comment: true,
  },
  'request.reject': {
    title: 'bulkPlanTitleReject',
    change: 'bulkWouldChangeReject',
    none: 'bulkNothingChangesRequests',
    confirm: 'bulkConfirmReject',
    toast: 'bulkDoneToastReject',
    bound: 'bulkBoundRequests',
    approval: 'bulkApprovalNoteRequests',
    danger: true,
    comment: true,
  },
  'session.end': {
    title: 'bulkPlanTitleEndSessions',
    change: 'bulkWouldChangeEndSessions',
    none: 'bulkNothingChangesSessions',
    confirm: 'bulkConfirmEndSessions',
    toast: 'bulkDoneToastEndSessions',
    bound: 'bulkBoundSessions',
    approval: 'bulkApprovalNoteSessions',
    danger: true,
  },
  'invitation.resend': {
    title: 'bulkPlanTitleResend',
    change: 'bulkWouldChangeResend',
    none: 'bulkNothingChangesResend',
    confirm: 'bulkConfirmResend',
    toast: 'bulkDoneToastResend',
    bound: 'bulkBoundMembers',
    approval: 'bulkApprovalNoteMembers',
    danger: false,
  },
};

/** The first LISTED of the items, and how many more the job's page lists. */
function Listed({ items, count }: { items: BulkJob['Items']; count: number }) {
  const t = useT('customers');
  const shown = items.slice(0, LISTED);
  return (
    <>
      <ul className={styles.reasons}>
        {shown.map((i) => (
          <li key={i.Seq}>
            <strong>{i.Label}</strong>
            {i.PlannedReason ? `: ${i.PlannedReason}` : null}
          </li>
        ))}
      </ul>
      {count > shown.length ? (
        <p className="muted">{t('bulkMore', { count: count - shown.length })}</p>
      ) : null}
    </>
  );
}

/**
 * The comment of an action that takes one (a rejection, a revocation), asked for before its dry run
 * and bounded as the single action's: each item's decision carries it, told to its requester.
 */
function CommentField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const t = useT('customers');
  const parsed = decisionComments.safeParse(value);
  return (
    <TextAreaField
      id="bulk-comment"
      name="Comments"
      label={t('bulkCommentLabel')}
      hint={t('bulkCommentHint')}
      value={value}
      {...(parsed.success ? {} : { error: parsed.error.issues[0]?.message ?? '' })}
      onValueChange={onChange}
      data-autofocus
    />
  );
}

/** The dry run's answer: what will change, what will be left and why, the bound and the approval. */
function Plan({ plan, words, comment }: { plan: BulkJob; words: Words; comment: string }) {
  const t = useT('customers');
  const refused = plan.Items.filter((i) => i.Planned === 'refuse');
  return (
    <>
      <p>{plan.Planned.Change > 0 ? t(words.change, { count: plan.Planned.Change }) : t(words.none)}</p>
      {words.listChanges && plan.Planned.Change > 0 ? (
        <Listed items={plan.Items.filter((i) => i.Planned === 'change')} count={plan.Planned.Change} />
      ) : null}
      {words.comment ? <p>{comment ? t('bulkCommentTold', { comment }) : t('bulkCommentNone')}</p> : null}
      {plan.Planned.Refuse > 0 ? (
        <>
          <p>{t('bulkWouldRefuse', { count: plan.Planned.Refuse })}</p>
          <Listed items={refused} count={plan.Planned.Refuse} />
        </>
      ) : null}
      {plan.ApprovalNeeded ? <p>{t(words.approval, { over: plan.ApprovalOver })}</p> : null}
      {BULK_INVERSE[plan.Action] ? null : <p>{t('bulkNoUndo')}</p>}
      <p className="muted">{t(words.bound, { bound: plan.Bound.toLocaleString('en-US') })}</p>
    </>
  );
}

/**
 * At the job's end, once: the lists read again, the selection cleared (`onEnded`) and a toast of
 * what it did, with Undo while the job offers it; why, when it failed.
 */
function useToldAtEnd(job: BulkJob | undefined, words: Words, onEnded: () => void) {
  const t = useT('customers');
  const refresh = useRefreshWhenDone();
  const undo = useBulkUndo();
  const told = useRef(false);
  useEffect(() => {
    if (!job || jobMoving(job) || told.current) return;
    told.current = true;
    refresh(job);
    onEnded();
    if (job.State === 'failed') {
      toast.error(job.Failure ?? t('bulkState.failed'));
      return;
    }
    toast.success(
      t(words.toast, {
        count: job.Progress.Changed,
        changed: job.Progress.Changed,
        refused: job.Progress.Refused,
      }),
      undefined,
      job.UndoUntil ? { label: t('bulkUndo'), onClick: () => void undo(job.Id) } : undefined,
    );
  }, [job, words, onEnded, refresh, t, undo]);
}

/**
 * A bulk action on the selected rows of any list (`body`: the action and the selection): its dry
 * run first (nothing changes; an action that takes a comment asks for it before), then on
 * confirmation its run as a job, followed here with its progress and a cancel; at its end a toast
 * says what it did, with Undo while the job offers it.
 */
export function BulkDialog({
  body,
  onClose,
  onEnded,
}: {
  body: BulkDryRunBody;
  onClose: () => void;
  onEnded: () => void;
}) {
  const t = useT('customers');
  const dryRun = useBulkDryRun();
  const run = useBulkStep('bulkRun');
  const [jobId, setJobId] = useState<number | undefined>();
  const job = useBulkJob(jobId).data;
  const words = WORDS[body.Action];
  // An action that takes a comment is planned once it is written (the job keeps it for its items).
  const [comment, setComment] = useState('');
  const [planning, setPlanning] = useState(!words.comment);
  const commented =
    body.Action === 'request.reject' || body.Action === 'request.revoke'
      ? { ...body, Comments: comment.trim() }
      : body;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the dry run is made once, when it may be
  useEffect(() => {
    if (planning) dryRun.mutate(commented);
  }, [planning]);

  useToldAtEnd(job, words, onEnded);

  const plan = dryRun.data;
  const title = t(words.title);
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
        <Plan plan={plan} words={words} comment={comment.trim()} />
      ) : planning ? (
        <p role="status">{t('bulkPlanning')}</p>
      ) : (
        <CommentField value={comment} onChange={setComment} />
      )}
      <div className="form-actions dialog-actions">
        {planning ? null : (
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              if (decisionComments.safeParse(comment).success) setPlanning(true);
              else document.getElementById('bulk-comment')?.focus();
            }}
          >
            {t('bulkCommentPlan')}
          </button>
        )}
        {!job && plan && plan.Planned.Change > 0 ? (
          <button
            type="button"
            className={words.danger ? 'button button-danger-solid' : 'button button-primary'}
            aria-busy={run.isPending}
            onClick={() => run.mutate(plan.Id, { onSuccess: (started) => setJobId(started.Id) })}
          >
            {run.isPending ? t('bulkStarting') : t(words.confirm, { count: plan.Planned.Change })}
          </button>
        ) : null}
        <button
          type="button"
          className="button"
          disabled={run.isPending}
          onClick={onClose}
          data-autofocus={planning || undefined}
        >
          {job ? t('bulkClose') : t('bulkCancel')}
        </button>
      </div>
    </Dialog>
  );
}
