import { MESSAGES } from '@sac/contract/messages';
import { TEAM_MESSAGES } from '@sac/contract/team';

/** Texts of the super-user screens: list, create, roles, permissions and profiles. */
export const team = {
  serviceAccount: 'Service account',
  section: 'Manage Superuser',
  manageSuperuser: 'Manage Superuser',
  createSuperuser: 'Create Superuser',
  permissionList: 'Permission list',
  roleDetails: 'Role details',
  profile: 'Super User Profile',

  // List
  listIntro: 'Provider staff who can sign in to the console.',
  tableLabel: 'Super users',
  emailAddress: 'Email Address',
  name: 'Name',
  role: 'Role',
  createdDate: 'Created Date',
  lastLoginDate: 'Last Login Date',
  actions: 'Actions',
  never: 'Never',
  changeRoles: 'Change roles',
  delete: 'Delete',

  // Change roles dialog
  changeRolesTitle: 'Change roles',
  changeRolesIntro: 'Choose the roles of {email}.',
  roles: 'Roles',
  continue: 'Continue',
  cancel: 'Cancel',
  back: 'Back',
  confirm: 'Confirm',
  saving: 'Saving…',
  confirmRoles: 'Give {email} these roles?',
  confirmRolesDetail: 'Their current sessions end, and they sign in again with the new roles.',
  rolesLoadFailed: 'The roles could not be loaded. Please try again.',
  noAssignableRoles: 'There are no roles you may assign.',
  rolesUpdated: TEAM_MESSAGES.roleUpdated as string,

  // Delete dialog
  deleteTitle: 'Delete super user',
  confirmDelete: 'Delete the super user {email}? Their sessions end and this cannot be undone.',
  deleting: 'Deleting…',
  deleted: TEAM_MESSAGES.deleted as string,

  // Create form
  createIntro: 'The new super user receives an email with a link to set their password.',
  nameOptional: `Name ${MESSAGES.optionalSuffix}`,
  email: 'Email',
  save: 'Save',
  reset: 'Reset',
  superUserCreated: MESSAGES.superUserCreated as string,
  superUserCreateFailed: MESSAGES.superUserCreateFailed as string,
  superUserExists: MESSAGES.superUserExists as string,
  superAdminDataMissingOnCreate: MESSAGES.superAdminDataMissingOnCreate as string,
  superAdminDataLoadFailed: MESSAGES.superAdminDataLoadFailed as string,
  superAdminListFailed: MESSAGES.superAdminListFailed as string,
  customerRolesFailed: MESSAGES.customerRolesFailed as string,
  helpLinks: 'About roles and permissions',

  // Permission list and role details
  permissionsIntro: 'Every permission of the console and the roles that hold it.',
  permissionsTableLabel: 'Permissions by role',
  permission: 'Permission',
  description: 'Description',
  granted: '✓',
  grantedText: 'Granted',
  notGrantedText: 'Not granted',
  rolesIntro: 'Each staff role, what it is for and the permissions it grants.',
  builtIn: 'Built-in',
  custom: 'Custom',
  permissionsOfRole: 'Permissions of {role}',
  noPermissions: 'This role grants no permissions.',

  // Profile
  profileIntro: 'A staff account of the console.',
  passwordChangedDate: 'Password Last Changed',
  invitation: 'Invitation',
  invitedPending: 'Invited — the password has not been set yet',
  invitationAccepted: 'Password set',
  profileNoPermissions: 'No permissions.',
  permissions: 'Permissions',
  backToList: 'Back to Manage Superuser',
  sessionsOf: 'Sessions of {email}',
  endAllSessions: 'End all their sessions',
  factorsHeading: 'Second factors',
  factorsIntro:
    'If {email} lost their passkey or phone, remove their passkeys, authenticator app and recovery codes. Their sessions end, they get an email, and they set up a new factor at their next sign-in.',
  resetFactors: 'Reset second factors',
  resetFactorsTitle: 'Reset the second factors of {email}?',
  resetFactorsBody:
    'Their passkeys, authenticator app and recovery codes are removed and every session of theirs ends. This is recorded in the activity log.',
  resetting: 'Resetting…',
  superAdminSince: 'SuperAdmin since',
  superAdminSinceUnrecorded: 'From the start',
  canApproveFrom: 'Can approve impersonation from {time} UTC',
  coolDownActs:
    "You became a SuperAdmin recently: you can act on another SuperAdmin's account, or give or take the SuperAdmin role, from {time} UTC.",
};
