import type { SiteScope } from '@sac/contract/role-scopes';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Queryable } from '../../db/db.ts';
import { firstRow, preparedStatement, qb, rows } from '../../db/sql.ts';
import { siteIdInScope, siteRowInScope, whereInScope } from '../../lib/site-scope.ts';

/**
 * Reads of a customer's record and of what hangs off it (sites, sign-ins, activity), and the
 * catalogues the customer pages show. The search planner is customer-search.repo.ts.
 */

const customerByUid = preparedStatement((uid: string) =>
  qb
    .selectFrom('customers as c')
    .select([
      'c.uid',
      'c.first_name',
      'c.last_name',
      'c.email',
      'c.organization',
      'c.phone',
      'c.auth_email',
      'c.contact_email',
      'c.time_zone',
      'c.status',
      'c.role',
      'c.email_verified',
      'c.created_at',
      'c.modified_at',
      // Raised by each profile write (If-Match / ETag).
      'c.version',
    ])
    .where('c.uid', '=', uid),
);

export function findCustomer(db: Queryable, uid: string) {
  return firstRow(db, customerByUid(uid));
}

export type CustomerRow = NonNullable<Awaited<ReturnType<typeof findCustomer>>>;

/** A site with its owner's email: the columns every site read answers. */
const SITE_COLUMNS = [
  's.app_id',
  's.app_name',
  sql<string>`s.api_key::text`.as('api_key'),
  's.owner_uid',
  'o.email as owner_email',
  's.plan',
  's.plan_status',
  's.trial_ends_at',
  's.billing',
  's.data_center',
  's.global_server',
  's.db_name',
  's.custom_db_conn',
  's.features',
  's.status',
  's.production_url',
  's.staging_url',
  's.created_at',
  's.modified_at',
  // Raised by each write of web apps or plan (If-Match / ETag).
  's.version',
] as const;

/** The sites of an owner (or one of them), role 'Owner'. */
const ownedSitesOf = (uid: string) =>
  qb
    .selectFrom('sites as s')
    .innerJoin('customers as o', 'o.uid', 's.owner_uid')
    .select(SITE_COLUMNS)
    // Owner, or the customer role on a shared site.
    .select(sql<string>`'Owner'`.as('member_role'))
    .where('s.owner_uid', '=', uid);

export type SiteRow = NonNullable<Awaited<ReturnType<typeof findOwnedSite>>>;

/** The customer's own sites; with a scope, those in it alone. */
export async function ownedSites(
  db: Queryable,
  uid: string,
  scope?: readonly SiteScope[],
): Promise<SiteRow[]> {
  const inScope = siteRowInScope(scope, 's');
  return rows(db, ownedSitesOf(uid).$call(whereInScope(inScope)).orderBy('s.app_id'));
}

/** The sites shared with the customer; with a scope, those in it alone. */
export async function sharedSites(
  db: Queryable,
  uid: string,
  scope?: readonly SiteScope[],
): Promise<SiteRow[]> {
  const inScope = siteRowInScope(scope, 's');
  return rows(
    db,
    qb
      .selectFrom('site_members as m')
      .innerJoin('sites as s', 's.app_id', 'm.app_id')
      .innerJoin('customers as o', 'o.uid', 's.owner_uid')
      .select(SITE_COLUMNS)
      .select('m.role as member_role')
      .where('m.customer_uid', '=', uid)
      .$call(whereInScope(inScope))
      .orderBy('s.app_id'),
  );
}

/** A site the customer owns or shares; undefined otherwise. */
export async function siteOfCustomer(
  db: Queryable,
  uid: string,
  appId: number,
): Promise<(SiteRow & { data_center_name: string | null }) | undefined> {
  return firstRow(
    db,
    qb
      .selectFrom('sites as s')
      .innerJoin('customers as o', 'o.uid', 's.owner_uid')
      .leftJoin('site_members as m', (j) =>
        j.onRef('m.app_id', '=', 's.app_id').on('m.customer_uid', '=', uid),
      )
      .select(SITE_COLUMNS)
      // The data center's name, for the console's site details (the code stays the wire value).
      .select(
        sql<string | null>`(SELECT dc.name FROM data_centers dc WHERE dc.code = s.data_center)`.as(
          'data_center_name',
        ),
      )
      .select(sql<string>`CASE WHEN s.owner_uid = ${uid} THEN 'Owner' ELSE m.role END`.as('member_role'))
      .where('s.app_id', '=', appId)
      .where((eb) => eb.or([eb('s.owner_uid', '=', uid), eb('m.customer_uid', 'is not', null)])),
  );
}

/** The site if this customer owns it; `lock` takes the site's row lock. */
export async function findOwnedSite(db: Queryable, uid: string, appId: number, lock = false) {
  return firstRow(
    db,
    ownedSitesOf(uid)
      .where('s.app_id', '=', appId)
      .$if(lock, (q) => q.forUpdate('s')),
  );
}

/** How many sites the customer owns and shares; with a scope, of the sites in it alone. */
export async function siteCounts(
  db: Queryable,
  uid: string,
  scope?: readonly SiteScope[],
): Promise<{ owned: number; shared: number }> {
  const owned = siteRowInScope(scope, 'sites');
  const shared = siteIdInScope(scope, sql.ref('site_members.app_id'));
  const r = await firstRow(
    db,
    qb.selectNoFrom((eb) => [
      eb
        .selectFrom('sites')
        .select(eb.fn.countAll<number>().as('n'))
        .where('owner_uid', '=', uid)
        .$call(whereInScope(owned))
        .as('owned'),
      eb
        .selectFrom('site_members')
        .select(eb.fn.countAll<number>().as('n'))
        .where('customer_uid', '=', uid)
        .$call(whereInScope(shared))
        .as('shared'),
    ]),
  );
  return { owned: Number(r?.owned ?? 0), shared: Number(r?.shared ?? 0) };
}

export async function recentLogins(db: Queryable, uid: string, limit: number) {
  return rows(
    db,
    qb
      .selectFrom('customer_logins')
      .select(['at', 'access_type', 'browser', 'client_address', 'location'])
      .where('customer_uid', '=', uid)
      .orderBy('at', 'desc')
      .limit(limit),
  );
}

/** What an activity entry's details hold: an object of named values. */
const activityDetails = z.record(z.string(), z.unknown());

/**
 * Keyset page of a customer's activity, newest first: rows older than `cursor` (0 = newest). A
 * scoped reader sees the customer's own rows and those of their sites in `scope`, not the rest.
 */
export async function customerActivity(
  db: Queryable,
  uid: string,
  cursor: number,
  pageSize: number,
  scope?: readonly SiteScope[],
) {
  const siteInScope = siteIdInScope(scope, sql.ref('activity_log.app_id'));
  const found = await rows(
    db,
    qb
      .selectFrom('activity_log')
      .select(['id', 'action', 'actor_email', 'client_address', 'at', 'details'])
      .where('target_type', '=', 'customer')
      .where('target_id', '=', uid)
      .$if(siteInScope !== undefined, (q) =>
        q.where((eb) => eb.or([eb('activity_log.app_id', 'is', null), siteInScope!])),
      )
      .where((eb) => eb.or([eb(sql<number>`${cursor}::bigint`, '=', 0), eb('id', '<', cursor)]))
      .orderBy('id', 'desc')
      .limit(pageSize + 1),
  );
  const more = found.length > pageSize;
  const page = found.slice(0, pageSize).map((r) => ({ ...r, details: activityDetails.parse(r.details) }));
  return { rows: page, nextCursor: more ? Number(page.at(-1)!.id) : 0 };
}

/** The feature catalogue: each call reads only the tables it answers from. */
export async function featureCatalogue(db: Queryable) {
  const [features, sets] = await Promise.all([
    rows(db, qb.selectFrom('features').select(['key', 'name', 'description']).orderBy('name')),
    rows(
      db,
      qb
        .selectFrom('feature_sets')
        .select(['name', 'features'])
        .orderBy(sql`cardinality(features)`)
        .orderBy('name'),
    ),
  ]);
  return { features, sets };
}

export async function dataCenterCatalogue(db: Queryable) {
  const [centers, servers] = await Promise.all([
    rows(
      db,
      qb.selectFrom('data_centers').select(['code', 'name', 'region']).orderBy('region').orderBy('name'),
    ),
    rows(db, qb.selectFrom('global_servers').select(['code', 'name', 'data_center']).orderBy('code')),
  ]);
  return { centers, servers };
}

/** What a role's permissions hold: a permission is granted where its value is true. */
const rolePermissions = z.record(z.string(), z.boolean());

/** The customer roles and their permissions. */
export async function customerRoleCatalogue(db: Queryable) {
  const found = await rows(
    db,
    qb.selectFrom('customer_roles').select(['name', 'permissions']).orderBy('name'),
  );
  return found.map((r) => ({ name: r.name, permissions: rolePermissions.parse(r.permissions) }));
}
