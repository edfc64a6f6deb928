import { randomUUID } from 'node:crypto';
import { memberReviewOf } from '@sac/contract/access-review';
import { INVITE_VTYPE } from '@sac/contract/auth';
import { consolePaths } from '@sac/contract/console-paths';
import { ERRORS } from '@sac/contract/errors';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import { canOpenProfile } from '@sac/contract/profile-access';
import {
  assignableRoles,
  canManageStaff,
  createSuperUserBody,
  INVITATION_TTL_MS,
  touchesSuperAdmin,
} from '@sac/contract/team';
import { generatePassword } from '@sac/contract/validation';
import type { AppContext, StaffSession } from '../../app-context.ts';
import type { Config } from '../../config.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { isUniqueViolation } from '../../db/db.ts';
import { recordVersion, recordVersions } from '../../db/record-versions.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import { consolePageFor } from '../../lib/console-url.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { hashPassword } from '../../lib/password-hash.ts';
import { runWrite } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import {
  addStaffMember,
  changeStaffRoles,
  checkSettledSuperAdmin,
  findStaffByEmail,
  findStaffByUid,
  issueInvitation,
  listRoles,
  listStaff,
  lockStaffRows,
  lockSuperAdmins,
  permissionsOfRoles,
  removeStaffMember,
  type StaffRowWithApprover,
  standing,
} from '../auth/staff.service.ts';
import { notifySessionsEnded } from '../staff-notifications/staff-notifications.service.ts';
import { dataCenterNames } from './custom-roles.repo.ts';
import { roleOut } from './custom-roles.service.ts';
import { invitationMail } from './team.mails.ts';

/**
 * A staff row under the server's names of spec section 3, with when they got the SuperAdmin role
 * (a role that approves impersonation; null when not recorded or not held) and, while they are in
 * the approval cool-down, when it ends.
 */
function toSuperUser(ctx: AppContext, s: StaffRowWithApprover, rolesVersion: number) {
  const approver = standing(s.approver_since, ctx.clock.now(), ctx.config.approverCoolDownMs);
  return {
    Uid: s.uid,
    FullName: s.full_name,
    Email: [{ Type: 'Primary', Value: s.email }],
    Roles: s.roles,
    CreatedDate: new Date(s.created_at).toISOString(),
    LastLoginDate: isoOrNull(s.last_login_at),
    ApproverSince: isoOrNull(approver.since),
    CanApproveImpersonationFrom: isoOrNull(approver.canApproveFrom),
    Version: rolesVersion,
    ...(s.kind === 'service' ? { Service: true } : {}),
    ...(s.deactivated_at ? { DeactivatedAt: new Date(s.deactivated_at).toISOString() } : {}),
    ...(s.invitation_pending ? { Invited: true } : {}),
    Review: reviewOf(ctx, s),
  };
}

/** A member's periodic access review at the clock's now (access-review.ts). */
export const reviewOf = (ctx: AppContext, s: StaffRowWithApprover) =>
  memberReviewOf(
    {
      created: s.created_at,
      confirmedAt: s.roles_confirmed_at,
      confirmedBy: s.roles_confirmed_by,
      roles: s.roles,
    },
    ctx.clock.now(),
    ctx.config.accessReview.days,
  );

/** The record whose version guards a super user's roles; sent as each row's Version. */
export const rolesRecord = (uid: string) => `staff:${uid}:roles`;

async function superUserOut(ctx: AppContext, s: StaffRowWithApprover) {
  return toSuperUser(ctx, s, await recordVersion(ctx.db, rolesRecord(s.uid)));
}

const identity = (s: StaffSession) => ({ uid: s.uid, roles: s.roles });
const NO_SUCH_STAFF = 'There is no super user with that id.';

export async function list(ctx: AppContext) {
  const staff = await listStaff(ctx.db);
  const versions = await recordVersions(
    ctx.db,
    staff.map((s) => rolesRecord(s.uid)),
  );
  return { Data: staff.map((s) => toSuperUser(ctx, s, versions.get(rolesRecord(s.uid)) ?? 0)) };
}

export async function roles(ctx: AppContext) {
  const [all, centers] = await Promise.all([listRoles(ctx.db), dataCenterNames(ctx.db)]);
  return {
    Data: all.map((r) =>
      roleOut({
        name: r.name,
        description: r.description,
        permissions: r.permissions,
        dataCenters: r.scope_data_centers,
        plans: r.scope_plans,
        builtIn: r.built_in,
        holders: Number(r.holders ?? 0),
        version: r.version,
      }),
    ),
    DataCenters: centers.map((c) => ({ Code: c.code, Name: c.name })),
  };
}

/**
 * Every role's name and permissions (what assignableRoles reads), refusing (937) roles named in
 * `wanted` that do not exist.
 */
async function knownRoles(db: Queryable, wanted: string[]) {
  const rows = await listRoles(db);
  const all = rows.map((r) => r.name);
  const unknown = wanted.filter((r) => !all.includes(r));
  if (unknown.length) throw new AppError('unknownRole', `${ERRORS.unknownRole.text} (${unknown.join(', ')})`);
  const matrix = Object.fromEntries(
    rows.map((r) => [
      r.name,
      {
        permissions: r.permissions,
        scope:
          r.scope_data_centers || r.scope_plans
            ? { dataCenters: r.scope_data_centers, plans: r.scope_plans }
            : null,
      },
    ]),
  );
  return { all, matrix };
}

/**
 * The invitation's link goes to the console at `origin` (the call's Origin header), if it is one.
 * The roles and the email are checked in the write's transaction; two creations racing on one
 * email are decided by the email's unique index.
 */
export async function create(
  ctx: AppContext,
  call: StaffCall,
  input: { role: string[]; email: string; name: string; origin: unknown },
) {
  const actor = call.session;
  const body = input;
  const origin = typeof input.origin === 'string' ? input.origin : undefined;
  const wanted = [...new Set(body.role)];
  // A password nobody is told: the user sets their own through the invitation link.
  const passwordHash = await hashPassword(generatePassword());
  const now = ctx.clock.now();
  const uid = randomUUID();
  try {
    const { answer } = await runWrite(ctx.db, {
      // No row to lock: the account is new. The roles and the email are read in the transaction,
      // and a creation with the same email committing meanwhile fails this one's insert (below).
      lock: async (tx) => {
        const { all, matrix } = await knownRoles(tx, wanted);
        const allowed = assignableRoles(actor.roles, all, 'create', matrix);
        const refused = wanted.filter((r) => !allowed.includes(r));
        if (refused.length)
          throw new AppError('roleNotAssignable', `${ERRORS.roleNotAssignable.text} (${refused.join(', ')})`);
        if (await findStaffByEmail(tx, body.email)) throw new AppError('superUserExists');
      },
      change: async (tx) => {
        await addStaffMember(tx, {
          uid,
          email: body.email,
          fullName: body.name,
          passwordHash,
          roles: wanted,
          at: now,
          invitationPending: true,
          rolesGrantedAt: now,
        });
        const token = await issueInvitation(tx, uid, now, INVITATION_TTL_MS);
        // The answer is read in the write: a deletion committed right after it would leave nothing to read.
        const created = (await findStaffByUid(tx, uid))!;
        return { token, answer: toSuperUser(ctx, created, await recordVersion(tx, rolesRecord(uid))) };
      },
      trail: async (tx, { token }) => {
        await writeActivity(tx, {
          at: now,
          action: 'team.create',
          actorUid: actor.uid,
          actorEmail: actor.email,
          targetType: 'staff',
          targetId: uid,
          clientAddress: call.clientAddress,
          details: { email: body.email, roles: wanted },
        });
        // The invitation is kept with the account, or neither.
        const link = consolePageFor(ctx.config, origin, consolePaths.login());
        link.searchParams.set('vtype', INVITE_VTYPE);
        link.searchParams.set('vtoken', token);
        await ctx.mailer.send(
          tx,
          invitationMail({
            to: body.email,
            name: body.name,
            inviter: { name: actor.name, email: actor.email },
            roles: wanted,
            invitationUrl: link.toString(),
          }),
        );
      },
    });
    return { Data: answer };
  } catch (e) {
    // Two creations racing on one email: the unique index decides.
    if (isUniqueViolation(e)) throw new AppError('superUserExists');
    throw e;
  }
}

/**
 * The first real admin of an installation (`npm run create-admin -- EMAIL`): a SuperAdmin with a
 * password nobody knows and a single-use set-password link (the invitation, 24 hours) for the
 * operator to hand over. Recorded in the staff activity as made from the command line.
 */
export async function createAdminFromCommandLine(
  db: Db,
  config: Config,
  input: { email: string; name?: string },
  now: Date,
): Promise<{ uid: string; link: string }> {
  const body = createSuperUserBody.safeParse({ role: [ROLE_SUPER_ADMIN], ...input });
  if (!body.success) throw new AppError('validation', body.error.issues[0]?.message);
  const { email, name } = body.data;
  const passwordHash = await hashPassword(generatePassword());
  const uid = randomUUID();
  try {
    return await runWrite(db, {
      lock: async (tx) => {
        if (await findStaffByEmail(tx, email)) throw new AppError('superUserExists');
      },
      change: async (tx) => {
        await addStaffMember(tx, {
          uid,
          email,
          fullName: name || email.split('@')[0]!,
          passwordHash,
          roles: [ROLE_SUPER_ADMIN],
          at: now,
          invitationPending: true,
        });
        const token = await issueInvitation(tx, uid, now, INVITATION_TTL_MS);
        const link = consolePageFor(config, undefined, consolePaths.login());
        link.searchParams.set('vtype', INVITE_VTYPE);
        link.searchParams.set('vtoken', token);
        return { uid, link: link.toString() };
      },
      trail: (tx) =>
        writeActivity(tx, {
          at: now,
          action: 'team.create',
          actorEmail: 'command line (create-admin)',
          targetType: 'staff',
          targetId: uid,
          details: { email, roles: [ROLE_SUPER_ADMIN] },
        }),
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('superUserExists');
    throw e;
  }
}

/**
 * The lock of a role change or deletion, in its transaction: first the SuperAdmin role lock that
 * every one of them takes (so they apply one at a time, and "the last SuperAdmin" cannot race),
 * then the actor's roles as they are now, then the target's staff row, locked FOR UPDATE (so an
 * act of a SuperAdmin on that account, which locks the row without the role lock, waits too), and
 * the checks on them: the target there (404), not the actor (932/933/1170/1197, as `self` names),
 * one the actor may manage (936). Checks made only on copies read before a racing change committed let an Admin override a
 * member just promoted to Admin, a just-demoted actor act with its old roles, and the audit log
 * record a "from" that was no longer true.
 */
export async function lockedParties(
  tx: Queryable,
  actor: StaffSession,
  uid: string,
  self: 'ownRoles' | 'ownAccount' | 'reviewOwnRoles' | 'ownInvitation',
) {
  const superAdmins = await lockSuperAdmins(tx, ROLE_SUPER_ADMIN);
  const me = await findStaffByUid(tx, actor.uid);
  if (!me) throw new AppError('unauthenticated');
  const [target] = await lockStaffRows(tx, [uid]);
  if (!target) throw new AppError('notFound', NO_SUCH_STAFF);
  if (target.uid === actor.uid) throw new AppError(self);
  if (!canManageStaff({ uid: actor.uid, roles: me.roles }, { uid: target.uid, roles: target.roles }))
    throw new AppError('staffNotManageable');
  return { superAdmins, actorRoles: me.roles, target };
}

/** The roles an update changes that the actor may not give or take away. */
function refusedChanges(
  actorRoles: string[],
  known: Awaited<ReturnType<typeof knownRoles>>,
  from: string[],
  wanted: string[],
) {
  const allowed = assignableRoles(actorRoles, known.all, 'update', known.matrix);
  const changed = [...wanted.filter((r) => !from.includes(r)), ...from.filter((r) => !wanted.includes(r))];
  const refused = changed.filter((r) => !allowed.includes(r));
  if (refused.length)
    throw new AppError('roleNotAssignable', `${ERRORS.roleNotAssignable.text} (${refused.join(', ')})`);
}

/** The Version of the roles the form was read at is the call's If-Match. */
export async function updateRoles(
  ctx: AppContext,
  call: StaffCall,
  body: { role: string[]; uid: string; unAssignRoles: string[] },
) {
  const actor = call.session;
  const wanted = [...new Set(body.role)];
  const now = ctx.clock.now();
  const { answer } = await runWrite(ctx.db, {
    lock: async (tx) => {
      const parties = await lockedParties(tx, actor, body.uid, 'ownRoles');
      refusedChanges(parties.actorRoles, await knownRoles(tx, wanted), parties.target.roles, wanted);
      return parties;
    },
    version: { record: rolesRecord(body.uid), expected: call.expectedVersion },
    change: async (tx, { superAdmins, target, actorRoles }, version) => {
      // Still under the lock, after the version claim (a stale form is told so first): separation
      // of duties, another SuperAdmin's roles and the SuperAdmin role wait for the actor's
      // cool-down (948); and the last SuperAdmin stays (934).
      if (touchesSuperAdmin(target.roles, wanted)) await checkSettledSuperAdmin(ctx, tx, actor.uid, now);
      const demotes = superAdmins.includes(target.uid) && !wanted.includes(ROLE_SUPER_ADMIN);
      if (demotes && superAdmins.length <= 1) throw new AppError('lastSuperAdmin');
      // A SuperAdmin's role change is a decision on the roles: it counts as the access review's
      // confirmation (an Admin's does not: docs/decisions.md, "Periodic access review").
      const confirmedBy = actorRoles.includes(ROLE_SUPER_ADMIN) ? actor.email : undefined;
      const ended = await changeStaffRoles(tx, target.uid, wanted, now, confirmedBy);
      // The answer is read in the write: a deletion committed right after it would leave nothing to read.
      const updated = (await findStaffByUid(tx, target.uid))!;
      return { ended, answer: toSuperUser(ctx, updated, version!) };
    },
    trail: async (tx, { ended }, { target }) => {
      await writeActivity(tx, {
        at: now,
        action: 'team.roles',
        actorUid: actor.uid,
        actorEmail: actor.email,
        targetType: 'staff',
        targetId: target.uid,
        clientAddress: call.clientAddress,
        details: { from: target.roles, to: wanted, sessionsEnded: ended },
      });
      await notifySessionsEnded(tx, ctx, {
        uid: target.uid,
        actorEmail: actor.email,
        count: ended,
        because: `changed your roles to ${wanted.join(', ')}`,
      });
    },
  });
  return { Data: answer };
}

export async function remove(ctx: AppContext, call: StaffCall, input: { uid: string }) {
  const actor = call.session;
  const { uid } = input;
  const now = ctx.clock.now();
  const target = await runWrite(ctx.db, {
    lock: async (tx) => {
      const { superAdmins, target } = await lockedParties(tx, actor, uid, 'ownAccount');
      // Separation of duties: deleting another SuperAdmin waits for the actor's cool-down (948).
      if (touchesSuperAdmin(target.roles)) await checkSettledSuperAdmin(ctx, tx, actor.uid, now);
      if (superAdmins.includes(target.uid) && superAdmins.length <= 1) throw new AppError('lastSuperAdmin');
      return target;
    },
    change: async (tx, target) => {
      // Sessions and tokens go with the row (ON DELETE CASCADE): the user is out at once.
      await removeStaffMember(tx, target.uid);
      return target;
    },
    trail: (tx, target) =>
      writeActivity(tx, {
        at: now,
        action: 'team.delete',
        actorUid: actor.uid,
        actorEmail: actor.email,
        targetType: 'staff',
        targetId: target.uid,
        clientAddress: call.clientAddress,
        details: { email: target.email, roles: target.roles },
      }),
  });
  return { IsDeleted: true, Uid: target.uid };
}

export async function profile(ctx: AppContext, viewer: StaffSession, uid: string) {
  const target = await findStaffByUid(ctx.db, uid);
  if (!target) throw new AppError('notFound', NO_SUCH_STAFF);
  if (!canOpenProfile(identity(viewer), { uid: target.uid, roles: target.roles }))
    throw new AppError('profileNotAllowed');
  return {
    Data: {
      ...(await superUserOut(ctx, target)),
      Permissions: await permissionsOfRoles(ctx.db, target.roles),
      PasswordChangedDate: isoOrNull(target.password_changed_at),
      Invited: target.invitation_pending,
    },
  };
}
