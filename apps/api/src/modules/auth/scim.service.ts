import { randomUUID } from 'node:crypto';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { AppContext } from '../../app-context.ts';
import { execute, qb } from '../../db/sql.ts';
import { runWrite, type WriteTx } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { revokeTokensOf } from './api-tokens.repo.ts';
import * as repo from './scim.repo.ts';
import {
  bad,
  externalIdOf,
  isId,
  iso,
  listResponse,
  notFound,
  type PatchOp,
  pageOf,
  patchOpsOf,
  type ScimCaller,
  str,
  trailOf,
} from './scim-common.ts';
import { parseEqFilter, ScimError } from './scim-filter.ts';
import { URN } from './scim-schema.ts';
import { revokeUserSessions } from './sessions.repo.ts';
import { breakGlassUid } from './sso.repo.ts';
import { deleteStaff, insertStaff, lockStaffRow, lockSuperAdmins } from './staff.repo.ts';

/** SCIM Users (RFC 7643 §4.1): super users, provisioned, changed, deactivated and deleted. */

/** No password matches '!scim': a provisioned member signs in through single sign-on. */
const NO_PASSWORD = '!scim';

/* Representations (RFC 7643 §4) */

function userOut(u: repo.UserRow, base: string) {
  return {
    schemas: [URN.user],
    id: u.uid,
    ...(u.external_id ? { externalId: u.external_id } : {}),
    userName: u.email,
    name: { formatted: u.full_name },
    displayName: u.full_name,
    active: u.deactivated_at === null,
    emails: [{ value: u.email, type: 'work', primary: true }],
    groups: u.groups.map((g) => ({ ...g, $ref: `${base}/scim/v2/Groups/${g.value}` })),
    meta: {
      resourceType: 'User',
      created: iso(u.created_at),
      lastModified: iso(u.created_at),
      location: `${base}/scim/v2/Users/${u.uid}`,
    },
  };
}

/* Users */

interface UserState {
  email: string;
  fullName: string;
  externalId: string | null;
  active: boolean;
}

function emailOf(v: unknown): string {
  const e = str(v, 'userName', 254);
  const at = e.indexOf('@');
  if (at < 1 || at !== e.lastIndexOf('@') || at === e.length - 1 || e.includes(' '))
    throw bad("userName is the super user's email address.");
  return e;
}

function nameOf(v: unknown, fallback: string): string {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'object') throw bad('name is an object.');
  const n = v as Record<string, unknown>;
  if (typeof n.formatted === 'string' && n.formatted.trim()) return str(n.formatted, 'name.formatted', 100);
  const parts = [n.givenName, n.familyName].filter(
    (p): p is string => typeof p === 'string' && p.trim() !== '',
  );
  return parts.length > 0 ? str(parts.join(' '), 'name', 100) : fallback;
}

const activeOf = (v: unknown): boolean => {
  // Entra ID sends "False" as a string in some PATCHes
  if (typeof v === 'string' && ['true', 'false'].includes(v.toLowerCase())) return v.toLowerCase() === 'true';
  if (typeof v !== 'boolean') throw bad('active is true or false.');
  return v;
};

/** The primary (else the first) email of an `emails` value. */
function primaryEmail(v: unknown): string | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  if (v.length > 10) throw bad('At most 10 emails.');
  const chosen = (v.find((e) => e && typeof e === 'object' && e.primary === true) ?? v[0]) as {
    value?: unknown;
  };
  return chosen && typeof chosen === 'object' ? emailOf(chosen.value) : undefined;
}

/** A whole User body (create, replace) as the state it asks for. */
function userStateOf(body: unknown): UserState {
  if (!body || typeof body !== 'object') throw bad('The body is a User.', 'invalidSyntax');
  const b = body as Record<string, unknown>;
  const email = emailOf(b.userName);
  const fallback =
    typeof b.displayName === 'string' && b.displayName.trim()
      ? str(b.displayName, 'displayName', 100)
      : email.split('@')[0]!;
  return {
    email,
    fullName: nameOf(b.name, fallback),
    externalId: externalIdOf(b.externalId),
    active: b.active === undefined ? true : activeOf(b.active),
  };
}

/**
 * The break-glass account of the single sign-on settings is the console's, kept for when the
 * provider is down: SCIM may read it (when it provisioned it) but never change, deactivate or
 * delete it (docs/decisions.md, "SCIM reaches only what it provisioned").
 */
async function refuseBreakGlass(tx: WriteTx, uid: string): Promise<void> {
  if ((await breakGlassUid(tx)) === uid)
    throw new ScimError(
      400,
      'This is the break-glass account of single sign-on: it is changed in the console, not by SCIM.',
      'mutability',
    );
}

/** Refuses what would leave no SuperAdmin that can sign in (the holders' rows locked first). */
async function keepASuperAdmin(tx: WriteTx, losing: string, what: string): Promise<void> {
  const holders = await lockSuperAdmins(tx, ROLE_SUPER_ADMIN);
  if (!holders.includes(losing)) return;
  const active = await repo.activeOf(tx, holders);
  if (active.length === 1 && active[0] === losing)
    throw new ScimError(400, `The last SuperAdmin cannot be ${what}.`, 'mutability');
}

/**
 * A member deactivated: refused sign-in from now (sign-in.repo.ts, sso.service.ts), every session
 * and API token ended in the same write, the caches told (authChanged), and so their live
 * notification streams end at the stream hub's next tick. Reactivated: they may sign in again.
 */
async function applyActive(tx: WriteTx, uid: string, was: boolean, now: boolean, at: Date): Promise<void> {
  if (was === now) return;
  if (!now) {
    await keepASuperAdmin(tx, uid, 'deactivated');
    await repo.setDeactivated(tx, uid, at);
    await revokeUserSessions(tx, uid, at, 'deactivated');
    await revokeTokensOf(tx, uid, at);
  } else await repo.setDeactivated(tx, uid, null);
}

async function writeUser(tx: WriteTx, uid: string, before: repo.UserRow, s: UserState, at: Date) {
  if (await repo.emailTaken(tx, s.email, uid))
    throw new ScimError(409, 'That userName is taken.', 'uniqueness');
  await repo.updateUser(tx, uid, s);
  await applyActive(tx, uid, before.deactivated_at === null, s.active, at);
}

const stateOfRow = (u: repo.UserRow): UserState => ({
  email: u.email,
  fullName: u.full_name,
  externalId: u.external_id,
  active: u.deactivated_at === null,
});

export async function getUser(ctx: AppContext, c: ScimCaller, uid: string) {
  const u = isId(uid) ? await repo.findUser(ctx.db, uid) : undefined;
  if (!u) throw notFound('user');
  return userOut(u, c.base);
}

export async function listUsers(
  ctx: AppContext,
  c: ScimCaller,
  q: { filter?: string; startIndex?: string; count?: string },
) {
  const f =
    q.filter === undefined
      ? undefined
      : (parseEqFilter(q.filter, ['userName', 'externalId']) as repo.UserFilter);
  const { start, count } = pageOf(q);
  const { total, page } = await repo.listUsers(ctx.db, f, start - 1, count);
  return listResponse(
    total,
    start,
    page.map((u) => userOut(u, c.base)),
  );
}

export async function createUser(ctx: AppContext, c: ScimCaller, body: unknown) {
  const s = userStateOf(body);
  const at = ctx.clock.now();
  const uid = randomUUID();
  const made = await runWrite(ctx.db, {
    change: async (tx) => {
      if (await repo.emailTaken(tx, s.email))
        throw new ScimError(409, 'That userName is taken.', 'uniqueness');
      await insertStaff(tx, {
        uid,
        email: s.email,
        fullName: s.fullName,
        passwordHash: NO_PASSWORD,
        roles: [],
        at,
      });
      await execute(
        tx,
        qb
          .updateTable('staff')
          .set({ external_id: s.externalId, scim_managed: true, deactivated_at: s.active ? null : at })
          .where('uid', '=', uid),
      );
      return (await repo.findUser(tx, uid))!;
    },
    trail: (tx, u) =>
      writeActivity(tx, {
        ...trailOf(c, at),
        action: 'scim.user.create',
        targetType: 'staff',
        targetId: u.uid,
        details: { email: u.email, externalId: u.external_id, active: s.active, scimTokenId: c.token.id },
      }),
  });
  return userOut(made, c.base);
}

/** Replace (PUT) or PATCH: the member locked, the new state written, the trail row says what changed. */
async function changeUser(
  ctx: AppContext,
  c: ScimCaller,
  uid: string,
  action: 'scim.user.replace' | 'scim.user.patch',
  next: (before: repo.UserRow) => UserState,
) {
  if (!isId(uid)) throw notFound('user');
  const at = ctx.clock.now();
  const { after, before } = await runWrite(ctx.db, {
    lock: async (tx) => {
      await lockStaffRow(tx, uid);
      const u = await repo.findUser(tx, uid);
      if (!u) throw notFound('user');
      await refuseBreakGlass(tx, uid);
      return u;
    },
    change: async (tx, before) => {
      await writeUser(tx, uid, before, next(before), at);
      return { before, after: (await repo.findUser(tx, uid))! };
    },
    trail: (tx, { before, after }) => {
      const deactivated = before.deactivated_at === null && after.deactivated_at !== null;
      return writeActivity(tx, {
        ...trailOf(c, at),
        action: deactivated ? 'scim.user.deactivate' : action,
        targetType: 'staff',
        targetId: uid,
        details: {
          email: after.email,
          from: stateOfRow(before),
          to: stateOfRow(after),
          ...(deactivated ? { via: action } : {}),
          scimTokenId: c.token.id,
        },
      });
    },
  });
  void before;
  return userOut(after, c.base);
}

export const replaceUser = (ctx: AppContext, c: ScimCaller, uid: string, body: unknown) => {
  const s = userStateOf(body);
  return changeUser(ctx, c, uid, 'scim.user.replace', () => s);
};

function patchUserState(s: UserState, o: PatchOp): UserState {
  if (o.path === undefined) {
    if (!o.value || typeof o.value !== 'object')
      throw bad('An operation without a path has an object value.');
    let next = s;
    for (const [k, v] of Object.entries(o.value as Record<string, unknown>))
      next = patchUserState(next, { op: o.op, path: k, value: v });
    return next;
  }
  const path = o.path.trim().toLowerCase();
  const remove = o.op === 'remove';
  switch (path) {
    case 'active':
      if (remove) throw bad('active cannot be removed.', 'mutability');
      return { ...s, active: activeOf(o.value) };
    case 'externalid':
      return { ...s, externalId: remove ? null : externalIdOf(o.value) };
    case 'username':
      if (remove) throw bad('userName cannot be removed.', 'mutability');
      return { ...s, email: emailOf(o.value) };
    case 'displayname':
    case 'name.formatted':
      if (remove) return s;
      return { ...s, fullName: str(o.value, o.path, 100) };
    case 'name':
      if (remove) return s;
      return { ...s, fullName: nameOf(o.value, s.fullName) };
    case 'name.givenname':
    case 'name.familyname': {
      if (remove) return s;
      const given = path === 'name.givenname';
      const parts = s.fullName.split(' ');
      const v = str(o.value, o.path, 50);
      return { ...s, fullName: given ? [v, ...parts.slice(1)].join(' ') : [parts[0], v].join(' ') };
    }
    case 'emails':
    case 'emails[type eq "work"].value':
    case 'emails[primary eq true].value': {
      if (remove) throw bad('The email cannot be removed.', 'mutability');
      const e = path === 'emails' ? primaryEmail(o.value) : emailOf(o.value);
      return e ? { ...s, email: e } : s;
    }
    default:
      throw bad(`The path ${o.path.slice(0, 100)} is not supported.`, 'invalidPath');
  }
}

export const patchUser = (ctx: AppContext, c: ScimCaller, uid: string, body: unknown) => {
  const ops = patchOpsOf(body);
  return changeUser(ctx, c, uid, 'scim.user.patch', (before) =>
    ops.reduce(patchUserState, stateOfRow(before)),
  );
};

export async function deleteUser(ctx: AppContext, c: ScimCaller, uid: string): Promise<void> {
  if (!isId(uid)) throw notFound('user');
  const at = ctx.clock.now();
  await runWrite(ctx.db, {
    lock: async (tx) => {
      await lockStaffRow(tx, uid);
      const u = await repo.findUser(tx, uid);
      if (!u) throw notFound('user');
      await refuseBreakGlass(tx, uid);
      await keepASuperAdmin(tx, uid, 'deleted');
      return u;
    },
    change: (tx) => deleteStaff(tx, uid),
    trail: (tx, _done, u) =>
      writeActivity(tx, {
        ...trailOf(c, at),
        action: 'scim.user.delete',
        targetType: 'staff',
        targetId: uid,
        details: { email: u.email, externalId: u.external_id, scimTokenId: c.token.id },
      }),
  });
}
