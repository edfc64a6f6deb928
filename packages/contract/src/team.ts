import { z } from 'zod';
import { memberReview } from './access-review.ts';
import { fieldFieldRequired } from './messages.ts';
import { ROLE_ADMIN, ROLE_SUPER_ADMIN } from './permissions.ts';
import type { StaffIdentity } from './profile-access.ts';
import type { SiteScope } from './role-scopes.ts';
import { email } from './validation.ts';

/**
 * Who may manage whom (the spec leaves it open; docs/decisions.md gives the reasons). Nobody
 * manages themselves. A SuperAdmin manages every other staff member; an Admin manages staff who
 * hold neither Admin nor SuperAdmin; other roles manage nobody. The caller also needs the
 * `team.write` permission.
 */
/**
 * Whether an act on a staff member with `roles` (and, for a role change, to `wanted`) needs a
 * new SuperAdmin's cool-down passed: an act on another SuperAdmin's account, or giving or taking
 * the SuperAdmin role (the API refuses it with 948 while the actor's cool-down holds).
 */
export const touchesSuperAdmin = (roles: readonly string[], wanted: readonly string[] = []): boolean =>
  roles.includes(ROLE_SUPER_ADMIN) || wanted.includes(ROLE_SUPER_ADMIN);

export function canManageStaff(actor: StaffIdentity, target: StaffIdentity): boolean {
  if (actor.uid === target.uid) return false;
  if (actor.roles.includes(ROLE_SUPER_ADMIN)) return true;
  if (actor.roles.includes(ROLE_ADMIN)) {
    return !target.roles.includes(ROLE_ADMIN) && !target.roles.includes(ROLE_SUPER_ADMIN);
  }
  return false;
}

/** A role as assignableRoles reads it: its permissions and its scope (null or absent: every site). */
export interface RoleOfMatrix {
  permissions: readonly string[];
  scope?: SiteScope | null;
}

/** Whether one scope entry reaches at least every site `inner` does (null: every site). */
const covers = (outer: SiteScope, inner: SiteScope | null): boolean => {
  const axis = (o: readonly string[] | null, i: readonly string[] | null | undefined) =>
    o === null || i?.every((x) => o.includes(x)) === true;
  return axis(outer.dataCenters, inner?.dataCenters) && axis(outer.plans, inner?.plans);
};

/**
 * Whether the actor, holding `actorRoles`, holds every permission of `role` over at least the
 * sites the role reaches: a permission they hold only in a scope covers a role scoped within it,
 * never an unscoped one (so no one turns a scoped permission into an unscoped one by giving it).
 */
function holdsAllOf(
  actorRoles: readonly string[],
  role: RoleOfMatrix,
  matrix: Record<string, RoleOfMatrix>,
): boolean {
  return role.permissions.every((p) => {
    const granting = actorRoles.map((r) => matrix[r]).filter((r) => r?.permissions.includes(p));
    return granting.some((g) => !g!.scope || covers(g!.scope, role.scope ?? null));
  });
}

/**
 * The roles an actor may give. The create form never offers SuperAdmin (spec section 5); a
 * SuperAdmin may grant it later through a role change. An Admin gives neither Admin nor SuperAdmin.
 * Given each role's permissions and scope (`matrix`), a non-SuperAdmin gives or takes only roles
 * whose every permission they hold themselves, over at least the sites the role reaches, so no one
 * hands out more than they have (a custom role included).
 */
export function assignableRoles(
  actorRoles: readonly string[],
  allRoles: readonly string[],
  purpose: 'create' | 'update',
  matrix?: Record<string, RoleOfMatrix>,
): string[] {
  if (actorRoles.includes(ROLE_SUPER_ADMIN)) {
    return allRoles.filter((r) => purpose === 'update' || r !== ROLE_SUPER_ADMIN);
  }
  if (!actorRoles.includes(ROLE_ADMIN)) return [];
  return allRoles.filter(
    (r) =>
      r !== ROLE_SUPER_ADMIN &&
      r !== ROLE_ADMIN &&
      (!matrix || holdsAllOf(actorRoles, matrix[r] ?? { permissions: [] }, matrix)),
  );
}

/** The matrix `assignableRoles` reads, from the roles as GET /admin/team/roles answers them. */
export const roleMatrix = (
  roles: readonly {
    Name: string;
    Permissions: readonly string[];
    Scope?: { DataCenters: readonly string[] | null; Plans: readonly string[] | null } | null;
  }[],
) =>
  Object.fromEntries(
    roles.map((r) => [
      r.Name,
      {
        permissions: r.Permissions,
        scope: r.Scope ? { dataCenters: r.Scope.DataCenters, plans: r.Scope.Plans } : null,
      },
    ]),
  );

/** The roles to unassign on a role change: every role not chosen (spec section 4). */
export const rolesToUnassign = (allRoles: readonly string[], chosen: readonly string[]): string[] =>
  allRoles.filter((r) => !chosen.includes(r));

const roleList = z
  .array(z.string().trim().min(1), { error: fieldFieldRequired('Roles') })
  .min(1, fieldFieldRequired('Roles'));

/** POST /admin/team: Name optional, Email required and valid, Roles required. */
export const createSuperUserBody = z.object({
  role: roleList,
  email,
  name: z.string().trim().max(200, 'Name must be at most 200 characters.').optional().default(''),
});

/** PUT /admin/team/roles */
export const updateRolesBody = z
  .object({
    role: roleList,
    uid: z.string().uuid('uid is not a valid user id.'),
    unAssignRoles: z.array(z.string().trim().min(1)).default([]),
  })
  .refine((v) => !v.role.some((r) => v.unAssignRoles.includes(r)), {
    message: 'A role cannot be both assigned and unassigned.',
    path: ['unAssignRoles'],
  });

/** DELETE /admin/team: `role` names the roles the caller saw on the row (kept for the spec's payload). */
export const deleteSuperUserBody = z.object({
  role: z.array(z.string()).optional(),
  uid: z.string().uuid('uid is not a valid user id.'),
});

export const profileQuery = z.object({ uid: z.string().uuid('uid is not a valid user id.') });

/** POST /admin/team/invitation/resend: the pending invitee whose invitation is sent again. */
export const resendInvitationBody = z.object({ uid: z.string().uuid('uid is not a valid user id.') });

/** A super user as the server names it (spec section 3). */
const superUser = z.object({
  Uid: z.string(),
  FullName: z.string(),
  Email: z.array(z.object({ Type: z.string(), Value: z.string() })),
  Roles: z.array(z.string()),
  CreatedDate: z.string(),
  LastLoginDate: z.string().nullable(),
  /** When they got the SuperAdmin role (a role that approves impersonation); null when not recorded or not held. */
  ApproverSince: z.string().nullable().optional(),
  /** While a new SuperAdmin may not yet approve impersonation (the cool-down): when they may. */
  CanApproveImpersonationFrom: z.string().nullable().optional(),
  /** The version of their roles: a role change sends it back as If-Match ("7"). */
  Version: z.number().int(),
  /** A service account: never signs in, only owns API tokens. */
  Service: z.boolean().optional(),
  /** Deactivated by SCIM provisioning: cannot sign in; when. */
  DeactivatedAt: z.string().optional(),
  /** The periodic access review of their roles (access-review.ts). */
  Review: memberReview.optional(),
  /** Invited and not yet signed in (their invitation pending): the team list marks it. */
  Invited: z.boolean().optional(),
});
export type SuperUser = z.infer<typeof superUser>;

const superUserProfile = superUser.extend({
  Permissions: z.array(z.string()),
  PasswordChangedDate: z.string().nullable(),
  Invited: z.boolean(),
});

export const teamListResponse = z.object({ Data: z.array(superUser) });
export const superUserResponse = z.object({ Data: superUser });
export const superUserProfileResponse = z.object({ Data: superUserProfile });
export const deleteSuperUserResponse = z.object({ IsDeleted: z.boolean(), Uid: z.string() });
/** The invitee whose invitation went again (a new link; the one before no longer works). */
export const resendInvitationResponse = z.object({ Uid: z.string(), Email: z.string(), Message: z.string() });

/** A role's scope as the server answers it: null when it reaches every site (custom-roles.ts). */
const roleScope = z
  .object({ DataCenters: z.array(z.string()).nullable(), Plans: z.array(z.string()).nullable() })
  .nullable();
export type RoleScope = z.infer<typeof roleScope>;

/** A staff role as GET /admin/team/roles lists it. */
export const staffRole = z.object({
  Name: z.string(),
  Description: z.string(),
  Permissions: z.array(z.string()),
  BuiltIn: z.boolean(),
  /** A custom role's data centers and plans (an axis null: any); null: every site. */
  Scope: roleScope,
  /** How many staff members hold it. */
  HolderCount: z.number().int(),
  /** The version of its definition: an edit or deletion sends it back as If-Match ("3"). */
  Version: z.number().int(),
});
export type StaffRole = z.infer<typeof staffRole>;
export const teamRolesResponse = z.object({
  Data: z.array(staffRole),
  /** The data centers a scope may name, with their names (codes in Scope.DataCenters). */
  DataCenters: z.array(z.object({ Code: z.string(), Name: z.string() })),
});

export const TEAM_MESSAGES = {
  invitationSubject: 'You are invited to the Super Admin Console',
  roleUpdated: 'Roles updated.',
  customRoleCreated: 'Role created.',
  customRoleUpdated: 'Role updated.',
  customRoleDeleted: 'Role deleted.',
  deleted: 'Super user deleted.',
  invitationResent: (email: string) =>
    `The invitation was sent again to ${email}. The link sent before no longer works.`,
  /**
   * Error 948 on an act upon another SuperAdmin's account or on the SuperAdmin role within the
   * approver cool-down: `since` and `from` as MM-DD-YYYY HH:mm UTC (formatExpiry).
   */
  superAdminCoolingDown: (since: string, from: string) =>
    `You became a SuperAdmin on ${since}. A new SuperAdmin may act on another SuperAdmin's account or give or take the SuperAdmin role only after a cool-down: you can from ${from}.`,
} as const;

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 24 * 3_600_000;
