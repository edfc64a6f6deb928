import { z } from 'zod';
import { reviewDecisionBody, reviewDecisionResponse } from './access-review.ts';
import {
  changePasswordBody,
  endMySessionsBody,
  endStaffSessionsBody,
  forgotPasswordBody,
  loginBody,
  loginResponse,
  okResponse,
  resetPasswordBody,
  sessionsEndedResponse,
  staffSessionsQuery,
  staffSessionsResponse,
} from './auth.ts';
import {
  customRoleBody,
  customRoleResponse,
  deleteCustomRoleBody,
  deleteCustomRoleResponse,
  newCustomRoleBody,
} from './custom-roles.ts';
import { type DetailsPart, errors } from './endpoint-details.ts';
import { listExportResponse } from './impersonation-api.ts';
import {
  addPasskeyBody,
  currentPasswordBody,
  enrolledSignInAnswer,
  enrolPasskeyAtSignInBody,
  enrolTotpAtSignInBody,
  factorAddedResponse,
  messageResponse,
  myFactorsResponse,
  passkeyOptionsResponse,
  recoveryCodesResponse,
  removePasskeyBody,
  renamePasskeyBody,
  resetStaffFactorsBody,
  secondStepBody,
  signedInAnswer,
  stepUpBody,
  stepUpResponse,
  stepUpStatusResponse,
  ticketBody,
  totpConfirmBody,
  totpSecretResponse,
} from './mfa.ts';
import {
  ssoFinishBody,
  ssoFinishResponse,
  ssoSettingsBody,
  ssoSettingsResponse,
  ssoSignInOptions,
  ssoStartResponse,
  ssoTestBody,
  ssoTestResponse,
} from './sso.ts';
import {
  createSuperUserBody,
  deleteSuperUserBody,
  deleteSuperUserResponse,
  profileQuery,
  resendInvitationBody,
  resendInvitationResponse,
  superUserProfileResponse,
  superUserResponse,
  teamListResponse,
  teamRolesResponse,
  updateRolesBody,
} from './team.ts';

const sessionResponse = z.object({
  Email: z.string(),
  Name: z.string(),
  Role: z.array(z.string()),
  Permissions: z.array(z.string()),
  Uid: z.string(),
  /** A SuperAdmin in the approval cool-down after their promotion: when it ends (else null). */
  CanApproveImpersonationFrom: z.string().nullable().optional(),
});

/** Summary, tag and schemas of the endpoints of sign-in, the session, passwords and the team (staff members and roles). */
export const SIGN_IN_DETAILS = {
  login: {
    summary:
      'Sign in with email and password; answers the session pair xtoken and xsign, or, when the account has a second factor (or must set one up), a single-use ticket to the second step (SecondStep).',
    tag: 'Authentication',
    body: loginBody,
    responses: { 200: loginResponse, ...errors(400, 401, 429) },
  },
  loginSecondStep: {
    summary:
      'The second step of a sign-in: the ticket of POST /admin/login and a passkey assertion, a one-time code or a recovery code; answers the session pair. A wrong factor counts as a wrong password towards the lockout.',
    tag: 'Authentication',
    body: secondStepBody,
    responses: { 200: signedInAnswer, ...errors(400, 401, 429) },
  },
  loginPasskeyOptions: {
    summary: "WebAuthn request options (a fresh challenge) for the ticket's account and its passkeys.",
    tag: 'Authentication',
    body: ticketBody,
    responses: { 200: passkeyOptionsResponse, ...errors(400, 401) },
  },
  loginEnrolTotp: {
    summary:
      "At a sign-in that must set up a factor first (STAFF_MFA=required): a new authenticator-app secret for the ticket's account.",
    tag: 'Authentication',
    body: ticketBody,
    responses: { 200: totpSecretResponse, ...errors(400, 401) },
  },
  loginEnrolTotpConfirm: {
    summary:
      'Confirm the authenticator app set up at sign-in with its current code; answers the session pair and the ten recovery codes (shown once).',
    tag: 'Authentication',
    body: enrolTotpAtSignInBody,
    responses: { 200: enrolledSignInAnswer, ...errors(400, 401, 429) },
  },
  loginEnrolPasskeyOptions: {
    summary: 'At a sign-in that must set up a factor first: WebAuthn creation options for a new passkey.',
    tag: 'Authentication',
    body: ticketBody,
    responses: { 200: passkeyOptionsResponse, ...errors(400, 401) },
  },
  loginEnrolPasskey: {
    summary:
      'Register the passkey made at sign-in; answers the session pair and the ten recovery codes (shown once).',
    tag: 'Authentication',
    body: enrolPasskeyAtSignInBody,
    responses: { 200: enrolledSignInAnswer, ...errors(400, 401, 429) },
  },
  ssoSignInOptions: {
    summary:
      'Whether single sign-on (OpenID Connect) is set up, the name of its provider for the "Sign in with <name>" button, and whether password sign-in is on.',
    tag: 'Authentication',
    responses: { 200: ssoSignInOptions },
  },
  ssoStart: {
    summary:
      "Start a sign-in at the OpenID provider: answers the provider's authorization address (code flow with PKCE S256, a single-use state and nonce, 10 minutes) and a binder the console keeps in the tab and gives back at the finish, binding the sign-in to this browser.",
    tag: 'Authentication',
    responses: { 200: ssoStartResponse, ...errors(404, 429) },
  },
  ssoFinish: {
    summary:
      "Finish a sign-in at the OpenID provider with the code and state it sent the browser back with (and the binder of the start: the same browser tab). The ID token is verified with the provider's published keys (issuer, audience, azp, expiry, nonce, email_verified); the staff member is matched by email. Answers as POST /admin/login: the session pair, or the ticket of the local second step when the provider's amr/acr does not count as one.",
    tag: 'Authentication',
    body: ssoFinishBody,
    responses: { 200: ssoFinishResponse, ...errors(400, 401, 404, 429) },
  },
  ssoSettings: {
    summary:
      'The single sign-on settings (never the client secret, only whether one is set), the group-to-role table and the redirect URI to register at the provider.',
    tag: 'Single sign-on',
    responses: { 200: ssoSettingsResponse, ...errors(401, 403) },
  },
  ssoSettingsUpdate: {
    summary:
      'Replace the single sign-on settings and the group-to-role table (one trail row). Password sign-in may be turned off only with a break-glass account that exists and has a second factor, and only while single sign-on is on.',
    tag: 'Single sign-on',
    body: ssoSettingsBody,
    responses: { 200: ssoSettingsResponse, ...errors(400, 401, 403) },
  },
  ssoTest: {
    summary:
      'Test an issuer: fetch its discovery document (/.well-known/openid-configuration) and its keys, and say what is wrong.',
    tag: 'Single sign-on',
    body: ssoTestBody,
    responses: { 200: ssoTestResponse, ...errors(400, 401, 403) },
  },
  logout: {
    summary: 'End the calling session on the server.',
    tag: 'Authentication',
    responses: { 200: okResponse, ...errors(401) },
  },
  session: {
    summary: 'The signed-in staff member, their roles and the permissions those grant.',
    tag: 'Authentication',
    responses: { 200: sessionResponse, ...errors(401) },
  },
  forgotPassword: {
    summary:
      'Mail a single-use reset link built on the console page `url` (an allowed console origin). Answers the same whether or not the email is known.',
    tag: 'Authentication',
    body: forgotPasswordBody,
    responses: { 200: okResponse, ...errors(400, 429) },
  },
  resetPassword: {
    summary: 'Set a new password with the token of a reset link; ends every session of that user.',
    tag: 'Authentication',
    body: resetPasswordBody,
    responses: { 200: okResponse, ...errors(400, 429) },
  },
  changePassword: {
    summary: "Change the signed-in user's password; ends their other sessions.",
    tag: 'Authentication',
    body: changePasswordBody,
    // 429: the address's daily failures (904), or the account locked by wrong old passwords (974)
    responses: { 200: okResponse, ...errors(400, 401, 403, 429) },
  },
  mySessions: {
    summary:
      "The caller's live sessions: when each started and was last used, from which address and browser, and which is this one.",
    tag: 'Authentication',
    responses: { 200: staffSessionsResponse, ...errors(401, 403) },
  },
  endMySessions: {
    summary:
      'End one of my sessions (Id) or every other one (AllOthers: true); it is refused from its next call, on every instance.',
    tag: 'Authentication',
    body: endMySessionsBody,
    responses: { 200: sessionsEndedResponse, ...errors(400, 401, 403, 404) },
  },
  myFactors: {
    summary:
      "The caller's second factors: authenticator app, passkeys, recovery codes left, and whether one is required.",
    tag: 'Authentication',
    responses: { 200: myFactorsResponse, ...errors(401, 403) },
  },
  totpEnrolStart: {
    summary:
      'Start setting up an authenticator app (needs the current password): a new secret, as base32 text and an otpauth:// address for a QR code.',
    tag: 'Authentication',
    body: currentPasswordBody,
    responses: { 200: totpSecretResponse, ...errors(400, 401, 403, 409, 429) },
  },
  totpEnrolConfirm: {
    summary:
      'Finish setting up the authenticator app with its current code; the first factor of an account also answers its ten recovery codes (shown once).',
    tag: 'Authentication',
    body: totpConfirmBody,
    responses: { 200: factorAddedResponse, ...errors(400, 401, 403, 409) },
  },
  totpRemove: {
    summary: 'Remove the authenticator app (needs the current password).',
    tag: 'Authentication',
    body: currentPasswordBody,
    responses: { 200: messageResponse, ...errors(400, 401, 403, 404, 409, 429) },
  },
  passkeyOptions: {
    summary: 'WebAuthn creation options (a fresh challenge) for a new passkey (needs the current password).',
    tag: 'Authentication',
    body: currentPasswordBody,
    responses: { 200: passkeyOptionsResponse, ...errors(400, 401, 403, 429) },
  },
  passkeyAdd: {
    summary:
      'Register the new passkey under a name; the first factor of an account also answers its ten recovery codes (shown once).',
    tag: 'Authentication',
    body: addPasskeyBody,
    responses: { 200: factorAddedResponse, ...errors(400, 401, 403) },
  },
  passkeyRename: {
    summary: 'Rename one of my passkeys.',
    tag: 'Authentication',
    body: renamePasskeyBody,
    responses: { 200: messageResponse, ...errors(400, 401, 403, 404) },
  },
  passkeyRemove: {
    summary: 'Remove one of my passkeys (needs the current password).',
    tag: 'Authentication',
    body: removePasskeyBody,
    responses: { 200: messageResponse, ...errors(400, 401, 403, 404, 409, 429) },
  },
  recoveryCodesRenew: {
    summary: 'Make ten new recovery codes (needs the current password); the old ones stop working.',
    tag: 'Authentication',
    body: currentPasswordBody,
    responses: { 200: recoveryCodesResponse, ...errors(400, 401, 403, 409, 429) },
  },
  stepUpStatus: {
    summary:
      "How the caller can confirm it is them before a sensitive action (their second factors, or the password when they have none), and until when the session's last sign-in or step-up counts.",
    tag: 'Authentication',
    responses: { 200: stepUpStatusResponse, ...errors(401, 403) },
  },
  stepUpPasskeyOptions: {
    summary: "WebAuthn request options (a fresh challenge) for a step-up with one of the caller's passkeys.",
    tag: 'Authentication',
    responses: { 200: passkeyOptionsResponse, ...errors(400, 401, 403) },
  },
  stepUp: {
    summary:
      'Confirm it is you before a sensitive action (error 911): a passkey assertion, a one-time code or a recovery code; the password only for an account without a second factor. The session then counts as recently signed in for STEP_UP_MINUTES. A wrong answer counts towards the lockout as a wrong sign-in does.',
    tag: 'Authentication',
    body: stepUpBody,
    responses: { 200: stepUpResponse, ...errors(400, 401, 403, 429) },
  },
  staffFactorsReset: {
    summary:
      "Remove a colleague's second factors and recovery codes and end their sessions (SuperAdmins only; not their own account). Recorded in the staff activity and mailed to them.",
    tag: 'Team',
    body: resetStaffFactorsBody,
    responses: { 200: messageResponse, ...errors(400, 401, 403, 404) },
  },
  staffSessions: {
    summary: "A colleague's live sessions (SuperAdmins only).",
    tag: 'Team',
    query: staffSessionsQuery,
    responses: { 200: staffSessionsResponse, ...errors(400, 401, 403, 404) },
  },
  endStaffSessions: {
    summary:
      "End one of a colleague's sessions (Id) or all of them (SuperAdmins only; not their own account). Recorded in the staff activity.",
    tag: 'Team',
    body: endStaffSessionsBody,
    responses: { 200: sessionsEndedResponse, ...errors(400, 401, 403, 404) },
  },
  teamList: {
    summary: 'Every super user: FullName, Email[0].Value, Roles, CreatedDate, LastLoginDate, Uid.',
    tag: 'Team',
    responses: { 200: teamListResponse, ...errors(401, 403) },
  },
  teamCreate: {
    summary:
      'Create a super user with the given roles (never SuperAdmin). The password is generated and never shown; the user is mailed a single-use invitation link (24 hours) to set their own.',
    tag: 'Team',
    body: createSuperUserBody,
    responses: { 200: superUserResponse, ...errors(400, 401, 403, 409) },
  },
  teamUpdateRoles: {
    summary:
      "Set a super user's roles to `role`, unassigning `unAssignRoles` (all roles not chosen). Ends the user's sessions. Nobody changes their own roles; the last SuperAdmin keeps the role.",
    tag: 'Team',
    versioned: 'if-match',
    body: updateRolesBody,
    responses: { 200: superUserResponse, ...errors(400, 401, 403, 404, 409) },
  },
  teamDelete: {
    summary:
      'Delete a super user and end their sessions. Nobody deletes themselves; the last SuperAdmin stays.',
    tag: 'Team',
    body: deleteSuperUserBody,
    responses: { 200: deleteSuperUserResponse, ...errors(400, 401, 403, 404, 409) },
  },
  teamResendInvitation: {
    summary:
      "Send a pending invitee's invitation again: a new link (24 hours), the one sent before no longer works. Refused (1196) when they have no pending invitation (accepted, deactivated), on one's own account (1197), outside your rights (936), and, for an invitee who would become a SuperAdmin, while you are in the SuperAdmin cool-down (948). Recorded (team.invite.resend).",
    tag: 'Team',
    body: resendInvitationBody,
    responses: { 200: resendInvitationResponse, ...errors(400, 401, 403, 404, 409) },
  },
  teamRoles: {
    summary:
      'The staff roles, built in and custom, each with its description, permissions, scope, holder count and Version; and the data centers a scope may name.',
    tag: 'Team',
    responses: { 200: teamRolesResponse, ...errors(401, 403) },
  },
  customRoleCreate: {
    summary:
      "Define a custom role (SuperAdmins only): a name (1-60 characters, unique whatever the case, not a built-in role's, fixed once made), a description, its permissions and an optional scope: data centers and/or plans (an axis null: any). A scoped role holds only permissions over customers and sites. Recorded in the staff activity (role.create).",
    tag: 'Team',
    body: newCustomRoleBody,
    responses: { 200: customRoleResponse, ...errors(400, 401, 403, 409) },
  },
  customRoleUpdate: {
    summary:
      "Change a custom role's description, permissions and scope (SuperAdmins only; a built-in role is refused, 1121). Its holders' sessions and API tokens have the new permissions and scope on their next call. Recorded with before and after (role.update).",
    tag: 'Team',
    versioned: 'if-match',
    body: customRoleBody,
    responses: { 200: customRoleResponse, ...errors(400, 401, 403, 404, 409) },
  },
  customRoleDelete: {
    summary:
      'Delete a custom role (SuperAdmins only). Refused (1122) while staff members hold it or single sign-on maps a group to it, naming how many. Recorded (role.delete).',
    tag: 'Team',
    body: deleteCustomRoleBody,
    responses: { 200: deleteCustomRoleResponse, ...errors(400, 401, 403, 404, 409) },
  },
  teamReviewDecide: {
    summary:
      "Periodic access review (SuperAdmins only; never one's own roles, 1170): confirm a member's roles as they are (If-Match: the Version of the roles seen, so roles changed meanwhile are not confirmed, 930), or revoke them all (as a role change does: their sessions end and their API tokens lose the permissions at once; the last SuperAdmin keeps the role, 934). A member without roles has nothing to review (1171). Recorded in the staff activity (team.review.confirm, team.review.revoke).",
    tag: 'Team',
    versioned: 'if-match',
    body: reviewDecisionBody,
    responses: { 200: reviewDecisionResponse, ...errors(400, 401, 403, 404, 409) },
  },
  teamReviewExport: {
    summary:
      'The access review as CSV, for auditors: every staff member with their roles, when and by whom the roles were last confirmed, the review deadline and the state (ok, due, overdue, none). The x-export-rows header says how many rows follow the header line. Two exports at once per instance (else 429). Recorded in the staff activity (access-review.export).',
    tag: 'Team',
    responses: { 200: listExportResponse, ...errors(401, 403, 429) },
    produces: ['text/csv'],
  },
  teamProfile: {
    summary:
      "A super user's profile, when the profile-access rule of spec section 6 lets the caller open it (anyone opens their own).",
    tag: 'Team',
    query: profileQuery,
    responses: { 200: superUserProfileResponse, ...errors(400, 401, 403, 404) },
  },
} as const satisfies DetailsPart;
