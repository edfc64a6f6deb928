import type { ActivityAction } from '@sac/contract/audit';
import { CUSTOM_ROLE_MESSAGES, type CustomRoleInput } from '@sac/contract/custom-roles';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { AppContext } from '../../app-context.ts';
import { isUniqueViolation } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { runWrite, type WriteTx } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { lockStaffRows, roleUse, superAdminOnly } from '../auth/staff.service.ts';
import {
  deleteRole,
  insertRole,
  type LockedRole,
  lockRole,
  type RoleDefinition,
  restartRoleGrants,
  roleNamedLike,
  unknownDataCenters,
  updateRole,
} from './custom-roles.repo.ts';

/**
 * Custom roles (issue 33): a SuperAdmin defines, edits and deletes them; built-in roles stay as
 * the contract has them. The name is fixed once made (staff_roles and staff_group_roles name the
 * role), so an edit changes the description, the permissions and the scope.
 */

/** A role as GET /admin/team/roles lists it. */
export function roleOut(r: RoleDefinition & { builtIn: boolean; holders: number; version: number }) {
  return {
    Name: r.name,
    Description: r.description,
    Permissions: r.permissions,
    BuiltIn: r.builtIn,
    Scope: r.dataCenters || r.plans ? { DataCenters: r.dataCenters, Plans: r.plans } : null,
    HolderCount: r.holders,
    Version: r.version,
  };
}

const definitionOf = (input: CustomRoleInput): RoleDefinition => ({
  name: input.Name,
  description: input.Description,
  permissions: [...input.Permissions],
  dataCenters: input.Scope?.DataCenters ?? null,
  plans: input.Scope?.Plans ?? null,
});

const storedDefinition = (r: LockedRole): RoleDefinition => ({
  name: r.name,
  description: r.description,
  permissions: r.permissions,
  dataCenters: r.scope_data_centers,
  plans: r.scope_plans,
});

/**
 * The first step of every custom-role write, in its transaction: the actor's staff row locked
 * FOR UPDATE and still a SuperAdmin (a demotion committing meanwhile locks the same row, so it
 * waits or is seen), else 902 naming the role as missing.
 */
async function lockSuperAdmin(tx: WriteTx, call: StaffCall): Promise<void> {
  const [me] = await lockStaffRows(tx, [call.session.uid]);
  if (!me) throw new AppError('unauthenticated');
  if (!me.roles.includes(ROLE_SUPER_ADMIN)) throw superAdminOnly();
}

/** Refuses (400, by field) data centers that do not exist. */
async function checkDataCenters(tx: WriteTx, d: RoleDefinition): Promise<void> {
  const unknown = await unknownDataCenters(tx, d.dataCenters ?? []);
  if (unknown.length === 0) return;
  const message = CUSTOM_ROLE_MESSAGES.dataCenterUnknown(unknown);
  throw new AppError('validation', message, [{ Field: 'Scope.DataCenters', Message: message }]);
}

const nameTaken = () =>
  new AppError('roleNameTaken', undefined, [{ Field: 'Name', Message: CUSTOM_ROLE_MESSAGES.nameTaken }]);

/** The custom role named, locked; 404 when there is none, 1121 for a built-in role. */
async function lockCustomRole(tx: WriteTx, name: string): Promise<LockedRole> {
  const role = await lockRole(tx, name);
  if (!role) throw new AppError('notFound', CUSTOM_ROLE_MESSAGES.noSuchRole);
  if (role.built_in) throw new AppError('builtInRoleFixed');
  return role;
}

const trail = (
  ctx: AppContext,
  call: StaffCall,
  tx: WriteTx,
  action: ActivityAction,
  name: string,
  details: Record<string, unknown>,
) =>
  writeActivity(tx, {
    at: ctx.clock.now(),
    action,
    actorUid: call.session.uid,
    actorEmail: call.session.email,
    targetType: 'role',
    targetId: name,
    clientAddress: call.clientAddress,
    details,
  });

/** What the trail keeps of a definition. */
const detailOf = (d: RoleDefinition) => ({
  description: d.description,
  permissions: d.permissions,
  dataCenters: d.dataCenters,
  plans: d.plans,
});

export async function create(ctx: AppContext, call: StaffCall, input: CustomRoleInput) {
  const d = definitionOf(input);
  try {
    await runWrite(ctx.db, {
      lock: async (tx) => {
        await lockSuperAdmin(tx, call);
        if (await roleNamedLike(tx, d.name)) throw nameTaken();
        await checkDataCenters(tx, d);
      },
      change: (tx) => insertRole(tx, d, ctx.clock.now()),
      trail: (tx) => trail(ctx, call, tx, 'role.create', d.name, { after: detailOf(d) }),
    });
  } catch (e) {
    // Two creations racing on one name (whatever its case): the unique index decides.
    if (isUniqueViolation(e)) throw nameTaken();
    throw e;
  }
  return { Data: roleOut({ ...d, builtIn: false, holders: 0, version: 1 }) };
}

/**
 * The Version of the role the form was read at is the call's If-Match (930 when it moved on). Its
 * holders' sessions and tokens read the new permissions and scope at their next call.
 */
export async function update(ctx: AppContext, call: StaffCall, input: CustomRoleInput) {
  const d = definitionOf(input);
  const { version, holders } = await runWrite(ctx.db, {
    lock: async (tx) => {
      await lockSuperAdmin(tx, call);
      const before = await lockCustomRole(tx, d.name);
      if (call.expectedVersion !== undefined && before.version !== call.expectedVersion)
        throw new AppError('conflict');
      await checkDataCenters(tx, d);
      return before;
    },
    change: async (tx, before) => {
      // holders who come to approve impersonation by this edit wait out the approver cool-down
      const approves = (r: { permissions: readonly string[] }) =>
        r.permissions.includes('impersonation.approve');
      if (approves(d) && !approves(before)) await restartRoleGrants(tx, d.name, ctx.clock.now());
      return {
        version: await updateRole(tx, d, ctx.clock.now()),
        holders: (await roleUse(tx, d.name)).holders,
      };
    },
    trail: (tx, done, before) =>
      trail(ctx, call, tx, 'role.update', d.name, {
        before: detailOf(storedDefinition(before)),
        after: detailOf(d),
        holders: done.holders,
      }),
  });
  return { Data: roleOut({ ...d, builtIn: false, holders, version }) };
}

/** Refused (1122) while staff hold the role or single sign-on maps a group to it, naming how many. */
export async function remove(ctx: AppContext, call: StaffCall, input: { Name: string }) {
  const name = input.Name;
  await runWrite(ctx.db, {
    lock: async (tx) => {
      await lockSuperAdmin(tx, call);
      const before = await lockCustomRole(tx, name);
      // The role's row is locked: a grant of it committing meanwhile (its row's foreign key
      // share-locks this row) waits for this deletion and then fails.
      const use = await roleUse(tx, name);
      if (use.holders > 0) throw new AppError('roleInUse', CUSTOM_ROLE_MESSAGES.roleHeld(use.holders));
      if (use.groups > 0) throw new AppError('roleInUse', CUSTOM_ROLE_MESSAGES.roleMapped(use.groups));
      return before;
    },
    change: (tx) => deleteRole(tx, name),
    trail: (tx, _done, before) =>
      trail(ctx, call, tx, 'role.delete', name, { before: detailOf(storedDefinition(before)) }),
  });
  return { IsDeleted: true, Name: name };
}
