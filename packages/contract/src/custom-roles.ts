import { z } from 'zod';
import { PLANS } from './customers.ts';
import { ERRORS } from './errors.ts';
import { BUILT_IN_ROLES, PERMISSIONS } from './permissions.ts';
import { isScopable } from './role-scopes.ts';
import { staffRole } from './team.ts';

/**
 * Custom roles: a SuperAdmin defines them from the permission list, optionally with a scope (data
 * centers and/or plans). Built-in roles stay as the contract defines them. A custom role's name is
 * fixed once made (docs/decisions.md, "Custom roles"): rename by making a new role.
 */
export const ROLE_NAME_MAX = 60;
export const ROLE_DESCRIPTION_MAX = 300;

export const CUSTOM_ROLE_MESSAGES = {
  nameRequired: 'Name is required.',
  nameTooLong: `Name must be at most ${ROLE_NAME_MAX} characters.`,
  nameBuiltIn: 'That name belongs to a built-in role. Please choose another.',
  nameTaken: ERRORS.roleNameTaken.text,
  descriptionTooLong: `Description must be at most ${ROLE_DESCRIPTION_MAX} characters.`,
  permissionsRequired: 'Choose at least one permission.',
  permissionUnknown: 'There is no such permission.',
  superAdminOnly:
    'Only the built-in SuperAdmin role may hold sso.manage and webhooks.manage: whoever sets up single sign-on decides who signs in, and with which roles; a webhook sends the whole trail out.',
  notScopable: (permissions: readonly string[]) =>
    `A role with a scope may hold only permissions over customers and sites. Remove: ${permissions.join(', ')}.`,
  dataCentersEmpty: 'Choose at least one data center, or leave the data centers open (any).',
  plansEmpty: 'Choose at least one plan, or leave the plans open (any).',
  planUnknown: 'There is no such plan.',
  dataCenterUnknown: (codes: readonly string[]) => `There is no such data center: ${codes.join(', ')}.`,
  noSuchRole: 'There is no custom role with that name.',
  builtInFixed: ERRORS.builtInRoleFixed.text,
  roleHeld: (count: number) =>
    `This role is held by ${count} staff ${count === 1 ? 'member' : 'members'}. Take it from them first.`,
  roleMapped: (count: number) =>
    `Single sign-on maps ${count} ${count === 1 ? 'group' : 'groups'} to this role. Remove ${count === 1 ? 'it' : 'them'} from the group-to-role table first.`,
} as const;

const BUILT_IN_NAMES = new Set(Object.keys(BUILT_IN_ROLES).map((n) => n.toLowerCase()));
/** Whether a name is a built-in role's, whatever its case. */
const isBuiltInName = (name: string): boolean => BUILT_IN_NAMES.has(name.trim().toLowerCase());

const roleName = z
  .string({ error: CUSTOM_ROLE_MESSAGES.nameRequired })
  .trim()
  .min(1, CUSTOM_ROLE_MESSAGES.nameRequired)
  .max(ROLE_NAME_MAX, CUSTOM_ROLE_MESSAGES.nameTooLong);

/** An axis of a scope: null (any) or a non-empty list, without repeats. */
const dataCenterAxis = z
  .array(z.string().trim().min(1).max(100))
  .min(1, CUSTOM_ROLE_MESSAGES.dataCentersEmpty)
  .max(100)
  .transform((v) => [...new Set(v)])
  .nullable();
const planAxis = z
  .array(z.enum(PLANS, { error: CUSTOM_ROLE_MESSAGES.planUnknown }))
  .min(1, CUSTOM_ROLE_MESSAGES.plansEmpty)
  .transform((v) => PLANS.filter((p) => v.includes(p)))
  .nullable();

/** A scope as a client sends it; both axes null is no scope. */
const scopeInput = z
  .object({ DataCenters: dataCenterAxis.default(null), Plans: planAxis.default(null) })
  .nullable()
  .default(null)
  .transform((s) => (s && (s.DataCenters || s.Plans) ? s : null));

const definition = z.object({
  Name: roleName,
  Description: z
    .string()
    .trim()
    .max(ROLE_DESCRIPTION_MAX, CUSTOM_ROLE_MESSAGES.descriptionTooLong)
    .default(''),
  Permissions: z
    .array(z.enum(PERMISSIONS, { error: CUSTOM_ROLE_MESSAGES.permissionUnknown }), {
      error: CUSTOM_ROLE_MESSAGES.permissionsRequired,
    })
    .min(1, CUSTOM_ROLE_MESSAGES.permissionsRequired)
    // In the matrix's order, once each.
    .transform((v) => PERMISSIONS.filter((p) => v.includes(p))),
  Scope: scopeInput,
});

/**
 * Permissions no custom role holds: setting up single sign-on maps the provider's groups to any
 * role, SuperAdmin included, so its holder could make themselves SuperAdmin; a webhook
 * subscription reads every site's trail rows (staff, addresses, impersonations) in its delivery
 * log and sends them to an address of its maker's choosing, which no scope can narrow.
 */
export const SUPER_ADMIN_ONLY_PERMISSIONS: readonly string[] = ['sso.manage', 'webhooks.manage'];

const scopedHoldsOnlyScopable = (v: z.output<typeof definition>, ctx: z.RefinementCtx) => {
  if (v.Permissions.some((p) => SUPER_ADMIN_ONLY_PERMISSIONS.includes(p)))
    ctx.addIssue({ code: 'custom', path: ['Permissions'], message: CUSTOM_ROLE_MESSAGES.superAdminOnly });
  const unscopable = v.Scope ? v.Permissions.filter((p) => !isScopable(p)) : [];
  if (unscopable.length)
    ctx.addIssue({
      code: 'custom',
      path: ['Permissions'],
      message: CUSTOM_ROLE_MESSAGES.notScopable(unscopable),
    });
};

/** PUT /admin/team/custom-roles: the role's whole definition, the role named by Name (fixed). */
export const customRoleBody = definition.superRefine(scopedHoldsOnlyScopable);

/** POST /admin/team/custom-roles: the same, with a name no built-in role has. */
export const newCustomRoleBody = definition.superRefine((v, ctx) => {
  if (isBuiltInName(v.Name))
    ctx.addIssue({ code: 'custom', path: ['Name'], message: CUSTOM_ROLE_MESSAGES.nameBuiltIn });
  scopedHoldsOnlyScopable(v, ctx);
});
export type CustomRoleInput = z.output<typeof customRoleBody>;

/** DELETE /admin/team/custom-roles */
export const deleteCustomRoleBody = z.object({ Name: roleName });

export const customRoleResponse = z.object({ Data: staffRole });
export const deleteCustomRoleResponse = z.object({ IsDeleted: z.boolean(), Name: z.string() });
