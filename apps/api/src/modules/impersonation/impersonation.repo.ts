import type { ImpersonationStep } from '@sac/contract/audit';
import type { Priority, RequestState } from '@sac/contract/impersonation';
import type { SiteScope } from '@sac/contract/role-scopes';
import { type Insertable, sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import type { DB } from '../../db/schema.generated.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';
import { currentRequest } from '../../lib/request-context.ts';
import { siteRowInScope } from '../../lib/site-scope.ts';

/** A request's columns with its site's name and owner, as every read of a request answers them. */
export const REQUEST_COLUMNS = [
  'r.id',
  'r.app_id',
  's.app_name',
  's.owner_uid',
  'o.email as owner_email',
  'r.initiator_uid',
  'r.initiator_email',
  'r.is_customer_request',
  'r.consent',
  'r.priority',
  'r.description',
  // Why: the reason code and case (NULL on requests made before them).
  'r.reason_code',
  'r.case_reference',
  'r.assignees',
  'r.proxy_roles',
  'r.additional_permissions',
  'r.duration_minutes',
  'r.status',
  'r.action_taken_by',
  'r.action_taken_at',
  // Whose the grant is: set once at approval, never changed by later actions.
  'r.holder_uid',
  'r.holder_email',
  'r.expires_at',
  'r.approved_roles',
  'r.approved_permissions',
  'r.reason',
  'r.deleted_at',
  'r.created_at',
  'r.modified_at',
  // Raised by every state change; a requester's edit names the one it was read at.
  'r.version',
  // Break-glass access (break-glass.service.ts) and its review.
  'r.break_glass',
  'r.review_closed_at',
  'r.review_closed_by',
  'r.review_note',
] as const;

const requestsWithSites = () =>
  qb
    .selectFrom('impersonation_requests as r')
    .innerJoin('sites as s', 's.app_id', 'r.app_id')
    .innerJoin('customers as o', 'o.uid', 's.owner_uid')
    .select(REQUEST_COLUMNS);

/** One request; `lock` takes the row lock so a transition applies atomically. */
export function findRequest(db: Queryable, id: number, lock = false, scope?: readonly SiteScope[]) {
  return firstRow(
    db,
    requestsWithSites()
      .where('r.id', '=', id)
      .where('r.deleted_at', 'is', null)
      .$if(scope !== undefined, (s) => s.select(inScope(scope)))
      .$if(lock, (s) => s.forUpdate('r')),
  );
}

/** Requests by Id (deleted ones left out), with `in_scope` as findRequest: a bulk job's plan, in one read. */
export function findRequests(db: Queryable, ids: readonly number[], scope?: readonly SiteScope[]) {
  return rows(
    db,
    requestsWithSites()
      .where('r.id', 'in', ids.length > 0 ? [...ids] : [0])
      .where('r.deleted_at', 'is', null)
      .$if(scope !== undefined, (s) => s.select(inScope(scope)))
      .orderBy('r.id'),
  );
}

/** Whether the site `s` is in a scoped caller's scope, read with the row (role-scopes.ts). */
const inScope = (scope: readonly SiteScope[] | undefined) =>
  sql<boolean>`coalesce(${siteRowInScope(scope, 's')}, true)`.as('in_scope');

export type RequestRow = NonNullable<Awaited<ReturnType<typeof findRequest>>>;

/** Every request of a site, deleted ones too (the owner's access page shows them all), newest first. */
export function requestsOfSite(db: Queryable, appId: number) {
  return rows(db, requestsWithSites().where('r.app_id', '=', appId).orderBy('r.id', 'desc').limit(500));
}

/** The highest request Id (0 when none): where an export stops. */
export async function lastRequestId(db: Queryable): Promise<number> {
  const r = await firstRow(
    db,
    qb.selectFrom('impersonation_requests').select((eb) => eb.fn.max('id').as('id')),
  );
  return Number(r?.id ?? 0);
}

/** A request's reason code and case (null: none given). */
export interface RequestWhy {
  reasonCode: string;
  caseReference: string | null;
}

/**
 * A new request, Pending, its id. Without `consent` the owner's consent is still to be asked.
 * With `breakGlass` it is a break-glass grant (break-glass.service.ts): stored Approved from the
 * start, its holder the opener, its consent given by the break-glass rule (consent_at NULL: never
 * asked), expiring `durationMinutes` after `at`.
 */
export async function insertRequest(
  db: Queryable,
  q: {
    appId: number;
    initiator: { uid: string | null; email: string };
    isCustomerRequest: boolean;
    consent: { at: Date; address: string | null } | null;
    priority: Priority;
    description: string;
    why: RequestWhy;
    assignees: string[];
    proxyRoles: string[];
    additionalPermissions: string[];
    durationMinutes: number;
    at: Date;
    breakGlass?: { holder: { uid: string; email: string } };
  },
): Promise<number> {
  const bg = q.breakGlass;
  const r = await firstRow(
    db,
    qb
      .insertInto('impersonation_requests')
      .values({
        app_id: q.appId,
        initiator_uid: q.initiator.uid,
        initiator_email: q.initiator.email,
        is_customer_request: q.isCustomerRequest,
        consent: q.consent || bg ? 'granted' : 'pending',
        consent_at: q.consent?.at ?? null,
        consent_address: q.consent?.address ?? null,
        priority: q.priority,
        description: q.description,
        reason_code: q.why.reasonCode,
        case_reference: q.why.caseReference,
        assignees: q.assignees,
        proxy_roles: q.proxyRoles,
        additional_permissions: q.additionalPermissions,
        duration_minutes: q.durationMinutes,
        ...(bg ? breakGlassGrant(bg.holder, q) : {}),
        created_at: q.at,
        modified_at: q.at,
      })
      .returning('id'),
  );
  return Number(r!.id);
}

/** A break-glass grant's approval columns: approved by its opener, at once, as asked. */
function breakGlassGrant(
  holder: { uid: string; email: string },
  q: { proxyRoles: string[]; additionalPermissions: string[]; durationMinutes: number; at: Date },
): Partial<Insertable<DB['impersonation_requests']>> {
  return {
    status: 'Approved',
    action_taken_by: holder.email,
    action_taken_at: q.at,
    expires_at: new Date(q.at.getTime() + q.durationMinutes * 60_000),
    approved_roles: q.proxyRoles,
    approved_permissions: q.additionalPermissions,
    holder_uid: holder.uid,
    holder_email: holder.email,
    break_glass: true,
  };
}

/** Records when and from where the owner answered the consent link. */
export async function recordConsent(
  db: Queryable,
  id: number,
  at: Date,
  clientAddress: string | null,
): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('impersonation_requests')
      .set({ consent_at: at, consent_address: clientAddress })
      .where('id', '=', id),
  );
}

/** Roles of the app's other requests that are pending, or approved and unexpired. */
export async function rolesHeldByOthers(
  db: Queryable,
  appId: number,
  exceptId: number | null,
  now: Date,
): Promise<string[]> {
  const r = await rows(
    db,
    qb
      .selectFrom('impersonation_requests')
      .distinct()
      .select(
        sql<string>`unnest(CASE WHEN status = 'Pending' THEN proxy_roles ELSE approved_roles END)`.as('role'),
      )
      .where('app_id', '=', appId)
      .where('deleted_at', 'is', null)
      .$if(exceptId !== null, (s) => s.where('id', '<>', exceptId!))
      .where((eb) =>
        eb.or([
          eb('status', '=', 'Pending'),
          eb.and([eb('status', '=', 'Approved'), eb('expires_at', '>', now)]),
        ]),
      ),
  );
  return r.map((x) => x.role);
}

export function stateOf(row: RequestRow): RequestState {
  return {
    status: row.status,
    deleted: row.deleted_at !== null,
    initiator: row.initiator_email,
    assignees: row.assignees,
    consent: row.consent,
    priority: row.priority,
    description: row.description,
    proxyRoles: row.proxy_roles,
    additionalPermissions: row.additional_permissions,
    durationMinutes: row.duration_minutes,
    expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : null,
    approvedRoles: row.approved_roles,
    approvedPermissions: row.approved_permissions,
  };
}

/** Writes a machine state back to its row. */
export async function saveState(
  db: Queryable,
  id: number,
  s: RequestState,
  extra: { at: Date; actionBy?: string; reason?: string; why?: RequestWhy },
): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('impersonation_requests')
      .set((eb) => ({
        status: s.status,
        consent: s.consent,
        priority: s.priority,
        description: s.description,
        assignees: s.assignees,
        proxy_roles: s.proxyRoles,
        additional_permissions: s.additionalPermissions,
        expires_at: s.expiresAt === null ? null : new Date(s.expiresAt),
        approved_roles: s.approvedRoles,
        approved_permissions: s.approvedPermissions,
        deleted_at: s.deleted ? extra.at : null,
        modified_at: extra.at,
        // An action names who took it and when; a change without one keeps the last action's.
        ...(extra.actionBy === undefined
          ? {}
          : { action_taken_by: extra.actionBy, action_taken_at: extra.at }),
        ...(extra.reason === undefined ? {} : { reason: extra.reason }),
        ...(extra.why === undefined
          ? {}
          : { reason_code: extra.why.reasonCode, case_reference: extra.why.caseReference }),
        version: eb('version', '+', 1),
      }))
      .where('id', '=', id),
  );
}

/**
 * Records the holder of a grant at its approval. Only a request that has none yet takes one, so
 * no later action (a revoke by another SuperAdmin, in part or whole) can hand the grant over.
 */
export async function recordHolder(
  db: Queryable,
  id: number,
  holder: { uid: string | null; email: string | null },
): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('impersonation_requests')
      .set({ holder_uid: holder.uid, holder_email: holder.email })
      .where('id', '=', id)
      .where('holder_uid', 'is', null)
      .where('holder_email', 'is', null),
  );
}

/** A step taken with an API token names it: its owner is the actor. */
const withToken = (details: Record<string, unknown>): Record<string, unknown> => {
  const token = currentRequest()?.apiToken;
  return token ? { ...details, apiToken: token } : details;
};

/** Appends a step to the impersonation log (the table accepts no changes). */
export async function appendLogEntry(
  db: Queryable,
  e: {
    requestId: number;
    at: Date;
    actor: string | null;
    event: ImpersonationStep;
    status: string;
    clientAddress?: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await execute(
    db,
    qb.insertInto('impersonation_log').values({
      request_id: e.requestId,
      at: e.at,
      actor: e.actor,
      event: e.event,
      status: e.status,
      client_address: e.clientAddress ?? null,
      // The column's JSON is written as its text (its generated insert type nests Generated<Json>).
      details: sql<
        Insertable<DB['impersonation_log']>['details']
      >`${JSON.stringify(withToken(e.details ?? {}))}`,
    }),
  );
}

/** The newest log entry's Id ('0' when none): where an export stops. */
export async function lastLogId(db: Queryable): Promise<string> {
  const r = await firstRow(
    db,
    qb.selectFrom('impersonation_log').select((eb) => eb.fn.max('id').as('id')),
  );
  return String(r?.id ?? 0);
}

/** The newest 1,000 log entries of a site's requests. */
export function logOfSite(db: Queryable, appId: number) {
  return rows(
    db,
    qb
      .selectFrom('impersonation_log as l')
      .innerJoin('impersonation_requests as r', 'r.id', 'l.request_id')
      .select([
        'l.request_id',
        'l.event',
        'l.actor',
        'l.at',
        'l.client_address',
        'r.reason_code',
        'r.case_reference',
      ])
      .where('r.app_id', '=', appId)
      .orderBy('l.id', 'desc')
      .limit(1000),
  );
}

/**
 * The steps on a site's requests after log id `afterId`, oldest first, up to `limit`: the owner's
 * export reads every one, a page at a time. `newest` reads the newest first instead (the feed).
 */
export function logPageOfSite(
  db: Queryable,
  appId: number,
  opts: { afterId?: string; upTo?: string; limit: number; newest?: boolean },
) {
  return rows(
    db,
    qb
      .selectFrom('impersonation_log as l')
      .innerJoin('impersonation_requests as r', 'r.id', 'l.request_id')
      .select((eb) => [
        eb.cast<string>('l.id', 'text').as('id'),
        'l.request_id',
        'l.event',
        'l.actor',
        'l.at',
        'l.client_address',
        'r.reason_code',
        'r.case_reference',
      ])
      .where('r.app_id', '=', appId)
      .$if(opts.afterId !== undefined, (q) => q.where('l.id', '>', sql<number>`${opts.afterId}::bigint`))
      .$if(opts.upTo !== undefined, (q) => q.where('l.id', '<=', sql<number>`${opts.upTo}::bigint`))
      .orderBy('l.id', opts.newest ? 'desc' : 'asc')
      .limit(opts.limit),
  );
}

/** How many steps a site's requests have, and the last one's id: what an export announces and stops at. */
export async function logExtentOfSite(db: Queryable, appId: number): Promise<{ rows: number; upTo: string }> {
  const r = await firstRow(
    db,
    qb
      .selectFrom('impersonation_log as l')
      .innerJoin('impersonation_requests as r', 'r.id', 'l.request_id')
      .select((eb) => [
        eb.cast<string>(eb.fn.countAll(), 'text').as('rows'),
        eb.cast<string>(eb.fn.coalesce(eb.fn.max('l.id'), sql`0`), 'text').as('up_to'),
      ])
      .where('r.app_id', '=', appId),
  );
  return { rows: Number(r?.rows ?? 0), upTo: r?.up_to ?? '0' };
}

/**
 * A site and its owner; `lock` takes the lock of a request's site: the site row FOR UPDATE (a
 * request opened or edited on the site waits for another's commit, so the roles other live
 * requests hold are read under it) and the owner's row FOR SHARE (the address the consent mail
 * goes to is the owner's until commit).
 */
const requestSite = (lock: boolean) =>
  qb
    .selectFrom('sites as s')
    .innerJoin('customers as c', 'c.uid', 's.owner_uid')
    .select(['s.app_id', 's.app_name', 'c.email as owner_email', 'c.first_name'])
    .$if(lock, (s) => s.forUpdate('s').forShare('c'));

/** A site and its owner, to whom requests for it are mailed; `lock` takes the site's lock. */
export function findRequestSite(db: Queryable, appId: number, lock = false, scope?: readonly SiteScope[]) {
  return firstRow(
    db,
    requestSite(lock)
      .where('s.app_id', '=', appId)
      .$if(scope !== undefined, (s) => s.select(inScope(scope))),
  );
}

export type RequestSite = NonNullable<Awaited<ReturnType<typeof findRequestSite>>>;

/**
 * The site whose API key and secret (its hash) these are, and its owner: the current secret, or
 * the one a rotation replaced while its grace lasts (at `now`).
 */
export function findRequestSiteByKey(
  db: Queryable,
  apiKey: string,
  secretHash: Buffer,
  now: Date,
  lock = false,
) {
  return firstRow(
    db,
    requestSite(lock)
      .where('s.api_key', '=', apiKey)
      .where((eb) =>
        eb.or([
          eb('s.secret_hash', '=', secretHash),
          eb.and([eb('s.previous_secret_hash', '=', secretHash), eb('s.previous_secret_until', '>', now)]),
        ]),
      ),
  );
}

/** The emails of every staff member holding the SuperAdmin role, sorted. */
export async function superAdminEmails(db: Queryable): Promise<string[]> {
  return (await superAdmins(db)).map((x) => x.email);
}

/** The staff holding SuperAdmin, by email: the possible assignees of a request. */
export function superAdmins(db: Queryable) {
  return rows(
    db,
    qb
      .selectFrom('staff as s')
      .innerJoin('staff_roles as r', 'r.uid', 's.uid')
      .select(['s.email', 's.full_name'])
      .where('r.role', '=', 'SuperAdmin')
      .orderBy('s.email'),
  );
}
