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
