import type { BulkList, BulkSelection, BulkState, SiteSelection } from '@sac/contract/bulk';
import type { SiteScope } from '@sac/contract/role-scopes';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, isoText, qb, rows, statement } from '../../db/sql.ts';
import { siteRowInScope, whereInScope } from '../../lib/site-scope.ts';

/** A site as a bulk job's plan sees it. */
export interface PlannedSite {
  app_id: number;
  app_name: string;
  status: string;
  version: number;
  data_center: string | null;
  plan: string;
}

/**
 * The customer's own sites a selection names, by appId: the rows picked (whatever the caller's
 * scope: an item outside it is refused, saying so), or all that match the list's filter within the
 * scope (what the list shows), at most `limit`.
 */
export function sitesOfSelection(
  db: Queryable,
  uid: string,
  selection: SiteSelection,
  scope: readonly SiteScope[] | undefined,
  limit: number,
): Promise<PlannedSite[]> {
  const base = qb
    .selectFrom('sites as s')
    .select(['s.app_id', 's.app_name', 's.status', 's.version', 's.data_center', 's.plan'])
    .where('s.owner_uid', '=', uid);
  const q =
    selection.Kind === 'rows'
      ? base.where('s.app_id', 'in', selection.AppIds)
      : base
          .$if(selection.Status !== undefined, (w) => w.where('s.status', '=', selection.Status ?? 'active'))
          .$call(whereInScope(siteRowInScope(scope, 's')));
  return rows(db, q.orderBy('s.app_id').limit(limit)) as Promise<PlannedSite[]>;
}

/** A site of a customer picked on the search, with its owner's address (the item's label). */
export interface CustomerSite extends PlannedSite {
  owner_uid: string;
  email: string;
}

/**
 * The owned sites of these customers within the caller's scope (what each customer's sites list
 * shows them), by owner and appId, at most `limit`.
 */
export function sitesOfCustomers(
  db: Queryable,
  uids: readonly string[],
  scope: readonly SiteScope[] | undefined,
  limit: number,
): Promise<CustomerSite[]> {
  return rows(
    db,
    qb
      .selectFrom('sites as s')
      .innerJoin('customers as c', 'c.uid', 's.owner_uid')
      .select(['s.app_id', 's.app_name', 's.status', 's.version', 's.data_center', 's.plan', 's.owner_uid'])
      .select('c.email')
      .where(sql<boolean>`s.owner_uid = ANY(${uids}::uuid[])`)
      .$call(whereInScope(siteRowInScope(scope, 's')))
      .orderBy('s.owner_uid')
      .orderBy('s.app_id')
      .limit(limit),
  ) as Promise<CustomerSite[]>;
}

export interface NewJob {
  action: string;
  list: BulkList;
  /** The customer of a customer-sites job; null for the other lists. */
  customerUid: string | null;
  selection: BulkSelection;
  /** What each item's single action is given beyond its target (absent: nothing). */
  params?: Record<string, unknown>;
  count: number;
  actorUid: string;
  actorEmail: string;
  actor: { name: string; roles: string[]; scope: readonly SiteScope[] | null; permissions?: string[] };
  /** The API token the job was asked for with (its items run with its permissions); absent: none. */
  apiTokenId?: number | null;
  clientAddress: string;
  state: BulkState;
  approvalNeeded: boolean;
  undoOf?: number;
  at: Date;
}

export async function insertJob(db: Queryable, j: NewJob): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .insertInto('bulk_jobs')
      .values({
        action: j.action,
        list: j.list,
        customer_uid: j.customerUid,
        selection: JSON.stringify(j.selection),
        params: JSON.stringify(j.params ?? {}),
        item_count: j.count,
        actor_uid: j.actorUid,
        actor_email: j.actorEmail,
        actor: JSON.stringify(j.actor),
        api_token_id: j.apiTokenId ?? null,
        client_address: j.clientAddress,
        state: j.state,
        approval_needed: j.approvalNeeded,
        undo_of: j.undoOf ?? null,
        created_at: j.at,
      })
      .returning('id'),
  );
  return Number(r!.id);
}

export interface NewItem {
  target: number;
  /**
   * Its key when the list's ids are not numbers (a team member's uid; target is then its place), or
   * the owner of its site (the customer search's items).
   */
  key?: string;
  label: string;
  seenStatus: string;
  seenVersion: number;
  planned: 'change' | 'refuse';
  reason: string | null;
}

/** A job's items, numbered from 1 in the order given, in one statement. */
export async function insertItems(db: Queryable, jobId: number, items: NewItem[]): Promise<void> {
  if (items.length === 0) return;
  await execute(
    db,
    statement(sql`INSERT INTO bulk_job_items (job_id, seq, target, target_key, label, seen_status, seen_version, planned, planned_reason)
      SELECT ${jobId}, u.seq, u.target, u.key, u.label, u.status, u.version, u.planned, u.reason
      FROM unnest(${items.map((_, i) => i + 1)}::int[], ${items.map((i) => i.target)}::bigint[],
        ${items.map((i) => i.key ?? null)}::text[], ${items.map((i) => i.label)}::text[], ${items.map((i) => i.seenStatus)}::text[],
        ${items.map((i) => i.seenVersion)}::bigint[], ${items.map((i) => i.planned)}::text[],
        ${items.map((i) => i.reason)}::text[]) AS u(seq, target, key, label, status, version, planned, reason)`),
  );
}

const JOB_COLUMNS = [
  'j.id',
  'j.action',
  'j.list',
  'j.customer_uid',
  'j.params',
  'j.selection',
  'j.item_count',
  'j.actor_uid',
  'j.actor_email',
  'j.actor',
  'j.api_token_id',
  'j.client_address',
  'j.state',
  'j.approval_needed',
  'j.approved_by',
  'j.undo_of',
  'j.undone_by',
  'j.failure',
] as const;

/**
 * A job's row (locked until the transaction ends when `lock`), its times as ISO text, with the name
 * of its API token (a subquery, not a join: FOR UPDATE locks the job alone).
 */
export function findJob(db: Queryable, id: number, lock = false) {
  return firstRow(
    db,
    qb
      .selectFrom('bulk_jobs as j')
      .select(JOB_COLUMNS)
      .select([
        isoText('j.created_at').as('created_at'),
        isoText('j.started_at').as('started_at'),
        isoText('j.finished_at').as('finished_at'),
        // the name of the token it was asked for with (null once gone): the job's page shows it
        (eb) =>
          eb
            .selectFrom('staff_api_tokens as t')
            .select('t.name')
            .whereRef('t.id', '=', 'j.api_token_id')
            .as('api_token_name'),
      ])
      .where('j.id', '=', id)
      .$if(lock, (q) => q.forUpdate()),
  );
}
export type JobRow = NonNullable<Awaited<ReturnType<typeof findJob>>>;

/** How many items were planned to change or be refused, and how many have each outcome. */
export async function itemCounts(db: Queryable, jobId: number) {
  const r = await firstRow(
    db,
    qb
      .selectFrom('bulk_job_items')
      .select((eb) => [
        eb.fn.countAll<string>().filterWhere('planned', '=', 'change').as('change'),
        eb.fn.countAll<string>().filterWhere('planned', '=', 'refuse').as('refuse'),
        eb.fn.countAll<string>().filterWhere('outcome', '=', 'changed').as('changed'),
        eb.fn.countAll<string>().filterWhere('outcome', '=', 'refused').as('refused'),
        eb.fn.countAll<string>().filterWhere('outcome', '=', 'cancelled').as('cancelled'),
        eb.fn.countAll<string>().filterWhere('outcome', 'is', null).as('pending'),
      ])
      .where('job_id', '=', jobId),
  );
  const n = (v: string | number | undefined) => Number(v ?? 0);
  return {
    change: n(r?.change),
    refuse: n(r?.refuse),
    changed: n(r?.changed),
    refused: n(r?.refused),
    cancelled: n(r?.cancelled),
    pending: n(r?.pending),
  };
}

/** Items after `after`, at most `limit`, in order. */
export function itemsPage(db: Queryable, jobId: number, after: number, limit: number) {
  return rows(
    db,
    qb
      .selectFrom('bulk_job_items')
      .select([
        'seq',
        'target',
        'target_key',
        'label',
        'seen_status',
        'seen_version',
        'planned',
        'planned_reason',
        'outcome',
        'outcome_reason',
      ])
      .where('job_id', '=', jobId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(limit),
  );
}

/** Items still to run (no outcome yet), after `after`, at most `limit`. */
export function pendingItems(db: Queryable, jobId: number, after: number, limit: number) {
  return rows(
    db,
    qb
      .selectFrom('bulk_job_items')
      .select(['seq', 'target', 'target_key', 'seen_status', 'seen_version', 'planned', 'planned_reason'])
      .where('job_id', '=', jobId)
      .where('outcome', 'is', null)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(limit),
  );
}

/** The items a finished job changed, for its undo. */
export function changedItems(db: Queryable, jobId: number) {
  return rows(
    db,
    qb
      .selectFrom('bulk_job_items as i')
      .innerJoin('sites as s', 's.app_id', 'i.target')
      .select([
        'i.target',
        'i.target_key',
        'i.label',
        'i.seen_version',
        's.status',
        's.version',
        's.data_center',
        's.plan',
      ])
      .where('i.job_id', '=', jobId)
      .where('i.outcome', '=', 'changed')
      .orderBy('i.seq'),
  );
}

/**
 * Each item's outcome, a batch in one statement: what the run did wins over a cancel that marked
 * the item meanwhile.
 */
export async function recordOutcomes(
  db: Queryable,
  jobId: number,
  done: Array<{ seq: number; outcome: 'changed' | 'refused'; reason: string | null }>,
  at: Date,
): Promise<void> {
  if (done.length === 0) return;
  await execute(
    db,
    statement(sql`UPDATE bulk_job_items i SET outcome = u.outcome, outcome_reason = u.reason, done_at = ${at}
      FROM unnest(${done.map((d) => d.seq)}::int[], ${done.map((d) => d.outcome)}::text[], ${done.map((d) => d.reason)}::text[])
        AS u(seq, outcome, reason)
      WHERE i.job_id = ${jobId} AND i.seq = u.seq`),
  );
}

/** The items still pending are marked cancelled. */
export async function cancelPendingItems(db: Queryable, jobId: number, at: Date): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('bulk_job_items')
      .set({ outcome: 'cancelled', done_at: at })
      .where('job_id', '=', jobId)
      .where('outcome', 'is', null),
  );
}

export async function setJobState(
  db: Queryable,
  id: number,
  state: BulkState,
  at: Date,
  also: { approvedByUid?: string; approvedBy?: string; undoneBy?: number } = {},
): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('bulk_jobs')
      .set({
        state,
        ...(state === 'done' || state === 'cancelled' ? { finished_at: at, claimed_until: null } : {}),
        ...(also.approvedByUid
          ? { approved_by_uid: also.approvedByUid, approved_by: also.approvedBy ?? null, approved_at: at }
          : {}),
        ...(also.undoneBy !== undefined ? { undone_by: also.undoneBy } : {}),
      })
      .where('id', '=', id),
  );
}

/** Marks a job undone by another (a job already undone is not: answers false). */
export async function markUndone(db: Queryable, id: number, by: number): Promise<boolean> {
  const r = await firstRow(
    db,
    qb
      .updateTable('bulk_jobs')
      .set({ undone_by: by })
      .where('id', '=', id)
      .where('undone_by', 'is', null)
      .returning('id'),
  );
  return r !== undefined;
}

/**
 * Claims the next due job for `leaseMs`: a queued one, or a running one whose claim lapsed (its
 * instance stopped). FOR UPDATE SKIP LOCKED keeps two instances off one job.
 */
export function claimDueJob(db: Queryable, now: Date, leaseMs: number) {
  const due = qb
    .selectFrom('bulk_jobs')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('state', '=', 'queued'),
        eb.and([
          eb('state', '=', 'running'),
          eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]),
        ]),
      ]),
    )
    .orderBy('id')
    .limit(1)
    .forUpdate()
    .skipLocked();
  return firstRow(
    db,
    qb
      .with('due', () => due)
      .updateTable('bulk_jobs as b')
      .set((eb) => ({
        state: 'running',
        claimed_until: new Date(now.getTime() + leaseMs),
        started_at: eb.fn.coalesce('b.started_at', sql<Date>`${now}::timestamptz`),
      }))
      .from('due')
      .whereRef('b.id', '=', 'due.id')
      .returning(['b.id']),
  );
}

/**
 * A running job's claim renewed until `until` (null: given back, for the next run to take on);
 * false when the job is no longer running (cancelled meanwhile).
 */
export async function renewClaim(db: Queryable, id: number, until: Date | null): Promise<boolean> {
  const r = await firstRow(
    db,
    qb
      .updateTable('bulk_jobs')
      .set({ claimed_until: until })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .returning('id'),
  );
  return r !== undefined;
}

/**
 * A running job fails with its reason (its requester may no longer run it): its items not yet run
 * are refused with that reason (one the dry run refused keeps its own). A job cancelled meanwhile
 * stays cancelled.
 */
export async function failJob(db: Queryable, id: number, reason: string, at: Date): Promise<void> {
  const failed = await firstRow(
    db,
    qb
      .updateTable('bulk_jobs')
      .set({ state: 'failed', failure: reason, finished_at: at, claimed_until: null })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .returning('id'),
  );
  if (!failed) return;
  await execute(
    db,
    qb
      .updateTable('bulk_job_items')
      .set((eb) => ({
        outcome: 'refused',
        outcome_reason: eb
          .case()
          .when('planned', '=', 'refuse')
          .then(eb.ref('planned_reason'))
          .else(reason)
          .end(),
        done_at: at,
      }))
      .where('job_id', '=', id)
      .where('outcome', 'is', null),
  );
}

/** A running job is done (a cancelled one stays cancelled). */
export async function finishJob(db: Queryable, id: number, at: Date): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('bulk_jobs')
      .set({ state: 'done', finished_at: at, claimed_until: null })
      .where('id', '=', id)
      .where('state', '=', 'running'),
  );
}
