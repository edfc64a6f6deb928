import { randomUUID } from 'node:crypto';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { AppContext } from '../../app-context.ts';
import { execute, qb } from '../../db/sql.ts';
import { runWrite, type WriteTx } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { revokeTokensOf } from '../auth/api-tokens.repo.ts';
import { revokeUserSessions } from '../auth/sessions.repo.ts';
import {
  deleteStaff,
  insertStaff,
  lockStaffRow,
  lockSuperAdmins,
  setStaffRoles,
} from '../auth/staff.repo.ts';
import * as repo from './scim.repo.ts';
import { memberPathValue, parseEqFilter, ScimError } from './scim-filter.ts';
import { MEMBERS_MAX, PAGE_MAX, PATCH_OPS_MAX, URN } from './scim-schema.ts';

/** Who makes a SCIM call: the provider's token, and where from (for the trail). */
export interface ScimCaller {
  token: { id: number; name: string };
  clientAddress: string;
  /** The server's public origin, for meta.location. */
  base: string;
}

/** No password matches '!scim': a provisioned member signs in through single sign-on. */
const NO_PASSWORD = '!scim';
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const bad = (detail: string, scimType = 'invalidValue') => new ScimError(400, detail, scimType);
const notFound = (what: string) => new ScimError(404, `There is no ${what} with that id.`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isId = (s: string) => s.length === 36 && UUID.test(s);

const trailOf = (c: ScimCaller, at: Date) => ({
  at,
  actorUid: null,
  actorEmail: `scim:${c.token.name}`,
  clientAddress: c.clientAddress,
});

/* Representations (RFC 7643 §4) */

export function userOut(u: repo.UserRow, base: string) {
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

export function groupOut(g: repo.GroupRow, base: string) {
  return {
    schemas: [URN.group],
    id: g.id,
    ...(g.external_id ? { externalId: g.external_id } : {}),
    displayName: g.display_name,
    members: g.members.map((m) => ({ ...m, $ref: `${base}/scim/v2/Users/${m.value}` })),
    meta: {
      resourceType: 'Group',
      created: iso(g.created_at),
      lastModified: iso(g.updated_at),
      location: `${base}/scim/v2/Groups/${g.id}`,
      version: `W/"${g.version}"`,
    },
  };
}

/** startIndex (1-based) and count, bounded (RFC 7644 §3.4.2.4). */
export function pageOf(q: { startIndex?: string; count?: string }) {
  const start = Math.max(1, Math.min(1_000_000, Number.parseInt(q.startIndex ?? '1', 10) || 1));
  const n = Number.parseInt(q.count ?? String(PAGE_MAX), 10);
  const count = Number.isNaN(n) ? PAGE_MAX : Math.max(0, Math.min(PAGE_MAX, n));
  return { start, count };
}

export const listResponse = (total: number, start: number, resources: unknown[]) => ({
  schemas: [URN.list],
  totalResults: total,
  startIndex: start,
  itemsPerPage: resources.length,
  Resources: resources,
});

/* Users */

interface UserState {
  email: string;
  fullName: string;
  externalId: string | null;
  active: boolean;
}

const str = (v: unknown, field: string, max: number): string => {
  if (typeof v !== 'string' || v.trim() === '' || v.length > max)
    throw bad(`${field} is a string of 1 to ${max} characters.`);
  return v.trim();
};

/** A userName is the member's email address (bounded, one @, no spaces). */
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

const externalIdOf = (v: unknown): string | null =>
  v === undefined || v === null ? null : str(v, 'externalId', 200);

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

interface PatchOp {
  op: 'add' | 'replace' | 'remove';
  path: string | undefined;
  value: unknown;
}

/** The Operations of a PatchOp body (RFC 7644 §3.5.2), bounded and checked. */
export function patchOpsOf(body: unknown): PatchOp[] {
  const b = (body ?? {}) as { schemas?: unknown; Operations?: unknown };
  if (!Array.isArray(b.schemas) || !b.schemas.includes(URN.patch))
    throw bad('The body is a PatchOp.', 'invalidSyntax');
  if (!Array.isArray(b.Operations) || b.Operations.length === 0 || b.Operations.length > PATCH_OPS_MAX)
    throw bad(`A PatchOp has 1 to ${PATCH_OPS_MAX} Operations.`, 'invalidSyntax');
  return b.Operations.map((o: unknown) => {
    const x = (o ?? {}) as { op?: unknown; path?: unknown; value?: unknown };
    const op = typeof x.op === 'string' ? x.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw bad('op is add, replace or remove.', 'invalidSyntax');
    if (x.path !== undefined && (typeof x.path !== 'string' || x.path.length > 300))
      throw bad('path is a string.', 'invalidPath');
    if (op === 'remove' && x.path === undefined) throw bad('A remove names its path.', 'noTarget');
    return { op, path: x.path as string | undefined, value: x.value };
  });
}

/** One User PATCH operation applied to a state. */
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

/* Groups */

/**
 * The members' roles follow their SCIM groups: each group's displayName is a group value of
 * staff_group_roles (the Single sign-on screen's table), and a member's roles become those their
 * groups map to. Refused when it would leave no SuperAdmin that can sign in.
 */
async function syncRoles(tx: WriteTx, uids: Iterable<string>, at: Date): Promise<void> {
  const list = [...new Set(uids)].sort();
  if (list.length === 0) return;
  await lockSuperAdmins(tx, ROLE_SUPER_ADMIN);
  for (const uid of list) {
    await setStaffRoles(tx, uid, await repo.rolesFromGroups(tx, uid), at);
    await execute(tx, qb.updateTable('staff').set({ scim_managed: true }).where('uid', '=', uid));
  }
  const holders = await lockSuperAdmins(tx, ROLE_SUPER_ADMIN);
  if ((await repo.activeOf(tx, holders)).length === 0)
    throw new ScimError(400, 'This change would leave no SuperAdmin.', 'mutability');
}

function memberIdsOf(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  const list = Array.isArray(v) ? v : [v];
  if (list.length > MEMBERS_MAX) throw bad(`At most ${MEMBERS_MAX} members.`);
  return list.map((m) => {
    const id = (m as { value?: unknown })?.value;
    if (typeof id !== 'string' || !isId(id)) throw bad('A member is { "value": a User id }.');
    return id.toLowerCase();
  });
}

async function checkMembers(tx: WriteTx, uids: string[]): Promise<void> {
  const known = await repo.existingPeople(tx, uids);
  const unknown = uids.find((u) => !known.has(u));
  if (unknown) throw bad(`There is no User ${unknown}.`);
}

interface GroupState {
  displayName: string;
  externalId: string | null;
  members: string[];
}

function groupStateOf(body: unknown): GroupState {
  if (!body || typeof body !== 'object') throw bad('The body is a Group.', 'invalidSyntax');
  const b = body as Record<string, unknown>;
  return {
    displayName: str(b.displayName, 'displayName', 200),
    externalId: externalIdOf(b.externalId),
    members: [...new Set(memberIdsOf(b.members))],
  };
}

export async function getGroup(ctx: AppContext, c: ScimCaller, id: string) {
  const g = isId(id) ? await repo.findGroup(ctx.db, id) : undefined;
  if (!g) throw notFound('group');
  return groupOut(g, c.base);
}

export async function listGroups(
  ctx: AppContext,
  c: ScimCaller,
  q: { filter?: string; startIndex?: string; count?: string },
) {
  const f =
    q.filter === undefined
      ? undefined
      : (parseEqFilter(q.filter, ['displayName', 'externalId']) as repo.GroupFilter);
  const { start, count } = pageOf(q);
  const { total, page } = await repo.listGroups(ctx.db, f, start - 1, count);
  return listResponse(
    total,
    start,
    page.map((g) => groupOut(g, c.base)),
  );
}

async function writeGroup(tx: WriteTx, id: string, before: GroupState | undefined, s: GroupState, at: Date) {
  if (await repo.groupNameTaken(tx, s.displayName, id))
    throw new ScimError(409, 'That displayName is taken.', 'uniqueness');
  await checkMembers(tx, s.members);
  if (before)
    await execute(
      tx,
      qb
        .updateTable('scim_groups')
        .set((eb) => ({
          display_name: s.displayName,
          external_id: s.externalId,
          updated_at: at,
          version: eb('version', '+', 1),
        }))
        .where('id', '=', id),
    );
  else
    await execute(
      tx,
      qb.insertInto('scim_groups').values({
        id,
        display_name: s.displayName,
        external_id: s.externalId,
        created_at: at,
        updated_at: at,
      }),
    );
  await repo.setMembers(tx, id, s.members);
  // a renamed group maps to other roles: all its members, old and new, are read again
  await syncRoles(tx, [...(before?.members ?? []), ...s.members], at);
}

export async function createGroup(ctx: AppContext, c: ScimCaller, body: unknown) {
  const s = groupStateOf(body);
  const at = ctx.clock.now();
  const id = randomUUID();
  const made = await runWrite(ctx.db, {
    change: async (tx) => {
      await writeGroup(tx, id, undefined, s, at);
      return (await repo.findGroup(tx, id))!;
    },
    trail: (tx, g) =>
      writeActivity(tx, {
        ...trailOf(c, at),
        action: 'scim.group.create',
        targetType: 'scimGroup',
        targetId: id,
        details: { displayName: g.display_name, members: s.members.length, scimTokenId: c.token.id },
      }),
  });
  return groupOut(made, c.base);
}

async function changeGroup(
  ctx: AppContext,
  c: ScimCaller,
  id: string,
  action: 'scim.group.replace' | 'scim.group.patch',
  next: (before: GroupState) => GroupState,
) {
  if (!isId(id)) throw notFound('group');
  const at = ctx.clock.now();
  const after = await runWrite(ctx.db, {
    lock: async (tx): Promise<GroupState> => {
      const g = await repo.lockGroup(tx, id);
      if (!g) throw notFound('group');
      const full = (await repo.findGroup(tx, id))!;
      return {
        displayName: full.display_name,
        externalId: full.external_id,
        members: full.members.map((m) => m.value),
      };
    },
    change: async (tx, before) => {
      const s = next(before);
      await writeGroup(tx, id, before, s, at);
      return { s, g: (await repo.findGroup(tx, id))! };
    },
    trail: (tx, { s }, before) => {
      const added = s.members.filter((m) => !before.members.includes(m));
      const removed = before.members.filter((m) => !s.members.includes(m));
      return writeActivity(tx, {
        ...trailOf(c, at),
        action,
        targetType: 'scimGroup',
        targetId: id,
        details: {
          displayName: s.displayName,
          ...(s.displayName !== before.displayName ? { from: before.displayName } : {}),
          added,
          removed,
          scimTokenId: c.token.id,
        },
      });
    },
  });
  return groupOut(after.g, c.base);
}

export const replaceGroup = (ctx: AppContext, c: ScimCaller, id: string, body: unknown) => {
  const s = groupStateOf(body);
  return changeGroup(ctx, c, id, 'scim.group.replace', () => s);
};

function patchGroupState(s: GroupState, o: PatchOp): GroupState {
  if (o.path === undefined) {
    if (!o.value || typeof o.value !== 'object')
      throw bad('An operation without a path has an object value.');
    let next = s;
    for (const [k, v] of Object.entries(o.value as Record<string, unknown>))
      next = patchGroupState(next, { op: o.op, path: k, value: v });
    return next;
  }
  const path = o.path.trim().toLowerCase();
  if (path === 'displayname') {
    if (o.op === 'remove') throw bad('displayName cannot be removed.', 'mutability');
    return { ...s, displayName: str(o.value, 'displayName', 200) };
  }
  if (path === 'externalid') return { ...s, externalId: o.op === 'remove' ? null : externalIdOf(o.value) };
  if (!path.startsWith('members'))
    throw bad(`The path ${o.path.slice(0, 100)} is not supported.`, 'invalidPath');
  const one = memberPathValue(o.path);
  if (o.op === 'remove') {
    // members[value eq "…"], or members with the ones to remove as its value (Entra ID), or all
    const gone = new Set(
      one !== undefined ? [one.toLowerCase()] : o.value === undefined ? s.members : memberIdsOf(o.value),
    );
    return { ...s, members: s.members.filter((m) => !gone.has(m)) };
  }
  if (one !== undefined) throw bad('Add or replace members by the members path.', 'invalidPath');
  const ids = memberIdsOf(o.value);
  const members = o.op === 'replace' ? [...new Set(ids)] : [...new Set([...s.members, ...ids])];
  if (members.length > MEMBERS_MAX) throw bad(`At most ${MEMBERS_MAX} members.`);
  return { ...s, members };
}

export const patchGroup = (ctx: AppContext, c: ScimCaller, id: string, body: unknown) => {
  const ops = patchOpsOf(body);
  return changeGroup(ctx, c, id, 'scim.group.patch', (before) => ops.reduce(patchGroupState, before));
};

export async function deleteGroup(ctx: AppContext, c: ScimCaller, id: string): Promise<void> {
  if (!isId(id)) throw notFound('group');
  const at = ctx.clock.now();
  await runWrite(ctx.db, {
    lock: async (tx) => {
      const g = await repo.lockGroup(tx, id);
      if (!g) throw notFound('group');
      return { name: g.display_name, members: await repo.memberUids(tx, id) };
    },
    change: async (tx, g) => {
      await execute(tx, qb.deleteFrom('scim_groups').where('id', '=', id));
      await syncRoles(tx, g.members, at);
    },
    trail: (tx, _d, g) =>
      writeActivity(tx, {
        ...trailOf(c, at),
        action: 'scim.group.delete',
        targetType: 'scimGroup',
        targetId: id,
        details: { displayName: g.name, members: g.members, scimTokenId: c.token.id },
      }),
  });
}
