import {
  BULK_INVERSE,
  BULK_ITEMS_PAGE,
  BULK_LIST_OF,
  BULK_UNDO_MINUTES,
  type BulkAction,
  type BulkCustomersDryRunBody,
  type BulkInvitationsDryRunBody,
  type BulkJob,
  type BulkList,
  type BulkRequestsDryRunBody,
  type BulkSelection,
  type BulkSessionsDryRunBody,
  type BulkSitesDryRunBody,
} from '@sac/contract/bulk';
import { consolePaths } from '@sac/contract/console-paths';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { AppContext, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { runWrite, type WriteTx } from '../../lib/write-path.ts';
import { type ActivityAction, writeActivity, writeCustomerActivity } from '../activity/activity.service.ts';
import { superAdminUids } from '../auth/staff.service.ts';
import { notifyStaff } from '../staff-notifications/staff-notifications.service.ts';
import {
  cancelPendingItems,
  findJob,
  insertItems,
  insertJob,
  itemCounts,
  itemsPage,
  type JobRow,
  markUndone,
  type NewItem,
  setJobState as setState,
} from './bulk.repo.ts';
import { kindOf, kindOfList } from './bulk-registry.ts';
import { currentCallOf } from './bulk-runner.ts';

export { bulkRunnerJob, runBulkJobs } from './bulk-runner.ts';

const NO_SUCH_JOB = 'There is no bulk job with that id.';
const UNDO_MS = BULK_UNDO_MINUTES * 60_000;
const isSuperAdmin = (s: StaffSession) => s.roles.includes(ROLE_SUPER_ADMIN);

/** The job, locked for the write; 404 when there is none. */
async function lockedJob(tx: Queryable, id: number): Promise<JobRow> {
  const job = await findJob(tx, id, true);
  if (!job) throw new AppError('notFound', NO_SUCH_JOB);
  return job;
}

/**
 * Its requester, or a SuperAdmin; either holding the permission of the job's list (the job's calls
 * are open to anyone signed in: the list decides).
 */
function mayHandle(call: StaffCall, job: JobRow): void {
  if (!call.session.permissions.has(kindOfList(job.list).permission)) throw new AppError('forbidden');
  if (job.actor_uid !== call.session.uid && !isSuperAdmin(call.session)) throw new AppError('bulkNotYours');
}

/**
 * The staff-trail row of a step of the job: about the customer whose sites it acts on, or, for a
 * list that is no customer's, about the job itself.
 */
const trailOf =
  (ctx: AppContext, call: StaffCall, action: ActivityAction, job: JobRow, extra = {}) =>
  (tx: WriteTx) => {
    const details = {
      bulkJob: Number(job.id),
      action: job.action,
      list: job.list,
      selection: job.selection,
      count: job.item_count,
      ...extra,
    };
    if (job.customer_uid)
      return writeCustomerActivity(tx, ctx, call, call.session, job.customer_uid, action, details);
    return writeActivity(tx, {
      at: ctx.clock.now(),
      action,
      actorUid: call.session.uid,
      actorEmail: call.session.email,
      targetType: 'bulkJob',
      targetId: String(job.id),
      clientAddress: call.clientAddress,
      details,
    });
  };

/** What the job keeps of its actor: the roles, the scope and the permissions its items run with. */
const actorOf = ({ session }: StaffCall) => ({
  name: session.name,
  roles: session.roles,
  scope: session.scope ?? null,
  permissions: [...session.permissions],
});

/**
 * POST /admin/bulk/dryrun, /requests/dryrun, /sessions/dryrun, /invitations/dryrun, /customers/dryrun: the selection planned by its list's
 * kind and kept as a job in state `planned` (its items with what would change and what would be
 * refused, and why); nothing else is written. A selection over BULK_MAX_ITEMS is refused, naming
 * the bound.
 */
export async function dryRun(
  ctx: AppContext,
  call: StaffCall,
  body:
    | BulkSitesDryRunBody
    | BulkRequestsDryRunBody
    | BulkSessionsDryRunBody
    | BulkInvitationsDryRunBody
    | BulkCustomersDryRunBody,
) {
  const bound = ctx.config.bulk.maxItems;
  const kind = kindOf(body.Action);
  const items = await kind.plan(ctx, call, body as never, bound + 1);
  if (items.length > bound)
    throw new AppError(
      'bulkTooLarge',
      `The selection holds more than ${bound} ${kind.noun}; a bulk action takes at most ${bound} (BULK_MAX_ITEMS). Narrow the filter.`,
    );
  if (items.length === 0) throw new AppError('validation', kind.none);
  const { session } = call;
  const id = await runWrite(ctx.db, {
    change: async (tx) => {
      const jobId = await insertJob(tx, {
        action: body.Action,
        list: kind.list,
        customerUid: kind.customerOf?.(body as never) ?? null,
        ...(kind.params ? { params: kind.params(body as never) } : {}),
        selection: kind.kept?.(body as never) ?? (body.Selection as BulkSelection),
        count: items.length,
        actorUid: session.uid,
        actorEmail: session.email,
        actor: actorOf(call),
        apiTokenId: session.apiToken?.id ?? null,
        clientAddress: call.clientAddress,
        state: 'planned',
        approvalNeeded: items.length > ctx.config.bulk.approvalOver,
        at: ctx.clock.now(),
      });
      await insertItems(tx, jobId, items);
      return jobId;
    },
    trail: { none: 'a dry run changes nothing: its run writes bulk.start' },
  });
  return { Data: await jobView(ctx, id, 0) };
}

/**
 * Refuses (`error`, the runner's sentence and `then`) a start or an approval of a job its requester
 * may no longer run, by the runner's own check (currentCallOf) in the step's transaction: the
 * runner would at once turn it into a failure.
 */
async function refuseUnlessRequesterMayRun(
  ctx: AppContext,
  tx: Queryable,
  job: JobRow,
  error: 'bulkRequesterMayNotRun' | 'bulkRequesterMayNotStart',
  then: string,
): Promise<void> {
  const requester = await currentCallOf(ctx, job, tx);
  if (typeof requester === 'string') throw new AppError(error, `${requester} ${then}`);
}

/**
 * POST /admin/bulk/run (step-up): the requester starts their planned job; it is queued, or waits
 * for a second SuperAdmin's approval when it holds more than BULK_APPROVAL_OVER items. Refused
 * (1199, saying why) while they may no longer run it: the API token of its dry run revoked or
 * expired since (the call itself holds their account and the list's permission now).
 */
export async function runJob(ctx: AppContext, call: StaffCall, id: number) {
  await runWrite(ctx.db, {
    lock: async (tx) => {
      const job = await lockedJob(tx, id);
      if (!call.session.permissions.has(kindOfList(job.list).permission)) throw new AppError('forbidden');
      if (job.actor_uid !== call.session.uid) throw new AppError('bulkNotYours');
      if (job.state !== 'planned') throw new AppError('bulkState');
      await refuseUnlessRequesterMayRun(ctx, tx, job, 'bulkRequesterMayNotStart', 'It cannot be started.');
      return job;
    },
    change: async (tx, job) => {
      await setState(tx, id, job.approval_needed ? 'awaiting-approval' : 'queued', ctx.clock.now());
      if (job.approval_needed) await askForApproval(tx, ctx, call, job);
    },
    trail: (tx, _done, job) =>
      trailOf(ctx, call, 'bulk.start', job, { approvalNeeded: job.approval_needed })(tx),
  });
  return { Data: await jobView(ctx, id, 0) };
}

/**
 * Every SuperAdmin but the requester is told, in the run's own write, that the job waits for one of
 * them: in the bell, and by mail unless they chose in-app only (`bulk-approval`).
 */
async function askForApproval(tx: WriteTx, ctx: AppContext, call: StaffCall, job: JobRow) {
  const count = Number(job.item_count);
  await notifyStaff(tx, ctx, {
    kind: 'bulk-approval',
    to: (await superAdminUids(tx, ROLE_SUPER_ADMIN)).map((uid) => ({ uid })),
    actorEmail: call.session.email,
    details: { count, job: Number(job.id) },
    mail: {
      subject: `Bulk job ${job.id} of ${call.session.email} waits for your approval`,
      lines: [
        `${call.session.email} asked for bulk job ${job.id} (${job.action}, ${count} items).`,
        'A job this large runs only once a second SuperAdmin approves it on its page.',
      ],
      path: consolePaths.bulkJob({ id: Number(job.id) }),
    },
  });
}

/**
 * POST /admin/bulk/approve (step-up): a second SuperAdmin queues a job awaiting approval. Refused
 * (1198, saying why) while its requester may no longer run it: an approval the runner would at
 * once turn into a failure is no approval.
 */
export async function approveJob(ctx: AppContext, call: StaffCall, id: number) {
  await runWrite(ctx.db, {
    lock: async (tx) => {
      const job = await lockedJob(tx, id);
      if (!call.session.permissions.has(kindOfList(job.list).permission)) throw new AppError('forbidden');
      if (job.actor_uid === call.session.uid) throw new AppError('bulkOwnApproval');
      if (!isSuperAdmin(call.session)) throw new AppError('bulkApproverOnly');
      if (job.state !== 'awaiting-approval') throw new AppError('bulkState');
      await refuseUnlessRequesterMayRun(ctx, tx, job, 'bulkRequesterMayNotRun', 'It cannot be approved.');
      return job;
    },
    change: (tx) =>
      setState(tx, id, 'queued', ctx.clock.now(), {
        approvedByUid: call.session.uid,
        approvedBy: call.session.email,
      }),
    trail: (tx, _done, job) => trailOf(ctx, call, 'bulk.approve', job)(tx),
  });
  return { Data: await jobView(ctx, id, 0) };
}

/**
 * POST /admin/bulk/cancel: a job not yet done is cancelled, its items not yet run marked so. A
 * running job's runner sees it before its next batch; an item it ran meanwhile keeps its outcome.
 */
export async function cancelJob(ctx: AppContext, call: StaffCall, id: number) {
  await runWrite(ctx.db, {
    lock: async (tx) => {
      const job = await lockedJob(tx, id);
      mayHandle(call, job);
      if (job.state === 'done' || job.state === 'cancelled' || job.state === 'failed')
        throw new AppError('bulkState');
      return job;
    },
    change: async (tx) => {
      await setState(tx, id, 'cancelled', ctx.clock.now());
      await cancelPendingItems(tx, id, ctx.clock.now());
    },
    trail: (tx, _done, job) => trailOf(ctx, call, 'bulk.cancel', job, { from: job.state })(tx),
  });
  return { Data: await jobView(ctx, id, 0) };
}

/** Until when a job's undo is offered, or undefined. */
function undoUntil(ctx: AppContext, job: JobRow): Date | undefined {
  if (!BULK_INVERSE[job.action as BulkAction] || job.undone_by !== null || !job.finished_at) return undefined;
  if (job.state !== 'done' && job.state !== 'cancelled' && job.state !== 'failed') return undefined;
  const until = new Date(new Date(job.finished_at).getTime() + UNDO_MS);
  return until > ctx.clock.now() ? until : undefined;
}

/**
 * POST /admin/bulk/undo (step-up): within BULK_UNDO_MINUTES of a reversible job's end, its inverse
 * over the items it changed, as a job of its own, queued at once (it puts back what was approved
 * away, so it waits for no approval). An item changed since (its version, its status) is refused.
 */
export async function undoJob(ctx: AppContext, call: StaffCall, id: number) {
  const undoId = await runWrite(ctx.db, {
    lock: async (tx) => {
      const job = await lockedJob(tx, id);
      mayHandle(call, job);
      if (!undoUntil(ctx, job)) throw new AppError('bulkUndoOver');
      return job;
    },
    change: async (tx, job) => {
      const inverse = BULK_INVERSE[job.action as BulkAction]!;
      const kind = kindOfList(job.list);
      const items: NewItem[] = (await kind.undoItems?.(tx, id, inverse, call)) ?? [];
      if (items.length === 0)
        throw new AppError(
          'bulkState',
          `Nothing to undo: the job changed no ${kind.noun.replace(/s$/, '')}.`,
        );
      const { session } = call;
      const targets = items.map((i) => i.target);
      const newId = await insertJob(tx, {
        action: inverse,
        list: kind.list,
        customerUid: job.customer_uid,
        params: (job.params ?? {}) as Record<string, unknown>,
        // only the kinds whose items are sites (a customer's, the customer search's) have an undo
        selection: { Kind: 'rows', AppIds: targets },
        count: items.length,
        actorUid: session.uid,
        actorEmail: session.email,
        actor: actorOf(call),
        apiTokenId: session.apiToken?.id ?? null,
        clientAddress: call.clientAddress,
        state: 'queued',
        approvalNeeded: false,
        undoOf: id,
        at: ctx.clock.now(),
      });
      await insertItems(tx, newId, items);
      if (!(await markUndone(tx, id, newId))) throw new AppError('bulkUndoOver');
      return newId;
    },
    trail: (tx, newId, job) => trailOf(ctx, call, 'bulk.start', job, { undoJob: newId, undo: true })(tx),
  });
  return { Data: await jobView(ctx, undoId, 0) };
}

/** GET /admin/bulk/job: the job, its progress and a page of its items (its requester or a SuperAdmin). */
export async function readJob(ctx: AppContext, call: StaffCall, id: number, after: number) {
  const job = await findJob(ctx.db, id);
  if (!job) throw new AppError('notFound', NO_SUCH_JOB);
  mayHandle(call, job);
  return { Data: await jobView(ctx, id, after, job) };
}

/** A job as the API answers it. */
async function jobView(ctx: AppContext, id: number, after: number, read?: JobRow): Promise<BulkJob> {
  const job = read ?? (await findJob(ctx.db, id));
  if (!job) throw new AppError('notFound', NO_SUCH_JOB);
  const [counts, page] = await Promise.all([
    itemCounts(ctx.db, id),
    itemsPage(ctx.db, id, after, BULK_ITEMS_PAGE + 1),
  ]);
  const items = page.slice(0, BULK_ITEMS_PAGE);
  // A job that failed before it changed anything has nothing to undo.
  const until = job.state === 'failed' && counts.changed === 0 ? undefined : undoUntil(ctx, job);
  return {
    Id: Number(job.id),
    Action: job.action as BulkAction,
    List: (job.list ?? BULK_LIST_OF[job.action as BulkAction]) as BulkList,
    Uid: job.customer_uid,
    StaffUid:
      job.list === 'staff-sessions' ? String((job.params as { staffUid?: string }).staffUid ?? '') : null,
    Selection: job.selection as BulkSelection,
    Count: job.item_count,
    Bound: ctx.config.bulk.maxItems,
    ApprovalOver: ctx.config.bulk.approvalOver,
    ApprovalNeeded: job.approval_needed,
    State: job.state,
    Failure: job.failure,
    Actor: job.actor_email,
    ActorUid: job.actor_uid,
    ApiToken: job.api_token_id === null ? null : { Id: Number(job.api_token_id), Name: job.api_token_name },
    ApprovedBy: job.approved_by,
    CreatedAt: job.created_at,
    StartedAt: job.started_at,
    FinishedAt: job.finished_at,
    UndoOf: job.undo_of === null ? null : Number(job.undo_of),
    UndoneBy: job.undone_by === null ? null : Number(job.undone_by),
    UndoUntil: until ? until.toISOString() : null,
    Planned: { Change: counts.change, Refuse: counts.refuse },
    Progress: {
      Changed: counts.changed,
      Refused: counts.refused,
      Cancelled: counts.cancelled,
      Pending: counts.pending,
    },
    Items: items.map((i) => ({
      Seq: i.seq,
      Target: Number(i.target),
      AppId: Number(i.target),
      Key: i.target_key,
      Label: i.label,
      Planned: i.planned,
      PlannedReason: i.planned_reason,
      Outcome: i.outcome,
      OutcomeReason: i.outcome_reason,
    })),
    ItemsNext: page.length > BULK_ITEMS_PAGE ? items[items.length - 1]!.seq : null,
  };
}
