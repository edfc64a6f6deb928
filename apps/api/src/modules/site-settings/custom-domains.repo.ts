import type { SiteScope } from '@sac/contract/role-scopes';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';
import { siteIdInScope } from '../../lib/site-scope.ts';

/**
 * A domain with its site's name. The status values compared below stay literals: the pending and
 * verified re-check walks use partial indexes on them (0008, 0045).
 */
const domains = () =>
  qb.selectFrom('custom_domains as d').innerJoin('sites as s', 's.app_id', 'd.app_id').select([
    'd.domain',
    'd.app_id',
    's.app_name',
    'd.status',
    'd.token',
    'd.last_checked_at',
    'd.last_check_result',
    'd.verified_at',
    // A verified domain whose latest re-check failed: since when.
    'd.failing_since',
  ]);

export function domainsOfSite(db: Queryable, appId: number) {
  return rows(db, domains().where('d.app_id', '=', appId).orderBy('d.domain'));
}

export type DomainRow = Awaited<ReturnType<typeof domainsOfSite>>[number];

/** A domain, of any site. */
export function findDomain(db: Queryable, domain: string): Promise<DomainRow | undefined> {
  return firstRow(db, domains().where('d.domain', '=', domain));
}

/** A domain of this site. */
export function findSiteDomain(db: Queryable, appId: number, domain: string): Promise<DomainRow | undefined> {
  return firstRow(db, domains().where('d.domain', '=', domain).where('d.app_id', '=', appId));
}

/** Pending domains, the longest unchecked first. */
export function pendingDomains(db: Queryable, limit: number): Promise<DomainRow[]> {
  return rows(
    db,
    domains()
      .where('d.status', '=', sql.lit('Pending Verification'))
      .orderBy('d.last_checked_at', (ob) => ob.asc().nullsFirst())
      .limit(limit),
  );
}

/** Verified domains last checked before `before`, the longest unchecked first. */
export function verifiedDomainsDue(db: Queryable, before: Date, limit: number): Promise<DomainRow[]> {
  return rows(
    db,
    domains()
      .where('d.status', '=', sql.lit('Verified'))
      .where((eb) => eb.or([eb('d.last_checked_at', 'is', null), eb('d.last_checked_at', '<', before)]))
      .orderBy('d.last_checked_at', (ob) => ob.asc().nullsFirst())
      .limit(limit),
  );
}

/** What the cross-site list shows: pending verification, verified and failing re-checks, or verified and passing. */
export type DomainFilter = 'pending' | 'failing' | 'verified';

/** An order of the cross-site list: by name, or by status or creation then name. */
export type DomainOrder = 'domain' | 'status' | 'created';
/** Where a page starts: the last row's sort key (status, or created_at as PostgreSQL writes it) and domain. */
export interface DomainKey {
  key: string | undefined;
  domain: string;
}

/** The keyset after `after` in `order`, either way: (key, domain) past the last row's. */
function pastKey(order: DomainOrder, after: DomainKey, descending: boolean) {
  const op = sql.raw(descending ? '<' : '>');
  if (order === 'status') return sql<boolean>`(d.status, d.domain) ${op} (${after.key}, ${after.domain})`;
  if (order === 'created')
    return sql<boolean>`(d.created_at, d.domain) ${op} (${after.key}::timestamptz, ${after.domain})`;
  return sql<boolean>`d.domain ${op} ${after.domain}`;
}

/**
 * Custom domains of every site, after `after` (keyset), up to `limit`, by name, or by status or
 * creation then name, either way: each order walks an index that holds it (the primary key,
 * (status, domain) and (created_at, domain), 0045 and 0058), each filter narrows the walk; the
 * page is cut before it is joined to its sites.
 */
export function listDomains(
  db: Queryable,
  q: {
    filter: DomainFilter | undefined;
    after: DomainKey | undefined;
    limit: number;
    order?: DomainOrder;
    descending?: boolean;
    /** The caller's scope: the domains of its sites alone, each tested in the walk; absent: all. */
    scope?: readonly SiteScope[] | undefined;
  },
) {
  const order = q.order ?? 'domain';
  const dir = q.descending ? 'desc' : 'asc';
  const after = q.after;
  const inScope = siteIdInScope(q.scope, sql.ref('d.app_id'));
  const page = qb
    .selectFrom('custom_domains as d')
    .selectAll('d')
    .select((eb) => eb.cast<string>('d.created_at', 'text').as('created_key'))
    .$if(q.filter === 'pending', (s) => s.where('d.status', '=', sql.lit('Pending Verification')))
    .$if(q.filter === 'failing', (s) => s.where('d.failing_since', 'is not', null))
    .$if(q.filter === 'verified', (s) =>
      s.where('d.status', '=', sql.lit('Verified')).where('d.failing_since', 'is', null),
    )
    .$if(after !== undefined, (s) => s.where(pastKey(order, after!, q.descending === true)))
    .$if(inScope !== undefined, (s) => s.where(inScope!))
    .$if(order === 'status', (s) => s.orderBy('d.status', dir))
    .$if(order === 'created', (s) => s.orderBy('d.created_at', dir))
    .orderBy('d.domain', dir)
    .limit(q.limit);
  return rows(
    db,
    qb
      .selectFrom(page.as('d'))
      .innerJoin('sites as s', 's.app_id', 'd.app_id')
      .select([
        'd.domain',
        'd.app_id',
        's.app_name',
        's.owner_uid',
        'd.status',
        'd.token',
        'd.created_at',
        'd.created_key',
        'd.last_checked_at',
        'd.last_check_result',
        'd.verified_at',
        'd.failing_since',
      ])
      .$if(order === 'status', (s) => s.orderBy('d.status', dir))
      .$if(order === 'created', (s) => s.orderBy('d.created_at', dir))
      .orderBy('d.domain', dir),
  );
}

/** Throws the database's unique violation (23505) when the domain is bound to a site already. */
export async function insertDomain(
  db: Queryable,
  appId: number,
  domain: string,
  token: string,
  at: Date,
): Promise<void> {
  await execute(db, qb.insertInto('custom_domains').values({ domain, app_id: appId, token, created_at: at }));
}

/** Whether the site had this domain to delete. */
export async function deleteDomain(db: Queryable, appId: number, domain: string): Promise<boolean> {
  const r = await rows(
    db,
    qb
      .deleteFrom('custom_domains')
      .where('domain', '=', domain)
      .where('app_id', '=', appId)
      .returning('domain'),
  );
  return r.length > 0;
}

/**
 * Stores a check's outcome; a passing check verifies the domain, and a verified domain stays
 * verified: a failing check of a verified domain marks it failing (since the first such check),
 * a passing one clears that.
 */
export async function recordCheck(
  db: Queryable,
  domain: string,
  check: { result: string; ok: boolean },
  at: Date,
): Promise<void> {
  // The CASEs read the row as it was before this update.
  const ok = sql<boolean>`${check.ok}::boolean`;
  const when = sql<Date>`${at}::timestamptz`;
  await execute(
    db,
    qb
      .updateTable('custom_domains')
      .set({
        last_checked_at: when,
        last_check_result: check.result,
        status: sql<'Pending Verification' | 'Verified'>`CASE WHEN ${ok} THEN 'Verified' ELSE status END`,
        verified_at: sql<Date>`CASE WHEN ${ok} AND verified_at IS NULL THEN ${when} ELSE verified_at END`,
        failing_since: sql<Date>`CASE WHEN ${ok} OR status <> 'Verified' THEN NULL ELSE COALESCE(failing_since, ${when}) END`,
      })
      .where('domain', '=', domain),
  );
}
