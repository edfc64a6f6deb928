import type { EndpointRoute, StatementBudget } from './endpoint-routes.ts';

/** Method, path and access of the endpoints of sign-in, the session, passwords and the team (staff members and roles), in the table's order. */
export const SIGN_IN_ROUTES = {
  login: {
    id: 'login',
    method: 'POST',
    path: '/admin/login',
    access: 'public',
    // the single sign-on settings (is password sign-in off?), the sign-in's own 3, and the staff
    // address allowlist's read when something that ends sessions was written since it was last
    // read (kept per auth generation: api-tokens.repo.ts currentAllowlist).
    budget: { statements: 5, commits: 2 },
  },
  loginSecondStep: {
    id: 'loginSecondStep',
    method: 'POST',
    path: '/admin/login/second-step',
    access: 'public',
    budget: { statements: 3, commits: 2 },
  },
  loginPasskeyOptions: {
    id: 'loginPasskeyOptions',
    method: 'POST',
    path: '/admin/login/passkey-options',
    access: 'public',
    budget: { statements: 1, commits: 0 },
  },
  loginEnrolTotp: {
    id: 'loginEnrolTotp',
    method: 'POST',
    path: '/admin/login/enrol/totp',
    access: 'public',
    budget: { statements: 1, commits: 0 },
  },
  loginEnrolTotpConfirm: {
    id: 'loginEnrolTotpConfirm',
    method: 'PUT',
    path: '/admin/login/enrol/totp',
    access: 'public',
    budget: { statements: 1, commits: 0 },
  },
  loginEnrolPasskeyOptions: {
    id: 'loginEnrolPasskeyOptions',
    method: 'POST',
    path: '/admin/login/enrol/passkey-options',
    access: 'public',
    budget: { statements: 1, commits: 0 },
  },
  loginEnrolPasskey: {
    id: 'loginEnrolPasskey',
    method: 'POST',
    path: '/admin/login/enrol/passkey',
    access: 'public',
    budget: { statements: 1, commits: 0 },
  },
  ssoSignInOptions: {
    id: 'ssoSignInOptions',
    method: 'GET',
    path: '/admin/login/sso',
    access: 'public',
    budget: { statements: 1, commits: 0 },
  },
  ssoStart: {
    id: 'ssoStart',
    method: 'POST',
    path: '/admin/login/sso/start',
    access: 'public',
    // the address's count (SSO_CALLS_PER_MINUTE), then off in the matrix (404); on, its one
    // write (the state) follows its read of the settings
    budget: { statements: 2, commits: 1 },
  },
  ssoFinish: {
    id: 'ssoFinish',
    method: 'POST',
    path: '/admin/login/sso/finish',
    access: 'public',
    // the address's count, then off in the matrix (404): the budget of the refusal; a sign-in
    // runs a password sign-in's statements and more
    budget: { statements: 2, commits: 1 },
  },
  ssoSettings: {
    id: 'ssoSettings',
    method: 'GET',
    path: '/admin/sso-settings',
    access: 'sso.manage',
    budget: { statements: 4, commits: 0 },
  },
  ssoSettingsUpdate: {
    id: 'ssoSettingsUpdate',
    method: 'PUT',
    path: '/admin/sso-settings',
    access: 'sso.manage',
    stepUp: true,
    budget: { statements: 12, commits: 1 },
  },
  ssoTest: {
    id: 'ssoTest',
    method: 'POST',
    path: '/admin/sso-settings/test',
    access: 'sso.manage',
    budget: { statements: 1, commits: 0 },
  },
  logout: {
    id: 'logout',
    method: 'POST',
    path: '/admin/logout',
    access: 'session',
    budget: { statements: 3, commits: 1 },
  },
  session: {
    id: 'session',
    method: 'GET',
    path: '/admin/session',
    access: 'session',
    budget: { statements: 2, commits: 0 },
  },
  forgotPassword: {
    id: 'forgotPassword',
    method: 'POST',
    path: '/admin/forgotpassword',
    access: 'public',
    budget: { statements: 3, commits: 2 },
  },
  resetPassword: {
    id: 'resetPassword',
    method: 'PUT',
    path: '/admin/resetpassword',
    access: 'public',
    budget: { statements: 6, commits: 2 },
  },
  changePassword: {
    id: 'changePassword',
    method: 'PUT',
    path: '/admin/changepassword',
    access: 'session',
    budget: { statements: 7, commits: 3 },
  },
  teamList: {
    id: 'teamList',
    method: 'GET',
    path: '/admin/team',
    access: 'team.read',
    budget: { statements: 3, commits: 0 },
  },
  teamCreate: {
    id: 'teamCreate',
    method: 'POST',
    path: '/admin/team',
    access: 'team.write',
    stepUp: true,
    budget: { statements: 11, commits: 1 },
  },
  teamUpdateRoles: {
    id: 'teamUpdateRoles',
    method: 'PUT',
    path: '/admin/team/roles',
    access: 'team.write',
    stepUp: true,
    // 14: a SuperAdmin's change also records the access review's confirmation
    budget: { statements: 14, commits: 1 },
  },
  teamDelete: {
    id: 'teamDelete',
    method: 'DELETE',
    path: '/admin/team',
    access: 'team.write',
    stepUp: true,
    // 8: with the check that the account is not the break-glass one while password sign-in is off
    budget: { statements: 8, commits: 1 },
  },
  teamRoles: {
    id: 'teamRoles',
    method: 'GET',
    path: '/admin/team/roles',
    access: 'session',
    // the session, the roles with their holder counts, the data centers' names
    budget: { statements: 3, commits: 0 },
  },
  // SuperAdmins only: the service checks the role (team.write alone is not enough).
  customRoleCreate: {
    id: 'customRoleCreate',
    method: 'POST',
    path: '/admin/team/custom-roles',
    access: 'team.write',
    stepUp: true,
    budget: { statements: 8, commits: 1 },
  },
  // SuperAdmins only (as above).
  customRoleUpdate: {
    id: 'customRoleUpdate',
    method: 'PUT',
    path: '/admin/team/custom-roles',
    access: 'team.write',
    stepUp: true,
    budget: { statements: 8, commits: 1 },
  },
  // SuperAdmins only (as above).
  customRoleDelete: {
    id: 'customRoleDelete',
    method: 'DELETE',
    path: '/admin/team/custom-roles',
    access: 'team.write',
    stepUp: true,
    budget: { statements: 8, commits: 1 },
  },
  // Periodic access review: SuperAdmins only (the service checks the role), never on their own roles.
  teamReviewDecide: {
    id: 'teamReviewDecide',
    method: 'POST',
    path: '/admin/team/review',
    access: 'team.write',
    stepUp: true,
    // a confirmation; a revocation runs the role change's statements instead of the one update
    budget: { statements: 13, commits: 1 },
  },
  // The review for auditors: every member's roles, last confirmation, deadline and state.
  teamReviewExport: {
    id: 'teamReviewExport',
    method: 'GET',
    path: '/admin/team/review/export',
    access: 'audit.read',
    budget: { statements: 4, commits: 1 },
  },
  teamProfile: {
    id: 'teamProfile',
    method: 'GET',
    path: '/admin/team/profile',
    access: 'session',
    budget: { statements: 4, commits: 0 },
  },
  mySessions: {
    id: 'mySessions',
    method: 'GET',
    path: '/admin/account/sessions',
    access: 'session',
    budget: { statements: 2, commits: 0 },
  },
  endMySessions: {
    id: 'endMySessions',
    method: 'DELETE',
    path: '/admin/account/sessions',
    access: 'session',
    budget: { statements: 2, commits: 0 },
  },
  myFactors: {
    id: 'myFactors',
    method: 'GET',
    path: '/admin/account/mfa',
    access: 'session',
    budget: { statements: 4, commits: 0 },
  },
  totpEnrolStart: {
    id: 'totpEnrolStart',
    method: 'POST',
    path: '/admin/account/mfa/totp',
    access: 'session',
    budget: { statements: 6, commits: 3 },
  },
  totpEnrolConfirm: {
    id: 'totpEnrolConfirm',
    method: 'PUT',
    path: '/admin/account/mfa/totp',
    access: 'session',
    budget: { statements: 4, commits: 0 },
  },
  totpRemove: {
    id: 'totpRemove',
    method: 'DELETE',
    path: '/admin/account/mfa/totp',
    access: 'session',
    budget: { statements: 2, commits: 0 },
  },
  passkeyOptions: {
    id: 'passkeyOptions',
    method: 'POST',
    path: '/admin/account/mfa/passkey-options',
    access: 'session',
    budget: { statements: 6, commits: 3 },
  },
  passkeyAdd: {
    id: 'passkeyAdd',
    method: 'POST',
    path: '/admin/account/mfa/passkeys',
    access: 'session',
    budget: { statements: 2, commits: 1 },
  },
  passkeyRename: {
    id: 'passkeyRename',
    method: 'PUT',
    path: '/admin/account/mfa/passkeys',
    access: 'session',
    budget: { statements: 2, commits: 0 },
  },
  passkeyRemove: {
    id: 'passkeyRemove',
    method: 'DELETE',
    path: '/admin/account/mfa/passkeys',
    access: 'session',
    budget: { statements: 3, commits: 0 },
  },
  recoveryCodesRenew: {
    id: 'recoveryCodesRenew',
    method: 'POST',
    path: '/admin/account/mfa/recovery-codes',
    access: 'session',
    budget: { statements: 2, commits: 0 },
  },
  stepUpStatus: {
    id: 'stepUpStatus',
    method: 'GET',
    path: '/admin/step-up',
    access: 'session',
    budget: { statements: 4, commits: 0 },
  },
  stepUpPasskeyOptions: {
    id: 'stepUpPasskeyOptions',
    method: 'POST',
    path: '/admin/step-up/passkey-options',
    access: 'session',
    budget: { statements: 3, commits: 1 },
  },
  stepUp: {
    id: 'stepUp',
    method: 'POST',
    path: '/admin/step-up',
    access: 'session',
    // 7 with the password; a passkey's or a code's check reads and writes up to 3 more
    budget: { statements: 10, commits: 3 },
  },
  // SuperAdmins only: the service checks the role (team.write alone is not enough).
  staffFactorsReset: {
    id: 'staffFactorsReset',
    method: 'DELETE',
    path: '/admin/team/mfa',
    access: 'team.write',
    stepUp: true,
    // 13: with the check that the break-glass account keeps a factor while password sign-in is off
    budget: { statements: 13, commits: 1 },
  },
  // SuperAdmins only: the service checks the role (team.write alone is not enough).
  staffSessions: {
    id: 'staffSessions',
    method: 'GET',
    path: '/admin/team/sessions',
    access: 'team.write',
    budget: { statements: 3, commits: 0 },
  },
  endStaffSessions: {
    id: 'endStaffSessions',
    method: 'DELETE',
    path: '/admin/team/sessions',
    access: 'team.write',
    budget: { statements: 4, commits: 0 },
  },
} as const satisfies Record<string, EndpointRoute & { budget: StatementBudget }>;
