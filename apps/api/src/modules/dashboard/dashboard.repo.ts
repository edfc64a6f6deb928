import {
  DASHBOARD_DAYS,
  DASHBOARD_GRANTS,
  DASHBOARD_ITEMS,
  RECENT_CUSTOMERS_KEPT,
} from '@sac/contract/dashboard';
import type { SiteScope } from '@sac/contract/role-scopes';
import { type ExpressionBuilder, type NotNull, sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import type { DB } from '../../db/schema.generated.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';
import {
  customerInScope,
  siteIdInScope,
  siteInScope,
  siteRowInScope,
  whereInScope,
} from '../../lib/site-scope.ts';

/*
 * The dashboard's reads. Every one walks an index or a counter table (migration 0042), never a
 * table of customers or sites: the call answers in milliseconds at a million customers.
 */

/** A fixed value written into the statement: the partial indexes' predicates name these. */
const lit = <V extends string | number>(v: V) => sql.lit(v);
const counted = sql<number>`count(*)::int`;

/** The expression of impersonation_requests_pending_priority_idx (migration 0042), word for word. */
const PRIORITY_RANK = sql<number>`CASE priority WHEN 'Critical' THEN 4 WHEN 'High' THEN 3 WHEN 'Moderate' THEN 2 ELSE 1 END`;

type Requests = ExpressionBuilder<{ r: DB['impersonation_requests'] }, 'r'>;

/** Not the viewer's own request: nobody decides their own. */
const notMine = (eb: Requests, uid: string, email: string) =>
  eb.and([
    eb('r.initiator_uid', 'is distinct from', uid),
    eb(eb.fn('lower', ['r.initiator_email']), '<>', eb.fn('lower', [eb.val(email)])),
  ]);

/** Pending requests, not the viewer's own. */
const awaiting = (eb: Requests, uid: string, email: string) =>
  eb.and([eb('r.status', '=', lit('Pending')), eb('r.deleted_at', 'is', null), notMine(eb, uid, email)]);

/** The owner has consented (a customer's own request is their consent): approval needs it. */
const consented = (eb: Requests) =>
  eb.or([eb('r.consent', '=', lit('granted')), eb.ref('r.is_customer_request')]);

/** Pending requests an approver may decide now: not their own, and consented to. */
const decidable = (eb: Requests, uid: string, email: string) =>
  eb.and([awaiting(eb, uid, email), consented(eb)]);

/**
 * Pending requests an approver may decide now, most urgent first, then oldest: a walk of the
 * pending requests' priority index, cut at five (a sort of the whole pile took 15 ms at 2,000 on
 * PGlite). The count says how many they may decide now and how many wait for the owner's consent.
 */
export async function awaitingDecision(
  db: Queryable,
  uid: string,
  email: string,
  scope?: readonly SiteScope[],
) {
  // a scoped approver decides only on sites in their scope (role-scopes.ts)
  const inScope = siteIdInScope(scope, sql.ref('r.app_id'));
  const [count, items] = await Promise.all([
    firstRow(
      db,
      qb
        .selectFrom('impersonation_requests as r')
        .select((eb) => [
          sql<number>`count(*) filter (where ${consented(eb)})::int`.as('now'),
          sql<number>`count(*) filter (where not (${consented(eb)}))::int`.as('customer'),
        ])
        .where((eb) => awaiting(eb, uid, email))
        .$call(whereInScope(inScope)),
    ),
    // The page is cut first and only then joined to its sites: a join first hashed every site.
    rows(
      db,
      qb
        .selectFrom(
          qb
            .selectFrom('impersonation_requests as r')
            .select((eb) => [
              'r.id',
              'r.app_id',
              'r.priority',
              'r.initiator_email',
              'r.created_at',
              'r.reason_code',
              'r.case_reference',
              consented(eb).$castTo<boolean>().as('consent'),
              eb
                .or([
                  eb('r.assignees', '@>', sql<string[]>`ARRAY[lower(${email})]`),
                  eb('r.assignees', '@>', sql<string[]>`ARRAY[${email}::text]`),
                ])
                .$castTo<boolean>()
                .as('assigned'),
              PRIORITY_RANK.as('rank'),
            ])
            .where((eb) => decidable(eb, uid, email))
            .$call(whereInScope(inScope))
            .orderBy(PRIORITY_RANK, 'desc')
            .orderBy('r.created_at')
            .orderBy('r.id')
            .limit(lit(DASHBOARD_ITEMS))
            .as('p'),
        )
        .innerJoin('sites as s', 's.app_id', 'p.app_id')
        .select([
          'p.id',
          's.app_name',
          'p.priority',
          'p.initiator_email',
          'p.created_at',
          'p.reason_code',
          'p.case_reference',
          'p.consent',
          'p.assigned',
        ])
        .orderBy('p.rank', 'desc')
        .orderBy('p.created_at')
        .orderBy('p.id'),
    ),
  ]);
  return { count: count?.now ?? 0, awaitingCustomer: count?.customer ?? 0, items };
}

/** The viewer's own requests still pending (what they asked for: the initiator index). */
export async function minePending(db: Queryable, email: string): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .selectFrom('impersonation_requests')
      .select(counted.as('n'))
      .where((eb) => eb(eb.fn('lower', ['initiator_email']), '=', eb.fn('lower', [eb.val(email)])))
      .where('status', '=', lit('Pending'))
      .where('deleted_at', 'is', null),
  );
  return r?.n ?? 0;
}

/** Unexpired grants (all of them, or those `holderUid` holds). */
const live = (eb: Requests, now: Date, holderUid: string | null) =>
  eb.and([
    eb('r.status', '=', lit('Approved')),
    eb('r.deleted_at', 'is', null),
    eb('r.expires_at', '>', now),
    eb.or([eb(sql<string | null>`${holderUid}::uuid`, 'is', null), eb('r.holder_uid', '=', holderUid)]),
  ]);

/** Unexpired grants, soonest to end first: all of them, or those `holderUid` holds. */
export async function liveGrants(
  db: Queryable,
  now: Date,
  viewer: { uid: string; email: string },
  holderUid: string | null,
  scope?: readonly SiteScope[],
) {
  const inScope = siteIdInScope(scope, sql.ref('r.app_id'));
  const [count, items] = await Promise.all([
    firstRow(
      db,
      qb
        .selectFrom('impersonation_requests as r')
        .select(counted.as('n'))
        .where((eb) => live(eb, now, holderUid))
        .$call(whereInScope(inScope)),
    ),
    rows(
      db,
      qb
        .selectFrom(
          qb
            .selectFrom('impersonation_requests as r')
            .select((eb) => [
              'r.id',
              'r.app_id',
              'r.holder_email',
              'r.approved_roles',
              'r.approved_permissions',
              'r.expires_at',
              'r.break_glass',
              'r.reason_code',
              'r.case_reference',
              eb
                .not(notMine(eb, viewer.uid, viewer.email))
                .$castTo<boolean>()
                .as('mine'),
            ])
            .where((eb) => live(eb, now, holderUid))
            .$call(whereInScope(inScope))
            .orderBy('r.expires_at')
            .orderBy('r.id')
            .limit(lit(DASHBOARD_GRANTS))
            .as('g'),
        )
        .innerJoin('sites as s', 's.app_id', 'g.app_id')
        .select([
          'g.id',
          's.app_name',
          'g.holder_email',
          'g.approved_roles',
          'g.approved_permissions',
          'g.expires_at',
          'g.break_glass',
          'g.reason_code',
          'g.case_reference',
          'g.mine',
        ])
        .orderBy('g.expires_at')
        .orderBy('g.id')
        // A live grant has its end.
        .$narrowType<{ expires_at: NotNull }>(),
    ),
  ]);
  return { count: count?.n ?? 0, items };
}

/** Totals (the sum of the daily counters) and the days since `from` (a UTC date). */
export async function creationDays(db: Queryable, from: string) {
  const [totals, days] = await Promise.all([
    firstRow(
      db,
      qb
        .selectFrom('dashboard_days')
        .select([
          sql<number>`coalesce(sum(customers), 0)::bigint`.as('customers'),
          sql<number>`coalesce(sum(sites), 0)::bigint`.as('sites'),
        ]),
    ),
    rows(
      db,
      qb
        .selectFrom('dashboard_days')
        .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'customers', 'sites'])
        .where('day', '>=', sql<Date>`${from}::date`)
        .orderBy('day')
        .limit(lit(DASHBOARD_DAYS + 1)),
    ),
  ]);
  return {
    customers: Number(totals?.customers ?? 0),
    sites: Number(totals?.sites ?? 0),
    days: days.map((d) => ({ ...d, customers: Number(d.customers), sites: Number(d.sites) })),
  };
}

/**
 * Sites by plan and data center, with the data centers' names. The counters are kept by exactly
 * the axes a role's scope sets, so a scoped viewer's are the counters in their scope, exact.
 */
export async function siteCounts(db: Queryable, scope?: readonly SiteScope[]) {
  const inScope = siteInScope(scope, {
    dataCenter: sql<string | null>`nullif(c.data_center, '')`,
    plan: sql.ref<string>('c.plan'),
  });
  const r = await rows(
    db,
    qb
      .selectFrom('dashboard_site_counts as c')
      .leftJoin('data_centers as d', 'd.code', 'c.data_center')
      .select(['c.plan', 'c.data_center', 'd.name', 'c.sites'])
      .where('c.sites', '<>', lit(0))
      .$call(whereInScope(inScope)),
  );
  return r.map((x) => ({ ...x, sites: Number(x.sites) }));
}

/** Trials ending in [now, until), soonest first; with a scope, of the sites in it alone. */
export async function trialsEnding(db: Queryable, now: Date, until: Date, scope?: readonly SiteScope[]) {
  const inScope = siteRowInScope(scope, 'sites');
  const ending = qb
    .selectFrom('sites')
    .where('plan_status', '=', lit('Trial'))
    .where('trial_ends_at', '>=', now)
    .where('trial_ends_at', '<', until)
    .$call(whereInScope(inScope));
  const [count, items] = await Promise.all([
    firstRow(db, ending.select(counted.as('n'))),
    rows(
      db,
      ending
        .select(['app_id', 'app_name', 'owner_uid', 'trial_ends_at'])
        .orderBy('trial_ends_at')
        .orderBy('app_id')
        .limit(lit(DASHBOARD_ITEMS))
        // Within the range, so not null.
        .$narrowType<{ trial_ends_at: NotNull }>(),
    ),
  ]);
  return { count: count?.n ?? 0, items: items.map((t) => ({ ...t, app_id: Number(t.app_id) })) };
}

/**
 * Pending and failing custom domains: each count walks its partial index (0008, 0045); with a
 * scope, each domain's site is tested (the walk stays that of the index).
 */
export async function domainTrouble(
  db: Queryable,
  scope?: readonly SiteScope[],
): Promise<{ pending: number; failing: number }> {
  const inScope = siteIdInScope(scope, sql.ref('custom_domains.app_id'));
  const domains = qb
    .selectFrom('custom_domains')
    .select((eb) => eb.fn.countAll().as('n'))
    .$call(whereInScope(inScope));
  const r = await firstRow(
    db,
    qb.selectNoFrom([
      sql<number>`(${domains.where('status', '=', lit('Pending Verification'))})::int`.as('pending'),
      sql<number>`(${domains.where('failing_since', 'is not', null)})::int`.as('failing'),
    ]),
  );
  return { pending: r?.pending ?? 0, failing: r?.failing ?? 0 };
}

/** A view of a customer by a staff member not yet written (recent-views.ts). */
export interface PendingView {
  staffUid: string;
  customerUid: string;
  at: Date;
}

/** Views not yet written, as a table of (customer_uid, viewed_at). */
const pendingViews = (pending: PendingView[]) =>
  sql<{
    customer_uid: string;
    viewed_at: Date;
  }>`unnest(${pending.map((p) => p.customerUid)}::uuid[], ${pending.map((p) => p.at)}::timestamptz[])`.as<'p'>(
    sql`p (customer_uid, viewed_at)`,
  );

/** A staff member's newest RECENT_CUSTOMERS_KEPT views: the table's, and `pending` ones of this instance. */
export function recentCustomers(
  db: Queryable,
  staffUid: string,
  pending: PendingView[] = [],
  scope?: readonly SiteScope[],
) {
  const columns = ['c.uid', 'c.first_name', 'c.last_name', 'c.email', 'v.viewed_at'] as const;
  // A customer who has left the viewer's scope since the view is not shown.
  const inScope = customerInScope(scope, sql.ref('c.uid'));
  if (pending.length === 0) {
    return rows(
      db,
      qb
        .selectFrom('staff_recent_customers as v')
        .innerJoin('customers as c', 'c.uid', 'v.customer_uid')
        .select(columns)
        .where('v.staff_uid', '=', staffUid)
        .$call(whereInScope(inScope))
        .orderBy('v.viewed_at', 'desc')
        .orderBy('c.uid')
        .limit(lit(RECENT_CUSTOMERS_KEPT)),
    );
  }
  const views = qb
    .selectFrom(
      qb
        .selectFrom('staff_recent_customers')
        .select(['customer_uid', 'viewed_at'])
        .where('staff_uid', '=', staffUid)
        .unionAll(qb.selectFrom(pendingViews(pending)).selectAll())
        .as('a'),
    )
    .select((eb) => ['customer_uid', eb.fn.max('viewed_at').as('viewed_at')])
    .groupBy('customer_uid');
  return rows(
    db,
    qb
      .selectFrom(views.as('v'))
      .innerJoin('customers as c', 'c.uid', 'v.customer_uid')
      .select(columns)
      .$call(whereInScope(inScope))
      .orderBy('v.viewed_at', 'desc')
      .orderBy('c.uid')
      .limit(lit(RECENT_CUSTOMERS_KEPT)),
  );
}

/**
 * Writes a batch of views (one per staff member and customer) in one statement: each staff
 * member's list becomes the newest RECENT_CUSTOMERS_KEPT of what it held and what the batch adds.
 * Views of a customer or staff member since deleted are left out. Two instances writing one
 * member's views at once may leave a few more rows until the next batch; the read takes the newest.
 */
export async function recordCustomerViews(db: Queryable, views: PendingView[]): Promise<void> {
  const batch = sql<{
    staff_uid: string;
    customer_uid: string;
    viewed_at: Date;
  }>`unnest(${views.map((v) => v.staffUid)}::uuid[], ${views.map((v) => v.customerUid)}::uuid[], ${views.map((v) => v.at)}::timestamptz[])`;
  await execute(
    db,
    qb
      .with('batch', () =>
        qb
          .selectFrom(batch.as<'b'>(sql`b (staff_uid, customer_uid, viewed_at)`))
          .select(['b.staff_uid', 'b.customer_uid', 'b.viewed_at'])
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('staff as s').select(sql.lit(1).as('one')).whereRef('s.uid', '=', 'b.staff_uid'),
            ),
          )
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('customers as c')
                .select(sql.lit(1).as('one'))
                .whereRef('c.uid', '=', 'b.customer_uid'),
            ),
          ),
      )
      .with('ranked', (w) =>
        w
          .selectFrom(
            w
              .selectFrom('staff_recent_customers')
              .select(['staff_uid', 'customer_uid', 'viewed_at'])
              .where('staff_uid', 'in', w.selectFrom('batch').select('staff_uid'))
              .unionAll(w.selectFrom('batch').select(['staff_uid', 'customer_uid', 'viewed_at']))
              .as('a'),
          )
          .select([
            'staff_uid',
            'customer_uid',
            // The builder has no words for a window over an aggregate.
            sql<number>`row_number() OVER (PARTITION BY staff_uid ORDER BY max(viewed_at) DESC, customer_uid)`.as(
              'n',
            ),
          ])
          .groupBy(['staff_uid', 'customer_uid']),
      )
      .with('kept', (w) =>
        w
          .insertInto('staff_recent_customers')
          .columns(['staff_uid', 'customer_uid', 'viewed_at'])
          .expression(
            w
              .selectFrom('batch as b')
              .innerJoin('ranked as r', (j) =>
                j.onRef('r.staff_uid', '=', 'b.staff_uid').onRef('r.customer_uid', '=', 'b.customer_uid'),
              )
              .select(['b.staff_uid', 'b.customer_uid', 'b.viewed_at'])
              .where('r.n', '<=', lit(RECENT_CUSTOMERS_KEPT)),
          )
          .onConflict((oc) =>
            oc.columns(['staff_uid', 'customer_uid']).doUpdateSet((eb) => ({
              viewed_at: eb.fn('GREATEST', [
                eb.ref('staff_recent_customers.viewed_at'),
                eb.ref('excluded.viewed_at'),
              ]),
            })),
          )
          .returning(sql.lit(1).as('one')),
      )
      .deleteFrom('staff_recent_customers as o')
      .using('ranked as r')
      .whereRef('o.staff_uid', '=', 'r.staff_uid')
      .whereRef('o.customer_uid', '=', 'r.customer_uid')
      .where('r.n', '>', lit(RECENT_CUSTOMERS_KEPT)),
  );
}
