import type { NoticeAudience, NoticeKind } from '@sac/contract/notices';
import type { SiteScope } from '@sac/contract/role-scopes';
import { type ExpressionBuilder, type Selectable, sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import type { DB } from '../../db/schema.generated.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';
import { siteRowInScope } from '../../lib/site-scope.ts';

/** A fixed value written into the statement, as a literal rather than a parameter. */
const lit = <V extends string | number>(v: V) => sql.lit(v);
/** `= ANY` of a bound array of ids. */
const anyId = (ids: readonly number[]) => sql<number>`ANY(${ids}::bigint[])`;
/** `= ANY` of a bound array of text values. */
const anyText = <T extends string>(values: readonly string[]) => sql<T>`ANY(${values}::text[])`;

/**
 * A notice's stored audience is what the service wrote (NoticeAudience, as JSON), and its scope
 * the scoped sender's (role-scopes.ts; null: an unscoped sender's).
 */
type Stored = { audience: NoticeAudience; scope: SiteScope[] | null };

/**
 * Whose notices a sender reads: an unscoped sender every notice; a scoped one (role-scopes.ts)
 * only those they wrote while scoped, whose audience their scope bounded.
 */
export interface NoticeReader {
  uid: string;
  scope?: readonly SiteScope[] | undefined;
}

const notices = () => qb.selectFrom('customer_notices').selectAll().$narrowType<Stored>();

/** One notice; `lock` locks its row FOR UPDATE (a cancel decides under it, the job skips it meanwhile). */
export function findNotice(q: Queryable, id: number, lock = false, reader?: NoticeReader) {
  return firstRow(
    q,
    notices()
      .where('id', '=', id)
      .$if(reader?.scope !== undefined, (s) =>
        s.select((eb) =>
          eb.and([eb('created_by_uid', '=', reader!.uid), eb('scope', 'is not', null)]).as('readable'),
        ),
      )
      .$if(lock, (s) => s.forUpdate()),
  );
}

export type NoticeRow = NonNullable<Awaited<ReturnType<typeof findNotice>>>;

export interface Progress {
  total: number;
  sent: number;
  failed: number;
  skipped: number;
}

type Owners = ExpressionBuilder<{ s: DB['sites']; c: DB['customers'] }, 's' | 'c'>;

/** The sites' owners an audience names (over sites s JOIN customers c). */
function audienceFilter(eb: Owners, a: NoticeAudience, scope: readonly SiteScope[] | null | undefined) {
  const inScope = siteRowInScope(scope ?? undefined, 's');
  // a scoped sender's audience: the owners of the sites in their scope among those it names
  const alive = inScope
    ? eb.and([eb('c.status', '<>', lit('Deleted')), inScope])
    : eb('c.status', '<>', lit('Deleted'));
  switch (a.Type) {
    case 'plan':
      return eb.and([alive, eb('s.plan', '=', anyText<Selectable<DB['sites']>['plan']>(a.Plans ?? []))]);
    case 'data-center':
      return eb.and([alive, eb('s.data_center', '=', anyText(a.DataCenters ?? []))]);
    case 'sites':
      return eb.and([alive, eb('s.app_id', '=', anyId(a.AppIds ?? []))]);
    default:
      return alive;
  }
}

const owners = () => qb.selectFrom('sites as s').innerJoin('customers as c', 'c.uid', 's.owner_uid');

/** Distinct owner addresses an audience reaches, counted up to `cap` + 1 (beyond the cap the exact figure does not matter). */
export async function countAudience(
  db: Queryable,
  a: NoticeAudience,
  cap: number,
  scope?: readonly SiteScope[] | null,
): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .selectFrom(
        owners()
          .select((eb) => eb.fn<string>('lower', ['c.email']).as('email'))
          .distinct()
          .where((eb) => audienceFilter(eb, a, scope))
          .limit(cap + 1)
          .as('x'),
      )
      .select(sql<number>`count(*)::int`.as('n')),
  );
  return r?.n ?? 0;
}

/** One row per owner address of the audience; answers how many. */
export async function resolveRecipients(
  q: Queryable,
  noticeId: number,
  a: NoticeAudience,
  scope: readonly SiteScope[] | null,
): Promise<number> {
  const r = await rows(
    q,
    qb
      .insertInto('customer_notice_recipients')
      .columns(['notice_id', 'email', 'first_name'])
      .expression(
        owners()
          .distinctOn((eb) => eb.fn('lower', ['c.email']))
          .select((eb) => [
            sql<number>`${noticeId}::bigint`.as('notice_id'),
            eb.fn<string>('lower', ['c.email']).as('email'),
            'c.first_name',
          ])
          .where((eb) => audienceFilter(eb, a, scope))
          .orderBy((eb) => eb.fn('lower', ['c.email']))
          .orderBy('c.first_name'),
      )
      .onConflict((oc) => oc.columns(['notice_id', 'email']).doNothing())
      .returning('id'),
  );
  return r.length;
}

export async function insertNotice(
  q: Queryable,
  n: {
    kind: NoticeKind;
    subject: string;
    text: string;
    audience: NoticeAudience;
    /** A scoped sender's scope, which bounds the audience when the job resolves it. */
    scope: readonly SiteScope[] | undefined;
    sendAt: Date;
    now: Date;
    byUid: string;
    byEmail: string;
  },
): Promise<NoticeRow> {
  const r = await firstRow(
    q,
    qb
      .insertInto('customer_notices')
      .values({
        kind: n.kind,
        subject: n.subject,
        body_text: n.text,
        audience: JSON.stringify(n.audience),
        send_at: n.sendAt,
        created_at: n.now,
        created_by_uid: n.byUid,
        created_by_email: n.byEmail,
        ...(n.scope ? { scope: JSON.stringify(n.scope) } : {}),
      })
      .returningAll()
      .$narrowType<Stored>(),
  );
  return r!;
}

export function dataCenters(q: Queryable) {
  return rows(q, qb.selectFrom('data_centers').select(['code', 'name']).orderBy('code'));
}

/** A page of notices, newest first, before the cursor's id. */
export function listNotices(q: Queryable, before: number | undefined, limit: number, reader: NoticeReader) {
  return rows(
    q,
    notices()
      .$if(reader.scope !== undefined, (s) =>
        s.where('created_by_uid', '=', reader.uid).where('scope', 'is not', null),
      )
      .where((eb) =>
        eb.or([eb(sql<number | null>`${before ?? null}::bigint`, 'is', null), eb('id', '<', before ?? null)]),
      )
      .orderBy('id', 'desc')
      .limit(limit),
  );
}

/** Delivery counts of notices, from their recipients' outbox rows. */
export async function progressOf(q: Queryable, ids: number[]): Promise<Map<number, Progress>> {
  const out = new Map<number, Progress>();
  if (ids.length === 0) return out;
  const r = await rows(
    q,
    qb
      .selectFrom('customer_notice_recipients as r')
      .leftJoin('mail_outbox as o', 'o.id', 'r.outbox_id')
      .select((eb) => [
        'r.notice_id',
        eb.cast<number>(eb.fn.countAll(), 'integer').as('total'),
        eb.cast<number>(eb.fn.countAll().filterWhere('o.sent_at', 'is not', null), 'integer').as('sent'),
        eb.cast<number>(eb.fn.countAll().filterWhere('o.failed_at', 'is not', null), 'integer').as('failed'),
        eb
          .cast<number>(eb.fn.countAll().filterWhere('r.skipped_reason', 'is not', null), 'integer')
          .as('skipped'),
      ])
      .where('r.notice_id', '=', anyId(ids))
      .groupBy('r.notice_id'),
  );
  for (const row of r) out.set(Number(row.notice_id), row);
  return out;
}

/** Cancels a notice only while it is scheduled; answers the row, or undefined when it was not. */
export function cancelScheduled(q: Queryable, id: number, now: Date, by: string) {
  return firstRow(
    q,
    qb
      .updateTable('customer_notices')
      .set({ status: lit('cancelled'), cancelled_at: now, cancelled_by_email: by })
      .where('id', '=', id)
      .where('status', '=', lit('scheduled'))
      .returningAll()
      .$narrowType<Stored>(),
  );
}

/** A page of a notice's delivery log, by recipient id, optionally of one status. */
export function deliveries(
  q: Queryable,
  noticeId: number,
  status: string | undefined,
  after: number | undefined,
  limit: number,
) {
  const log = qb
    .selectFrom('customer_notice_recipients as r')
    .leftJoin('mail_outbox as o', 'o.id', 'r.outbox_id')
    .select((eb) => [
      'r.id',
      'r.email',
      'r.skipped_reason',
      'r.queued_at',
      'o.attempts',
      'o.sent_at',
      'o.failed_at',
      'o.last_error',
      'o.next_attempt_at',
      eb
        .case()
        .when('r.skipped_reason', 'is not', null)
        .then(lit('skipped'))
        .when('r.queued_at', 'is', null)
        .then(lit('pending'))
        .when('o.sent_at', 'is not', null)
        .then(lit('sent'))
        .when('o.failed_at', 'is not', null)
        .then(lit('failed'))
        .when('o.last_error', 'is not', null)
        .then(lit('retrying'))
        .else(lit('queued'))
        .end()
        .$castTo<string>()
        .as('status'),
    ])
    .where('r.notice_id', '=', noticeId)
    .where((eb) =>
      eb.or([eb(sql<number | null>`${after ?? null}::bigint`, 'is', null), eb('r.id', '>', after ?? null)]),
    );
  return rows(
    q,
    qb
      .selectFrom(log.as('d'))
      .selectAll()
      .where((eb) =>
        eb.or([
          eb(sql<string | null>`${status ?? null}::text`, 'is', null),
          eb('d.status', '=', status ?? null),
        ]),
      )
      .orderBy('d.id')
      .limit(limit),
  );
}

// The sending job's steps.

/** Claims due scheduled notices (another run skips the rows this one holds). */
export function claimDue(q: Queryable, now: Date, limit: number) {
  return rows(
    q,
    notices()
      .where('status', '=', lit('scheduled'))
      .where('send_at', '<=', now)
      .orderBy('send_at')
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked(),
  );
}

export async function markStarted(q: Queryable, id: number, now: Date, total: number): Promise<void> {
  await execute(
    q,
    qb
      .updateTable('customer_notices')
      .set({ status: lit('sending'), started_at: now, total })
      .where('id', '=', id),
  );
}

export async function markFailed(q: Queryable, id: number, now: Date, reason: string): Promise<void> {
  await execute(
    q,
    qb
      .updateTable('customer_notices')
      .set({ status: lit('failed'), started_at: now, finished_at: now, failure_reason: reason })
      .where('id', '=', id),
  );
}

/** Notices being sent that still have recipients to queue. */
export function sendingWithWork(q: Queryable) {
  return rows(
    q,
    notices()
      .where('status', '=', lit('sending'))
      .where('queued_at', 'is', null)
      .orderBy('started_at')
      .orderBy('id')
      .limit(lit(10)),
  );
}

/**
 * Claims the next batch of a notice's unqueued recipients (rows another run holds are skipped),
 * each with whether its address unsubscribed from announcements.
 */
export function claimBatch(q: Queryable, noticeId: number, limit: number) {
  return rows(
    q,
    qb
      .selectFrom('customer_notice_recipients as r')
      .leftJoin('notice_unsubscribes as u', 'u.email', 'r.email')
      .select((eb) => [
        'r.id',
        'r.email',
        'r.first_name',
        eb('u.email', 'is not', null).$castTo<boolean>().as('unsubscribed'),
      ])
      .where('r.notice_id', '=', noticeId)
      .where('r.queued_at', 'is', null)
      .where('r.skipped_reason', 'is', null)
      .orderBy('r.id')
      .limit(limit)
      .forUpdate('r')
      .skipLocked(),
  );
}

export async function markQueued(q: Queryable, now: Date, ids: number[], outboxIds: number[]): Promise<void> {
  await execute(
    q,
    qb
      .updateTable('customer_notice_recipients as r')
      .from(
        sql<{ id: number; outbox_id: number }>`unnest(${ids}::bigint[], ${outboxIds}::bigint[])`.as<'m'>(
          sql`m (id, outbox_id)`,
        ),
      )
      .set((eb) => ({ outbox_id: eb.ref('m.outbox_id'), queued_at: now }))
      .whereRef('r.id', '=', 'm.id'),
  );
}

export async function markSkipped(q: Queryable, ids: number[], reason: string): Promise<void> {
  if (ids.length > 0)
    await execute(
      q,
      qb
        .updateTable('customer_notice_recipients')
        .set({ skipped_reason: reason })
        .where('id', '=', anyId(ids)),
    );
}

/** A notice whose every recipient is queued or skipped is marked so (no more batches). */
export async function markAllQueued(q: Queryable, noticeId: number, now: Date): Promise<void> {
  await execute(
    q,
    qb
      .updateTable('customer_notices as n')
      .set({ queued_at: now })
      .where('n.id', '=', noticeId)
      .where('n.queued_at', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('customer_notice_recipients as r')
              .select(sql.lit(1).as('one'))
              .whereRef('r.notice_id', '=', 'n.id')
              .where('r.queued_at', 'is', null)
              .where('r.skipped_reason', 'is', null),
          ),
        ),
      ),
  );
}

/** Notices whose every queued mail has been sent or given up are sent. */
export async function finishDelivered(q: Queryable, now: Date): Promise<number> {
  const r = await rows(
    q,
    qb
      .updateTable('customer_notices as n')
      .set({ status: lit('sent'), finished_at: now })
      .where('n.status', '=', lit('sending'))
      .where('n.queued_at', 'is not', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('customer_notice_recipients as r')
              .innerJoin('mail_outbox as o', 'o.id', 'r.outbox_id')
              .select(sql.lit(1).as('one'))
              .whereRef('r.notice_id', '=', 'n.id')
              .where('o.sent_at', 'is', null)
              .where('o.failed_at', 'is', null),
          ),
        ),
      )
      .returning('n.id'),
  );
  return r.length;
}

export async function unsubscribed(q: Queryable, email: string): Promise<boolean> {
  const r = await rows(
    q,
    qb.selectFrom('notice_unsubscribes').select(sql.lit(1).as('one')).where('email', '=', email),
  );
  return r.length > 0;
}

/** True when the address was newly unsubscribed. */
export async function unsubscribe(q: Queryable, email: string, now: Date): Promise<boolean> {
  const r = await rows(
    q,
    qb
      .insertInto('notice_unsubscribes')
      .values({ email, unsubscribed_at: now })
      .onConflict((oc) => oc.column('email').doNothing())
      .returning('email'),
  );
  return r.length === 1;
}
