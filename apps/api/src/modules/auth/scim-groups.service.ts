import { randomUUID } from 'node:crypto';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { AppContext } from '../../app-context.ts';
import { execute, qb } from '../../db/sql.ts';
import { runWrite, type WriteTx } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
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
import { memberPathValue, parseEqFilter, ScimError } from './scim-filter.ts';
import { MEMBERS_MAX, URN } from './scim-schema.ts';
import { breakGlassUid } from './sso.repo.ts';
import { lockSuperAdmins, setStaffRoles } from './staff.repo.ts';

/** SCIM Groups (RFC 7643 §4.2): their displayName maps to roles through staff_group_roles. */

function groupOut(g: repo.GroupRow, base: string) {
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

/* Groups */

/** A member whose roles a group change changed: their `team.roles` trail row says so. */
export interface RoleChange {
  uid: string;
  email: string;
  from: string[];
  to: string[];
}

const sameRoles = (a: string[], b: string[]) => a.length === b.length && a.every((r, i) => r === b[i]);

/**
 * The members' roles follow their SCIM groups: each group's displayName is a group value of
 * staff_group_roles (the Single sign-on screen's table), and a member's roles become those their
 * groups map to. Only the members named are read again (the ones a change touched); answers those
 * whose roles changed, for their trail rows. Refused when it would change the break-glass
 * account's roles or leave no SuperAdmin that can sign in.
 */
export async function syncRoles(tx: WriteTx, uids: Iterable<string>, at: Date): Promise<RoleChange[]> {
  const list = [...new Set(uids)].sort();
  if (list.length === 0) return [];
  await lockSuperAdmins(tx, ROLE_SUPER_ADMIN);
  const glass = await breakGlassUid(tx);
  const changes: RoleChange[] = [];
  for (const uid of list) {
    const now = await repo.emailAndRoles(tx, uid);
    if (!now) continue;
    const to = await repo.rolesFromGroups(tx, uid);
    const from = [...now.roles].sort();
    if (sameRoles(from, to)) continue;
    if (uid === glass)
      throw new ScimError(
        400,
        'This would change the roles of the break-glass account of single sign-on, which SCIM does not change.',
        'mutability',
      );
    await setStaffRoles(tx, uid, to, at);
    changes.push({ uid, email: now.email, from, to });
  }
  if (changes.length === 0) return changes;
  const holders = await lockSuperAdmins(tx, ROLE_SUPER_ADMIN);
  if ((await repo.activeOf(tx, holders)).length === 0)
    throw new ScimError(400, 'This change would leave no SuperAdmin.', 'mutability');
  return changes;
}

/** One `team.roles` row per member whose roles changed, as the team screen's role change writes. */
export async function writeRoleChanges(
  tx: WriteTx,
  who: { at: Date; actorUid: string | null; actorEmail: string; clientAddress: string },
  changes: RoleChange[],
  details: Record<string, unknown>,
): Promise<void> {
  for (const c of changes)
    await writeActivity(tx, {
      ...who,
      action: 'team.roles',
      targetType: 'staff',
      targetId: c.uid,
      details: { ...details, from: c.from, to: c.to },
    });
}

/** The members to read again after a group's change: all of them when renamed, else those added or removed. */
function touched(before: GroupState | undefined, s: GroupState): string[] {
  // the table matches a displayName exactly (case too): any rename may map to other roles
  if (!before || before.displayName !== s.displayName) return [...(before?.members ?? []), ...s.members];
  const was = new Set(before.members);
  const is = new Set(s.members);
  return [...s.members.filter((m) => !was.has(m)), ...before.members.filter((m) => !is.has(m))];
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
  return syncRoles(tx, touched(before, s), at);
}

export async function createGroup(ctx: AppContext, c: ScimCaller, body: unknown) {
  const s = groupStateOf(body);
  const at = ctx.clock.now();
  const id = randomUUID();
  const made = await runWrite(ctx.db, {
    change: async (tx) => {
      const changes = await writeGroup(tx, id, undefined, s, at);
      return { g: (await repo.findGroup(tx, id))!, changes };
    },
    trail: async (tx, { g, changes }) => {
      await writeActivity(tx, {
        ...trailOf(c, at),
        action: 'scim.group.create',
        targetType: 'scimGroup',
        targetId: id,
        details: { displayName: g.display_name, members: s.members.length, scimTokenId: c.token.id },
      });
      await writeRoleChanges(tx, trailOf(c, at), changes, { via: 'scim', group: g.display_name });
    },
  });
  return groupOut(made.g, c.base);
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
      const changes = await writeGroup(tx, id, before, s, at);
      return { s, changes, g: (await repo.findGroup(tx, id))! };
    },
    trail: async (tx, { s, changes }, before) => {
      const added = s.members.filter((m) => !before.members.includes(m));
      const removed = before.members.filter((m) => !s.members.includes(m));
      await writeRoleChanges(tx, trailOf(c, at), changes, { via: 'scim', group: s.displayName });
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
      return syncRoles(tx, g.members, at);
    },
    trail: async (tx, changes, g) => {
      await writeActivity(tx, {
        ...trailOf(c, at),
        action: 'scim.group.delete',
        targetType: 'scimGroup',
        targetId: id,
        details: { displayName: g.name, members: g.members, scimTokenId: c.token.id },
      });
      await writeRoleChanges(tx, trailOf(c, at), changes, { via: 'scim', group: g.name });
    },
  });
}
