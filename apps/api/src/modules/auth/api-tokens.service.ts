import { randomUUID } from 'node:crypto';
import {
  ALLOWLIST_MESSAGES,
  API_TOKEN_MESSAGES,
  API_TOKEN_PREFIX,
  type ApiTokenInfo,
} from '@sac/contract/api-tokens';
import { ENDPOINTS } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { AppContext, StaffSession } from '../../app-context.ts';
import { firstRow, qb } from '../../db/sql.ts';
import { addressAllowed, invalidEntries, parseCidr } from '../../lib/address-allowlist.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { randomSecret } from '../../lib/secrets.ts';
import { runWrite } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import {
  currentAllowlist,
  findListedToken,
  insertToken,
  type ListedToken,
  listTokens,
  readAllowlist,
  revokeToken,
  saveAllowlist,
} from './api-tokens.repo.ts';
import { superAdminOnly } from './approver-cool-down.ts';
import { findStaffByEmail, insertStaff, listRoles, lockStaffRow, permissionsOfRoles } from './staff.repo.ts';

const DAY_MS = 86_400_000;
const isSuperAdmin = (s: StaffSession) => s.roles.includes(ROLE_SUPER_ADMIN);
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const tokenOut = (t: ListedToken): ApiTokenInfo => ({
  Id: Number(t.id),
  Name: t.name,
  OwnerUid: t.uid,
  OwnerEmail: t.email,
  Service: t.kind === 'service',
  Permissions: t.permissions,
  AllowedAddresses: t.allowed_addresses,
  CreatedAt: iso(t.created_at)!,
  ExpiresAt: iso(t.expires_at)!,
  LastUsedAt: iso(t.last_used_at),
  LastUsedAddress: t.last_used_address,
  RevokedAt: iso(t.revoked_at),
});

/** Addresses as typed, each parsed strictly (400 naming the first that is not one), canonical and once each. */
function addressesOf(entries: readonly string[] | undefined, field: string): string[] {
  const list = [...new Set((entries ?? []).map((e) => e.trim()))];
  const bad = invalidEntries(list);
  if (bad.length > 0) {
    const message = `${ALLOWLIST_MESSAGES.entry} (${bad[0]})`;
    throw new AppError('validation', message, [{ Field: field, Message: message }]);
  }
  return list.map((e) => {
    const c = parseCidr(e)!;
    const max = c.family === 'ipv4' ? 32 : 128;
    return c.prefix === max ? c.address : `${c.address}/${c.prefix}`;
  });
}

export async function listApiTokens(ctx: AppContext, me: StaffSession, all: boolean) {
  if (all && !isSuperAdmin(me)) throw superAdminOnly();
  const rows = await listTokens(ctx.db, all ? undefined : me.uid, ctx.clock.now());
  return { Data: rows.map(tokenOut) };
}

/**
 * The account a new token is for and the permissions it may hold: the caller's own, or (for a
 * SuperAdmin) a service account's, whose roles give its permissions. Read under the owner's row
 * lock, so a role change cannot slip between the check and the insert.
 */
async function ownerOf(
  _ctx: AppContext,
  tx: Parameters<typeof lockStaffRow>[0],
  me: StaffSession,
  uid?: string,
) {
  if (uid === undefined || uid === me.uid) return { uid: me.uid, permissions: me.permissions };
  if (!isSuperAdmin(me))
    throw Object.assign(new AppError('forbidden', API_TOKEN_MESSAGES.notService), {
      missing: ROLE_SUPER_ADMIN,
    });
  await lockStaffRow(tx, uid);
  const owner = await firstRow(
    tx,
    qb
      .selectFrom('staff as s')
      .leftJoin('staff_roles as r', 'r.uid', 's.uid')
      .select((eb) => ['s.kind', eb.fn.agg<string[]>('array_agg', ['r.role']).as('roles')])
      .where('s.uid', '=', uid)
      .groupBy('s.kind'),
  );
  if (!owner) throw new AppError('notFound', 'There is no super user with that id.');
  if (owner.kind !== 'service') throw new AppError('forbidden', API_TOKEN_MESSAGES.notService);
  const roles = (owner.roles ?? []).filter((r): r is string => r !== null);
  return { uid, permissions: new Set(await permissionsOfRoles(tx, roles)) };
}

export async function createApiToken(
  ctx: AppContext,
  call: StaffCall,
  body: {
    Name: string;
    ExpiresInDays: number;
    Permissions: string[];
    AllowedAddresses?: string[] | undefined;
    OwnerUid?: string | undefined;
  },
) {
  const me = call.session;
  const now = ctx.clock.now();
  const allowed = addressesOf(body.AllowedAddresses, 'AllowedAddresses');
  const permissions = [...new Set(body.Permissions)].sort();
  const token = `${API_TOKEN_PREFIX}${randomSecret()}`;
  const made = await runWrite(ctx.db, {
    lock: (tx) => ownerOf(ctx, tx, me, body.OwnerUid),
    change: async (tx, owner) => {
      // A token holds no more than its owner (and its maker) may do.
      const wider = permissions.filter((p) => !owner.permissions.has(p) || !me.permissions.has(p));
      if (wider.length > 0)
        throw Object.assign(
          new AppError('forbidden', `${API_TOKEN_MESSAGES.tooWide} (${wider.join(', ')})`),
          {
            missing: wider.join(', '),
          },
        );
      const id = await insertToken(tx, {
        uid: owner.uid,
        name: body.Name,
        token,
        permissions,
        allowedAddresses: allowed,
        createdBy: me.uid,
        at: now,
        expiresAt: new Date(now.getTime() + body.ExpiresInDays * DAY_MS),
      });
      return (await findListedToken(tx, id))!;
    },
    trail: (tx, t) =>
      writeActivity(tx, {
        at: now,
        action: 'token.create',
        actorUid: me.uid,
        actorEmail: me.email,
        targetType: 'staff',
        targetId: t.uid,
        clientAddress: call.clientAddress,
        details: {
          tokenId: Number(t.id),
          name: t.name,
          permissions,
          allowedAddresses: allowed,
          expiresAt: iso(t.expires_at),
          ...(t.uid !== me.uid ? { of: t.email } : {}),
        },
      }),
  });
  return { Token: token, Data: tokenOut(made) };
}

export async function revokeApiToken(ctx: AppContext, call: StaffCall, id: number) {
  const me = call.session;
  const now = ctx.clock.now();
  await runWrite(ctx.db, {
    change: async (tx) => {
      const r = await revokeToken(tx, id, isSuperAdmin(me) ? undefined : me.uid, now, me.uid);
      if (!r) throw new AppError('notFound', API_TOKEN_MESSAGES.notFound);
      return r;
    },
    trail: (tx, r) =>
      writeActivity(tx, {
        at: now,
        action: 'token.revoke',
        actorUid: me.uid,
        actorEmail: me.email,
        targetType: 'staff',
        targetId: r.uid,
        clientAddress: call.clientAddress,
        details: { tokenId: Number(r.id), name: r.name },
      }),
  });
  return { IsPosted: true, Message: API_TOKEN_MESSAGES.revoked };
}

/**
 * A service account: a staff member of kind 'service' with roles and no password ('!' matches
 * none) who never signs in; it owns the tokens a SuperAdmin makes for it. Its address is made up
 * under .invalid (RFC 2606), so no mail ever reaches anyone.
 */
export async function createServiceAccount(
  ctx: AppContext,
  call: StaffCall,
  body: { Name: string; Roles: string[] },
) {
  const me = call.session;
  if (!isSuperAdmin(me)) throw superAdminOnly();
  const all = (await listRoles(ctx.db)).map((r) => r.name);
  const unknown = body.Roles.filter((r) => !all.includes(r));
  if (unknown.length) throw new AppError('unknownRole', `${ERRORS.unknownRole.text} (${unknown.join(', ')})`);
  if (body.Roles.includes(ROLE_SUPER_ADMIN))
    throw Object.assign(new AppError('roleNotAssignable'), { missing: ROLE_SUPER_ADMIN });
  const now = ctx.clock.now();
  const uid = randomUUID();
  const email = `service-${uid.slice(0, 8)}@service-accounts.invalid`;
  await runWrite(ctx.db, {
    change: async (tx) => {
      await insertStaff(tx, {
        uid,
        email,
        fullName: body.Name,
        passwordHash: '!',
        roles: body.Roles,
        at: now,
        rolesGrantedAt: now,
        kind: 'service',
      });
    },
    trail: (tx) =>
      writeActivity(tx, {
        at: now,
        action: 'team.service-account.create',
        actorUid: me.uid,
        actorEmail: me.email,
        targetType: 'staff',
        targetId: uid,
        clientAddress: call.clientAddress,
        details: { name: body.Name, roles: body.Roles, email },
      }),
  });
  return { Uid: uid, Email: email };
}

export async function addressAllowlist(ctx: AppContext, call: StaffCall) {
  if (!isSuperAdmin(call.session)) throw superAdminOnly();
  return { Entries: await readAllowlist(ctx.db), YourAddress: call.clientAddress };
}

/**
 * Replaces the staff address allowlist. A list that would refuse the caller's own address is
 * refused: saving it would end their next call, and the last SuperAdmin's too.
 */
export async function saveAddressAllowlist(ctx: AppContext, call: StaffCall, entries: string[]) {
  const me = call.session;
  if (!isSuperAdmin(me)) throw superAdminOnly();
  const list = addressesOf(entries, 'Entries');
  if (!addressAllowed(list, call.clientAddress))
    throw new AppError('allowlistLockOut', ALLOWLIST_MESSAGES.lockOut(call.clientAddress));
  const now = ctx.clock.now();
  await runWrite(ctx.db, {
    change: (tx) => saveAllowlist(tx, list, now, me.email),
    trail: (tx) =>
      writeActivity(tx, {
        at: now,
        action: 'allowlist.save',
        actorUid: me.uid,
        actorEmail: me.email,
        targetType: 'allowlist',
        clientAddress: call.clientAddress,
        details: { entries: list },
      }),
  });
  return { Entries: list, YourAddress: call.clientAddress };
}

/**
 * A sign-in from an address the staff allowlist leaves out is refused before anything is counted
 * or checked; when the email is a staff member's, the refusal is theirs in the trail (folded).
 */
export async function refuseSignInOutsideAllowlist(
  ctx: AppContext,
  clientAddress: string,
  email: string,
): Promise<void> {
  const entries = await currentAllowlist(ctx.db);
  if (addressAllowed(entries, clientAddress)) return;
  const refusal = new AppError('addressNotAllowed');
  const staff = await findStaffByEmail(ctx.db, email);
  if (staff)
    await ctx.callAuth.recordRefusal(staff, ENDPOINTS.login, 'an allowed address', refusal, clientAddress);
  throw refusal;
}
