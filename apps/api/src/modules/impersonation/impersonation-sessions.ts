import { reasonOut } from '@sac/contract/access-reasons';
import { grantedPermissions } from '@sac/contract/impersonation-session';
import { IMPERSONATION_SESSION_MESSAGES as M } from '@sac/contract/impersonation-session-messages';
import type { AppContext, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { outOfScope, siteIsInScope } from '../../lib/site-scope.ts';
import { runWrite } from '../../lib/write-path.ts';
import { openImpersonationSession } from '../auth/staff.service.ts';
import { customerRoleCatalogue } from '../customers/sites.service.ts';
import {
  type GrantRow,
  isOwnerOrMemberOfSite,
  liveGrantOfHolder,
  liveGrantOfRequest,
} from './impersonation-sessions.repo.ts';
import { logEvent } from './impersonation-steps.ts';

async function permissionsOf(db: Queryable, g: GrantRow): Promise<string[]> {
  return grantedPermissions(g.approved_roles, g.approved_permissions, await customerRoleCatalogue(db));
}

/** The grant as the session reads it: its site, roles, permissions, expiry, and why it was given. */
function grantOut(ctx: AppContext, g: GrantRow, permissions: string[]) {
  return {
    RequestId: Number(g.id),
    AppId: Number(g.app_id),
    AppName: g.app_name,
    Roles: g.approved_roles,
    Permissions: permissions,
    ExpiresAt: new Date(g.expires_at).toISOString(),
    BreakGlass: g.break_glass,
    ...reasonOut(ctx.config.impersonationReasons, g),
  };
}

/**
 * Whose a grant is: its holder, recorded once at approval (the staff member who asked for it, or
 * for a request the customer opened themselves, the SuperAdmin who approved it) and never changed
 * by a later action, so a SuperAdmin who revokes part of someone's grant does not take it over.
 */
const holds = (g: GrantRow, staff: { uid: string }) => g.holder_uid !== null && g.holder_uid === staff.uid;

/**
 * The caller's live grant on a site: approved, consented, unexpired, and theirs. `lock` (in a
 * write's transaction) locks it, so it cannot be revoked or end before the write commits.
 */
async function liveGrant(
  ctx: AppContext,
  db: Queryable,
  actor: StaffSession,
  appId: number,
  lock = false,
): Promise<GrantRow> {
  const g = await liveGrantOfHolder(db, ctx.clock.now(), appId, actor.uid, lock);
  if (!g || !holds(g, actor)) throw new AppError('impersonationForbidden', M.noGrant);
  return g;
}

/** GET /admin/updateaccess: the caller's grant on a site the customer belongs to. */
export async function updateAccess(
  ctx: AppContext,
  call: StaffCall,
  input: { appId: number; userId: string },
) {
  const { appId, userId } = input;
  if (!(await isOwnerOrMemberOfSite(ctx.db, appId, userId)))
    throw new AppError('notFound', 'This customer has no site with that appId.');
  const g = await liveGrant(ctx, ctx.db, call.session, appId);
  return { Data: grantOut(ctx, g, await permissionsOf(ctx.db, g)) };
}

/**
 * Opens an impersonation session through the write path: the caller's live grant locked (a
 * revoke waits, and no session outlives one made before it), a new token pair bound to the grant,
 * and its log and trail row, in one transaction.
 */
export async function switchApp(ctx: AppContext, call: StaffCall, input: { appid: number }) {
  const actor = call.session;
  if (actor.impersonation) throw new AppError('impersonationForbidden', M.outOfScope);
  const now = ctx.clock.now();
  const { g, s } = await runWrite(ctx.db, {
    lock: async (tx) => {
      // A scoped holder opens a session only on a site in their scope (role-scopes.ts).
      if (actor.scope && !(await siteIsInScope(tx, actor.scope, input.appid)))
        throw outOfScope('a site in scope');
      return liveGrant(ctx, tx, actor, input.appid, true);
    },
    change: async (tx, g) => ({
      g,
      s: await openImpersonationSession(tx, {
        uid: actor.uid,
        at: now,
        clientAddress: call.clientAddress,
        userAgent: call.userAgent,
        impersonationRequestId: Number(g.id),
      }),
    }),
    trail: (tx, _done, g) =>
      logEvent(tx, {
        requestId: Number(g.id),
        at: now,
        actor: actor.email,
        event: 'session-start',
        status: 'Approved',
        clientAddress: call.clientAddress,
        details: { appId: Number(g.app_id) },
      }),
  });
  return { xtoken: s.xtoken, xsign: s.xsign, Data: grantOut(ctx, g, await permissionsOf(ctx.db, g)) };
}

/**
 * The scope of an impersonation session, checked on every call: the grant must still be live
 * (not revoked, not expired) and still the staff member's. Throws 401 when it has ended.
 */
export async function impersonationScope(
  ctx: AppContext,
  requestId: number,
  staff: { uid: string; email: string },
): Promise<NonNullable<StaffSession['impersonation']>> {
  const g = await liveGrantOfRequest(ctx.db, ctx.clock.now(), requestId);
  if (!g || !holds(g, staff)) throw new AppError('unauthenticated', M.ended);
  return {
    requestId: Number(g.id),
    appId: Number(g.app_id),
    appName: g.app_name,
    permissions: new Set(await permissionsOf(ctx.db, g)),
    expiresAt: new Date(g.expires_at),
  };
}

/** Every call made under impersonation goes to the impersonation log, with staff and site. */
export async function logImpersonatedCall(
  ctx: AppContext,
  session: StaffSession,
  call: { method: string; path: string; allowed: boolean; clientAddress: string },
): Promise<void> {
  const imp = session.impersonation!;
  await logEvent(ctx.db, {
    requestId: imp.requestId,
    at: ctx.clock.now(),
    actor: session.email,
    event: call.allowed ? 'call' : 'call-refused',
    status: 'Approved',
    clientAddress: call.clientAddress,
    details: { method: call.method, path: call.path, appId: imp.appId },
  });
}
