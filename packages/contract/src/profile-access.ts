import { ROLE_ADMIN, ROLE_SUPER_ADMIN } from './permissions.ts';

export interface StaffIdentity {
  uid: string;
  roles: readonly string[];
}

/**
 * Spec section 6, profile access in the super-user list. Anyone may open their own profile.
 * When viewer and target share a role: a SuperAdmin may open the target unless it is a
 * SuperAdmin; an Admin unless the target is an Admin or a SuperAdmin; others may not.
 * With no shared role: a SuperAdmin may open any; an Admin any that is not a SuperAdmin.
 */
export function canOpenProfile(viewer: StaffIdentity, target: StaffIdentity): boolean {
  if (viewer.uid === target.uid) return true;
  const v = new Set(viewer.roles);
  const t = new Set(target.roles);
  const shared = [...v].some((r) => t.has(r));
  if (shared) {
    if (v.has(ROLE_SUPER_ADMIN)) return !t.has(ROLE_SUPER_ADMIN);
    if (v.has(ROLE_ADMIN)) return !t.has(ROLE_ADMIN) && !t.has(ROLE_SUPER_ADMIN);
    return false;
  }
  if (v.has(ROLE_SUPER_ADMIN)) return true;
  if (v.has(ROLE_ADMIN)) return !t.has(ROLE_SUPER_ADMIN);
  return false;
}
