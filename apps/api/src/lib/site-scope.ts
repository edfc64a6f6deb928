import type { EndpointRoute } from '@sac/contract/endpoint-routes';
import type { SiteScope } from '@sac/contract/role-scopes';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Queryable } from '../db/db.ts';
import { firstRow, qb } from '../db/sql.ts';
import { AppError } from './app-error.ts';

/**
 * A scoped role's limits in SQL (role-scopes.ts). A site is in a scope when it matches one of
 * the scope's entries on every axis the entry sets; a customer when they own or are a member of
 * such a site. Each builder takes the call's scope and answers undefined for an unscoped call, so
 * a query adds no condition at all for the callers who have none.
 */

/** The condition that the site whose data center and plan these columns hold is in `scope`. */
export function siteInScope(
  scope: readonly SiteScope[] | undefined,
  site: { dataCenter: Expression<string | null>; plan: Expression<string> },
): Expression<SqlBool> | undefined {
  if (!scope) return undefined;
  if (scope.length === 0) return sql<SqlBool>`false`;
  const entries = scope.map((s) => {
    const parts: Expression<SqlBool>[] = [];
    if (s.dataCenters) parts.push(sql<SqlBool>`${site.dataCenter} = ANY(${[...s.dataCenters]}::text[])`);
    if (s.plans) parts.push(sql<SqlBool>`${site.plan}::text = ANY(${[...s.plans]}::text[])`);
    return parts.length === 0 ? sql<SqlBool>`true` : sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
  });
  return sql<SqlBool>`(${sql.join(entries, sql` OR `)})`;
}

/** The same for a site row of `sites` under `alias`. */
export const siteRowInScope = (scope: readonly SiteScope[] | undefined, alias: string) =>
  siteInScope(scope, {
    dataCenter: sql.ref(`${alias}.data_center`),
    plan: sql.ref(`${alias}.plan`),
  });

/** The condition that the customer whose uid `uid` holds owns or is a member of a site in `scope`. */
export function customerInScope(
  scope: readonly SiteScope[] | undefined,
  uid: Expression<string>,
): Expression<SqlBool> | undefined {
  const owned = siteRowInScope(scope, 'scope_site');
  if (!owned) return undefined;
  const member = siteRowInScope(scope, 'scope_member_site')!;
  // OFFSET 0 keeps each EXISTS a probe of the customer's own sites (sites_owner_idx,
  // site_members_customer_idx) for each row a query tests: without it PostgreSQL may hash every
  // site in the scope first (a read of the scope's sites for a search that tests 50 rows: 30 ms to
  // 260 ms at 50,000 sites), which is what a scoped search must not read.
  return sql<SqlBool>`(EXISTS (SELECT 1 FROM sites scope_site WHERE scope_site.owner_uid = ${uid} AND ${owned} OFFSET 0)
    OR EXISTS (SELECT 1 FROM site_members scope_member
      JOIN sites scope_member_site ON scope_member_site.app_id = scope_member.app_id
      WHERE scope_member.customer_uid = ${uid} AND ${member} OFFSET 0))`;
}

/**
 * The condition that every site the customer `uid` owns or belongs to is in `scope`, and that there
 * is one: what a write to their account (which reaches all their sites) needs.
 */
function customerWhollyInScope(scope: readonly SiteScope[], uid: Expression<string>): Expression<SqlBool> {
  const owned = siteRowInScope(scope, 'out_site')!;
  const member = siteRowInScope(scope, 'out_member_site')!;
  return sql<SqlBool>`(${customerInScope(scope, uid)!}
    AND NOT EXISTS (SELECT 1 FROM sites out_site WHERE out_site.owner_uid = ${uid} AND NOT coalesce(${owned}, false))
    AND NOT EXISTS (SELECT 1 FROM site_members out_member
      JOIN sites out_member_site ON out_member_site.app_id = out_member.app_id
      WHERE out_member.customer_uid = ${uid} AND NOT coalesce(${member}, false)))`;
}

/** Whether the site `appId` is in `scope` (an unknown site is not). */
export async function siteIsInScope(db: Queryable, scope: readonly SiteScope[], appId: number) {
  const found = await firstRow(
    db,
    qb
      .selectFrom('sites as s')
      .select(sql<number>`1`.as('in_scope'))
      .where('s.app_id', '=', appId)
      .where(siteRowInScope(scope, 's')!),
  );
  return found !== undefined;
}

/** Whether the customer `uid` is in `scope` (an unknown customer is not). */
export async function customerIsInScope(
  db: Queryable,
  scope: readonly SiteScope[],
  uid: string,
  wholly = false,
) {
  const inScope = wholly ? customerWhollyInScope(scope, sql.val(uid)) : customerInScope(scope, sql.val(uid))!;
  const found = await firstRow(db, qb.selectNoFrom(sql<number>`1`.as('in_scope')).where(inScope));
  return found !== undefined;
}

/**
 * Refuses (403, outOfScope) a scoped call whose route names a site by `appId` or a customer by
 * `uid` outside the caller's scope, before its handler runs: one statement, and none for an
 * unscoped caller. A key the schema left out (optional and absent) is the service's to refuse.
 */
export async function keepToScope(
  db: Queryable,
  def: EndpointRoute,
  scope: readonly SiteScope[] | undefined,
  input: { query: unknown; body: unknown },
): Promise<void> {
  if (!scope || (def.scope !== 'site' && def.scope !== 'customer' && def.scope !== 'customer-account'))
    return;
  const q = (input.query ?? {}) as Record<string, unknown>;
  const b = (input.body ?? {}) as Record<string, unknown>;
  if (def.scope === 'site') {
    const appId = q.appId;
    if (typeof appId === 'number' && !(await siteIsInScope(db, scope, appId)))
      throw outOfScope('a site in scope');
    return;
  }
  const uid = q.uid ?? b.uid;
  const account = def.scope === 'customer-account';
  if (typeof uid === 'string' && !(await customerIsInScope(db, scope, uid, account)))
    throw account
      ? outOfScope('every site of the customer in scope', OUTSIDE_ACCOUNT)
      : outOfScope('a customer in scope');
}

const OUTSIDE_ACCOUNT =
  "This customer also uses sites outside your role's scope: their account (profile, password, email) can be changed only by someone whose scope covers all of them.";

/**
 * The refusal of a record outside the caller's scope; `missing` names it in the staff trail, and
 * `text` says why when the error's own text would not (a site the call would make or move).
 */
export function outOfScope(missing: string, text?: string): AppError {
  const e = new AppError('outOfScope', text);
  e.missing = missing;
  return e;
}

/** The condition that the site whose app_id `appId` holds is in `scope`. */
export function siteIdInScope(
  scope: readonly SiteScope[] | undefined,
  appId: Expression<unknown>,
): Expression<SqlBool> | undefined {
  const inScope = siteRowInScope(scope, 'scope_id_site');
  if (!inScope) return undefined;
  // OFFSET 0: a probe of the site's primary key for each row tested, not a hash of the scope's sites.
  return sql<SqlBool>`EXISTS (SELECT 1 FROM sites scope_id_site WHERE scope_id_site.app_id = ${appId} AND ${inScope} OFFSET 0)`;
}

/**
 * A query's WHERE with a scope condition, for `.$call(whereInScope(c))`: nothing for an unscoped
 * call (the builders answered undefined), so its statement stays as it was.
 */
export const whereInScope =
  (condition: Expression<SqlBool> | undefined) =>
  <Q extends { where(condition: Expression<SqlBool>): unknown }>(q: Q): Q =>
    condition ? (q.where(condition) as Q) : q;

/**
 * `AND` and the condition, to follow a WHERE clause written whole in `sql`; nothing for an
 * unscoped call (the builders answered undefined), so its statement stays as it was.
 */
export const andInScope = (condition: Expression<SqlBool> | undefined) =>
  condition ? sql`AND ${condition}` : sql``;

/**
 * Whether a site with this data center and plan would be in `scope` (siteInScope's rule, for a
 * site not written yet or about to change): always for an unscoped call.
 */
export function fitsScope(
  scope: readonly SiteScope[] | undefined,
  site: { dataCenter: string | null; plan: string },
): boolean {
  if (!scope) return true;
  return scope.some(
    (s) =>
      (!s.dataCenters || (site.dataCenter !== null && s.dataCenters.includes(site.dataCenter))) &&
      (!s.plans || s.plans.includes(site.plan)),
  );
}
