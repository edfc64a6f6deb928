import type { SiteScope } from '@sac/contract/role-scopes';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { firstRow, qb } from '../../db/sql.ts';
import { customerInScope, siteRowInScope } from '../../lib/site-scope.ts';

/*
 * The dashboard's counts for a viewer whose role is scoped (role-scopes.ts), read from rows: the
 * day counters (dashboard.repo.ts, migration 0042) cannot say whose customers or sites they count.
 */

/**
 * A scoped viewer's customers (role-scopes.ts): how many are in their scope, and how many of them
 * were created on each day from `from`, in one statement. The day counters cannot say whose
 * customers they count, so these are read from rows: the total from the scope's sites (their
 * owners and members, distinct), the days from the customers created since `from` (the creation
 * index's range), each tested. Neither reads beyond the scope's sites and the window's customers.
 */
export async function scopedCustomerCounts(db: Queryable, scope: readonly SiteScope[], from: string) {
  const site = siteRowInScope(scope, 's')!;
  const r = await firstRow(
    db,
    qb.selectNoFrom(() => [
      sql<number>`(SELECT count(*) FROM (SELECT s.owner_uid AS uid FROM sites s WHERE ${site}
        UNION SELECT m.customer_uid FROM site_members m JOIN sites s ON s.app_id = m.app_id WHERE ${site}) x)::bigint`.as(
        'total',
      ),
      sql<DayCounts>`(SELECT json_agg(json_build_object('day', d.day, 'n', d.n) ORDER BY d.day) FROM (
        SELECT to_char((c.created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, count(*)::int AS n
        FROM customers c WHERE c.created_at >= ${from}::date AND ${customerInScope(scope, sql.ref('c.uid'))!}
        GROUP BY 1) d)`.as('days'),
    ]),
  );
  return { total: Number(r?.total ?? 0), days: dayCounts(r?.days) };
}

/**
 * A scoped viewer's sites created on each day from `from` (the day counters cannot say whose they
 * count): the sites of the window (migration 0064's creation index), each tested.
 */
export async function scopedSiteDays(db: Queryable, scope: readonly SiteScope[], from: string) {
  const r = await firstRow(
    db,
    qb.selectNoFrom(() => [
      sql<DayCounts>`(SELECT json_agg(json_build_object('day', d.day, 'n', d.n) ORDER BY d.day) FROM (
        SELECT to_char((s.created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, count(*)::int AS n
        FROM sites s WHERE s.created_at >= ${from}::date AND ${siteRowInScope(scope, 's')!}
        GROUP BY 1) d)`.as('days'),
    ]),
  );
  return dayCounts(r?.days);
}

/** A day series as json_agg answers it (parsed or as text, by driver). */
type DayCounts = { day: string; n: number }[] | string | null;

/** A JSON day series as a map of day to count. */
function dayCounts(days: DayCounts | undefined): Map<string, number> {
  const list: { day: string; n: number }[] = typeof days === 'string' ? JSON.parse(days) : (days ?? []);
  return new Map(list.map((d) => [d.day, Number(d.n)]));
}
