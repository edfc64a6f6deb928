import type { StaffIdentity } from '@sac/contract/profile-access';
import type { SuperUser } from '@sac/contract/team';

/** The primary email of a super user (the server's Email[0].Value). */
export const primaryEmail = (u: Pick<SuperUser, 'Email'>): string =>
  u.Email.find((e) => e.Type === 'Primary')?.Value ?? u.Email[0]?.Value ?? '';

/** A super user as the contract's access rules see them. */
export const staffIdentity = (u: Pick<SuperUser, 'Uid' | 'Roles'>): StaffIdentity => ({
  uid: u.Uid,
  roles: u.Roles,
});
