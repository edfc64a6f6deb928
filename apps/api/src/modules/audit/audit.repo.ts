import { type AuditEvent, type AuditFilters, FAILED_ACTIONS, REFUSED_ACTIONS } from '@sac/contract/audit';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { firstRow, isoText, qb, rows } from '../../db/sql.ts';

/**
 * Reads of the staff audit trail (activity_log). Every read is keyset-paged on (at, id), so a page
 * deep in the trail costs what the first does; each filter has an index that starts with it.
 */

/** A position in the trail: the (at, id) of the last row read; `at` as PostgreSQL writes it. */
export interface TrailKey {
  at: string;
  id: string;
}

/** LIKE's wildcards taken literally. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The rows matching the filters, each filter on a column an index starts with. */
function matching(f: AuditFilters) {
  return qb
    .selectFrom('activity_log')
    .$if(Boolean(f.actor), (q) =>
      q.where((eb) => eb(eb.fn('lower', ['actor_email']), '=', eb.fn('lower', [eb.val(f.actor)]))),
    )
    .$if(Boolean(f.action), (q) => q.where('action', '=', f.action ?? ''))
    .$if(Boolean(f.customer), (q) => q.where('customer_uid', '=', sql<string>`${f.customer}::uuid`))
    .$if(Boolean(f.appId), (q) => q.where('app_id', '=', sql<number>`${f.appId}::bigint`))
    .$if(Boolean(f.from), (q) => q.where('at', '>=', sql<Date>`${f.from}::timestamptz`))
    .$if(Boolean(f.to), (q) => q.where('at', '<=', sql<Date>`${f.to}::timestamptz`))
    .$if(f.result === 'refused', (q) => q.where('action', 'in', [...REFUSED_ACTIONS]))
    .$if(f.result === 'failed', (q) => q.where('action', 'in', [...FAILED_ACTIONS]))
    .$if(f.result === 'done', (q) => q.where('action', 'not in', [...REFUSED_ACTIONS, ...FAILED_ACTIONS]))
    .$if(Boolean(f.q), (q) => q.where('search_text', 'like', `%${likeLiteral((f.q ?? '').toLowerCase())}%`));
}

/** Up to `upTo`, an id as text (the last id when an export or a count began). */
const notPast = (upTo: string) => sql<number>`${upTo}::bigint`;

/** A JSON object as read from details (parsed from the row's own text); any other value reads as no details. */
const detailsOf = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * The columns of an event as read, `at` and `id` also as keys (text, exact to the microsecond);
 * the trail's SIEM stream reads its rows with them too (trail-stream.repo.ts).
 */
export function eventColumns(q: ReturnType<typeof matching>) {
  return q.select((eb) => [
    eb.cast<string>('id', 'text').as('id'),
    isoText('at').as('at_iso'),
    eb.cast<string>('at', 'text').as('at_key'),
    eb.cast<string | null>('actor_uid', 'text').as('actor_uid'),
    'actor_email',
    'action',
    'target_type',
    'target_id',
    eb.cast<string | null>('customer_uid', 'text').as('customer_uid'),
    eb.cast<string | null>('app_id', 'text').as('app_id'),
    'client_address',
    'request_id',
    eb.cast<string | null>('impersonation_request_id', 'text').as('impersonation_request_id'),
    'details',
  ]);
}
/**
 * The order keys of a page that is ordered again outside its own statement (the screen's pages):
 * for SQL only, as a read row would pay a Date parsed for each.
 */
const ORDER_KEYS = ['activity_log.id as id_n', 'activity_log.at as at_t'] as const;

type EventRow = {
  id: string;
  at_iso: string;
  at_key: string;
  actor_uid: string | null;
  actor_email: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  customer_uid: string | null;
  app_id: string | null;
  client_address: string | null;
  request_id: string | null;
  impersonation_request_id: string | null;
  details: unknown;
};

export const eventOf = (r: EventRow): AuditEvent => ({
  Id: r.id,
  At: r.at_iso,
  ActorUid: r.actor_uid,
  ActorEmail: r.actor_email,
  Action: r.action,
  TargetType: r.target_type,
  TargetId: r.target_id,
  CustomerUid: r.customer_uid,
  AppId: r.app_id === null ? null : Number(r.app_id),
  ClientAddress: r.client_address,
  RequestId: r.request_id,
  ImpersonationRequestId: r.impersonation_request_id === null ? null : Number(r.impersonation_request_id),
  Details: detailsOf(r.details),
});

/**
 * Up to `limit` rows matching the filters, after `after` in the given order (newest first for the
 * screen, oldest first for an export), and not past `upTo` (the last id when an export began).
 */
function timePage(
  f: AuditFilters,
  opts: { after?: TrailKey; limit: number; order: 'newest' | 'oldest'; upTo?: string },
) {
  const cmp = opts.order === 'newest' ? '<' : '>';
  const dir = opts.order === 'newest' ? 'desc' : 'asc';
  const { after, upTo } = opts;
  return eventColumns(matching(f))
    .select(sql<string | null>`null::text`.as('sort_key'))
    .$if(after !== undefined, (q) =>
      q.where((eb) =>
        eb(
          eb.refTuple('at', 'id'),
          cmp,
          eb.tuple(sql<Date>`${after?.at}::timestamptz`, sql<number>`${after?.id}::bigint`),
        ),
      ),
    )
    .$if(upTo !== undefined, (q) => q.where('id', '<=', notPast(upTo ?? '0')))
    .orderBy('activity_log.at', dir)
    .orderBy('activity_log.id', dir)
    .limit(opts.limit);
}

export async function readTrail(
  db: Queryable,
  f: AuditFilters,
  opts: { after?: TrailKey; limit: number; order: 'newest' | 'oldest'; upTo?: string },
): Promise<{ events: AuditEvent[]; keys: TrailKey[] }> {
  const found = await rows(db, timePage(f, opts));
  return { events: found.map(eventOf), keys: found.map((row) => ({ at: row.at_key, id: row.id })) };
}

/** The trail's orders by a column other than time: the column, as its index holds it. */
export type TrailSortKey = 'actor' | 'action';
const KEY_COLUMN: Record<TrailSortKey, string> = {
  actor: 'lower(activity_log.actor_email)',
  action: 'activity_log.action',
};

/** A position in an order by actor or action: the last row's key (null: the system) and (at, id). */
export interface KeyedTrailKey extends TrailKey {
  key: string | null;
}

/**
 * A page of the trail ordered by actor or action, from the index that starts with that column
 * (lower(actor_email), at DESC, id DESC) or (action, at DESC, id DESC): A to Z, newest first
 * within, rows without an actor last; descending reads the same index backwards (Z to A, oldest
 * first within, rows without an actor first), so every page is one bounded index range and the
 * order is total (id breaks ties). The directions are mixed, so a position is not one row
 * comparison: a page after `after` is the rest of its group, the groups after it and (A to Z) the
 * rows without a key, each read up to `limit` by its own index range and merged.
 */
function keyedPage(
  f: AuditFilters,
  by: TrailSortKey,
  descending: boolean,
  limit: number,
  after?: KeyedTrailKey,
) {
  const k = sql.raw<string | null>(KEY_COLUMN[by]);
  const timeDir = descending ? 'asc' : 'desc';
  const keyOrder = descending ? sql`${k} desc nulls first` : sql`${k} asc nulls last`;
  const base = () => eventColumns(matching(f)).select(ORDER_KEYS).select(k.as('sort_key'));
  const byTime = <Q extends ReturnType<typeof base>>(q: Q) =>
    q.orderBy('activity_log.at', timeDir).orderBy('activity_log.id', timeDir).limit(limit);
  if (!after) return byTime(base().orderBy(keyOrder));
  const cmp = descending ? '>' : '<';
  const atId = sql`(activity_log.at, activity_log.id) ${sql.raw(cmp)} (${after.at}::timestamptz, ${after.id}::bigint)`;
  const branches = [
    // The rest of the cursor's group.
    byTime(
      base()
        .where(after.key === null ? sql<boolean>`${k} is null` : sql<boolean>`${k} = ${after.key}`)
        .where(sql<boolean>`${atId}`),
    ),
  ];
  if (!descending && after.key !== null) {
    branches.push(byTime(base().where(sql<boolean>`${k} > ${after.key}`).orderBy(keyOrder)));
    if (by === 'actor') branches.push(byTime(base().where(sql<boolean>`${k} is null`)));
  } else if (descending) {
    const later = after.key === null ? sql<boolean>`${k} is not null` : sql<boolean>`${k} < ${after.key}`;
    branches.push(byTime(base().where(later).orderBy(keyOrder)));
  }
  // Each branch keeps its own ORDER BY and LIMIT inside its subquery.
  const parts = branches.map((b, i) => qb.selectFrom(b.as(`b${i}`)).selectAll());
  const merged = parts.slice(1).reduce((acc, p) => acc.unionAll(p), parts[0]!);
  const keyOut = descending ? sql`u.sort_key desc nulls first` : sql`u.sort_key asc nulls last`;
  return qb
    .selectFrom(merged.as('u'))
    .selectAll()
    .orderBy(keyOut)
    .orderBy('u.at_t', timeDir)
    .orderBy('u.id_n', timeDir)
    .limit(limit);
}

/** An event of the screen's page with the names of what it touched (see AuditTrailRow). */
export interface NamedEvent {
  event: AuditEvent;
  key: KeyedTrailKey;
  customerName: string | null;
  siteName: string | null;
  staffName: string | null;
  targetGone: boolean;
}

/**
 * One page of the trail for the screen, in the order asked, with the customer, site and staff
 * member each event names read by the same statement: the page's rows (at most `limit`) joined to
 * those tables by their keys. A target since deleted reads the name its event recorded.
 */
export async function readNamedTrail(
  db: Queryable,
  f: AuditFilters,
  opts: { limit: number; sort: { by: 'time' | TrailSortKey; descending: boolean }; after?: KeyedTrailKey },
): Promise<NamedEvent[]> {
  const { by, descending } = opts.sort;
  // Both pages answer the same columns (eventColumns and sort_key); the keyed one through a union.
  const byTime = () =>
    timePage(f, { after: opts.after, limit: opts.limit, order: descending ? 'newest' : 'oldest' }).select(
      ORDER_KEYS,
    );
  const page =
    by === 'time'
      ? byTime()
      : (keyedPage(f, by, descending, opts.limit, opts.after) as unknown as ReturnType<typeof byTime>);
  const timeDir = by === 'time' ? (descending ? 'desc' : 'asc') : descending ? 'asc' : 'desc';
  const keyOut = descending ? sql`p.sort_key desc nulls first` : sql`p.sort_key asc nulls last`;
  const found = await rows(
    db,
    qb
      .selectFrom(page.as('p'))
      .leftJoin('customers as c', (j) => j.on(sql<boolean>`c.uid = p.customer_uid::uuid`))
      .leftJoin('sites as s', (j) => j.on(sql<boolean>`s.app_id = p.app_id::bigint`))
      .leftJoin('staff as st', (j) =>
        j.on(sql<boolean>`p.target_type = 'staff' and st.uid::text = p.target_id`),
      )
      .selectAll('p')
      .select([
        sql<
          string | null
        >`coalesce(nullif(trim(c.first_name || ' ' || c.last_name), ''), c.email, case when p.target_type = 'customer' then p.details->>'email' end)`.as(
          'customer_name',
        ),
        sql<string | null>`coalesce(s.app_name, p.details->>'appName')`.as('site_name'),
        sql<
          string | null
        >`case when p.target_type = 'staff' then coalesce(nullif(st.full_name, ''), st.email, p.details->>'email') end`.as(
          'staff_name',
        ),
        sql<boolean>`(p.customer_uid is not null and c.uid is null) or (p.app_id is not null and s.app_id is null) or (p.target_type = 'staff' and st.uid is null)`.as(
          'target_gone',
        ),
      ])
      .$if(by !== 'time', (q) => q.orderBy(keyOut))
      .orderBy('p.at_t', timeDir)
      .orderBy('p.id_n', timeDir),
  );
  return found.map((r) => ({
    event: eventOf(r),
    key: { key: r.sort_key, at: r.at_key, id: r.id },
    customerName: r.customer_name,
    siteName: r.site_name,
    staffName: r.staff_name,
    targetGone: r.target_gone === true,
  }));
}

/** How many rows match, up to the row `upTo` (exact: rows are never removed). */
export async function countTrail(db: Queryable, f: AuditFilters, upTo: string): Promise<number> {
  const r = await firstRow(
    db,
    matching(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', '<=', notPast(upTo)),
  );
  return Number(r?.n ?? 0);
}

/** The id of the latest row ('0' when the trail is empty). */
export async function lastTrailId(db: Queryable): Promise<string> {
  const r = await firstRow(
    db,
    qb.selectFrom('activity_log').select((eb) => eb.cast<string | null>(eb.fn.max('id'), 'text').as('id')),
  );
  return r?.id ?? '0';
}
