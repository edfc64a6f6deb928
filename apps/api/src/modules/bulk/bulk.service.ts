import {
  BULK_INVERSE,
  BULK_ITEMS_PAGE,
  BULK_UNDO_MINUTES,
  type BulkAction,
  type BulkDryRunBody,
  type BulkJob,
  type BulkSelection,
} from '@sac/contract/bulk';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { AppContext, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { runWrite, type WriteTx } from '../../lib/write-path.ts';
import { type ActivityAction, writeCustomerActivity } from '../activity/activity.service.ts';
import {
  cancelPendingItems,
  changedItems,
  findJob,
  insertItems,
  insertJob,
  itemCounts,
  itemsPage,
  type JobRow,
  markUndone,
  type NewItem,
  setJobState as setState,
  sitesOfSelection,
} from './bulk.repo.ts';
import { GONE, refusalOf } from './site-items.ts';

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

/** Its requester, or a SuperAdmin. */
function mayHandle(call: StaffCall, job: JobRow): void {
  if (job.actor_uid !== call.session.uid && !isSuperAdmin(call.session)) throw new AppError('bulkNotYours');
}

/** The staff-trail row of a step of the job, about the customer whose sites it acts on. */
const trailOf =
  (ctx: AppContext, call: StaffCall, action: ActivityAction, job: JobRow, extra = {}) =>
  (tx: WriteTx) =>
    writeCustomerActivity(tx, ctx, call, call.session, job.customer_uid, action, {
      bulkJob: Number(job.id),
      action: job.action,
      selection: job.selection,
      count: job.item_count,
      ...extra,
    });

/** The items of a plan: each site the selection names, would it change or be refused and why. */
function planItems(
  action: BulkAction,
  selection: BulkSelection,
  sites: Awaited<ReturnType<typeof sitesOfSelection>>,
  call: StaffCall,
): NewItem[] {
  const byId = new Map(sites.map((s) => [Number(s.app_id), s]));
  const ids = selection.Kind === 'rows' ? [...new Set(selection.AppIds)] : [...byId.keys()];
  return ids.map((appId) => {
    const s = byId.get(appId);
    const refused = s ? refusalOf(action, s, call.session.scope) : GONE;
    return {
      target: appId,
      label: s?.app_name ?? `#${appId}`,
      seenStatus: s?.status ?? '',
      seenVersion: Number(s?.version ?? 0),
      planned: refused ? 'refuse' : 'change',
      reason: refused?.reason ?? null,
    };
  });
}

/**
 * POST /admin/bulk/dryrun: the selection planned and kept as a job in state `planned` (its items
 * with what would change and what would be refused, and why); nothing else is written. A selection
 * over BULK_MAX_ITEMS is refused, naming the bound.
 */
export async function dryRun(
  ctx: AppContext,
  call: StaffCall,
  body: BulkDryRunBody & { Selection: BulkSelection },
) {
  const bound = ctx.config.bulk.maxItems;
  const sites = await sitesOfSelection(ctx.db, body.Uid, body.Selection, call.session.scope, bound + 1);
  const items = planItems(body.Action, body.Selection, sites, call);
  if (items.length > bound || sites.length > bound)
    throw new AppError(
      'bulkTooLarge',
      `The selection holds more than ${bound} sites; a bulk action takes at most ${bound} (BULK_MAX_ITEMS). Narrow the filter.`,
    );
  if (items.length === 0) throw new AppError('validation', 'No site of this customer matches the selection.');
  const { session } = call;
  const id = await runWrite(ctx.db, {
    change: async (tx) => {
      const jobId = await insertJob(tx, {
        action: body.Action,
        customerUid: body.Uid,
        selection: body.Selection,
        count: items.length,
        actorUid: session.uid,
        actorEmail: session.email,
        actor: { name: session.name, roles: session.roles, scope: session.scope ?? null },
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
 * POST /admin/bulk/run (step-up): the requester starts their planned job; it is queued, or waits
 * for a second SuperAdmin's approval when it holds more than BULK_APPROVAL_OVER items.
 */
export async function runJob(ctx: AppContext, call: StaffCall, id: number) {
  await runWrite(ctx.db, {
    lock: async (tx) => {
      const job = await lockedJob(tx, id);
      if (job.actor_uid !== call.session.uid) throw new AppError('bulkNotYours');
      if (job.state !== 'planned') throw new AppError('bulkState');
      return job;
    },
    change: (tx, job) =>
      setState(tx, id, job.approval_needed ? 'awaiting-approval' : 'queued', ctx.clock.now()),
    trail: (tx, _done, job) =>
      trailOf(ctx, call, 'bulk.start', job, { approvalNeeded: job.approval_needed })(tx),
  });
  return { Data: await jobView(ctx, id, 0) };
}

/** POST /admin/bulk/approve (step-up): a second SuperAdmin queues a job awaiting approval. */
export async function approveJob(ctx: AppContext, call: StaffCall, id: number) {
  await runWrite(ctx.db, {
    lock: async (tx) => {
      const job = await lockedJob(tx, id);
      if (job.actor_uid === call.session.uid) throw new AppError('bulkOwnApproval');
      if (!isSuperAdmin(call.session)) throw new AppError('bulkApproverOnly');
      if (job.state !== 'awaiting-approval') throw new AppError('bulkState');
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
      if (job.state === 'done' || job.state === 'cancelled') throw new AppError('bulkState');
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
  if (job.state !== 'done' && job.state !== 'cancelled') return undefined;
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
      const items: NewItem[] = (await changedItems(tx, id)).map((i) => {
        const seen = { status: i.status, version: Number(i.seen_version) };
        const refused = refusalOf(inverse, { ...i, version: Number(i.version) }, call.session.scope, seen);
        return {
          target: Number(i.target),
          label: i.label,
          seenStatus: i.status,
          seenVersion: Number(i.version),
          planned: refused ? 'refuse' : 'change',
          reason: refused?.reason ?? null,
        };
      });
      if (items.length === 0) throw new AppError('bulkState', 'Nothing to undo: the job changed no site.');
      const { session } = call;
      const newId = await insertJob(tx, {
        action: inverse,
        customerUid: job.customer_uid,
        selection: { Kind: 'rows', AppIds: items.map((i) => i.target) },
        count: items.length,
        actorUid: session.uid,
        actorEmail: session.email,
        actor: { name: session.name, roles: session.roles, scope: session.scope ?? null },
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
  const until = undoUntil(ctx, job);
  return {
    Id: Number(job.id),
    Action: job.action as BulkAction,
    Uid: job.customer_uid,
    Selection: job.selection as BulkSelection,
    Count: job.item_count,
    Bound: ctx.config.bulk.maxItems,
    ApprovalOver: ctx.config.bulk.approvalOver,
    ApprovalNeeded: job.approval_needed,
    State: job.state,
    Actor: job.actor_email,
    ActorUid: job.actor_uid,
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
      AppId: Number(i.target),
      Label: i.label,
      Planned: i.planned,
      PlannedReason: i.planned_reason,
      Outcome: i.outcome,
      OutcomeReason: i.outcome_reason,
    })),
    ItemsNext: page.length > BULK_ITEMS_PAGE ? items[items.length - 1]!.seq : null,
  };
}
