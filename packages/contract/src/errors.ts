import { z } from 'zod';
import { MESSAGES } from './messages.ts';

/**
 * Every error the API sends, with its code, HTTP status and text. The spec's codes keep their
 * meaning (927, 999, 981, 1037, 1090, 1091); the 9xx codes below 927 and above are ours.
 */
export const ERRORS = {
  validation: { code: 900, status: 400, text: 'The request is not valid.' },
  unauthenticated: { code: 901, status: 401, text: 'Your session has expired. Please sign in again.' },
  forbidden: { code: 902, status: 403, text: 'You do not have permission to perform this action.' },
  invalidCredentials: { code: 903, status: 401, text: MESSAGES.invalidCredentials },
  tooManyAttempts: {
    code: 904,
    status: 429,
    text: 'Too many failed sign-in attempts from this address. Please try again tomorrow.',
  },
  invalidResetToken: {
    code: 905,
    status: 400,
    text: 'This reset password link is invalid or has expired. Please request a new one.',
  },
  foreignConsoleUrl: { code: 906, status: 400, text: 'The url is not an address of this console.' },
  wrongOldPassword: { code: 907, status: 400, text: 'The old password is not correct.' },
  ajaxMarkerMissing: {
    code: 908,
    status: 400,
    text: 'Calls must carry the header X-Requested-With: XMLHttpRequest.',
  },
  unsupportedMediaType: { code: 909, status: 415, text: 'Calls with a body must send JSON.' },
  samePassword: { code: 910, status: 400, text: 'The new password must differ from the old password.' },
  /** A sensitive action, and the session's last sign-in or step-up is older than STEP_UP_MINUTES. */
  stepUpRequired: {
    code: 911,
    status: 403,
    text: 'This action needs a recent sign-in: confirm it is you (POST /admin/step-up), then try again.',
  },
  unknownCall: { code: 920, status: 404, text: 'There is no such call.' },
  notFound: { code: 927, status: 404, text: MESSAGES.searchNotFound },
  /** A write named (If-Match) a version older than the stored one: nothing was written. */
  conflict: { code: 930, status: 412, text: 'The record was changed by someone else. Please reload.' },
  superUserExists: { code: 931, status: 409, text: MESSAGES.superUserExists },
  ownRoles: { code: 932, status: 403, text: 'You cannot change your own roles.' },
  ownAccount: { code: 933, status: 403, text: 'You cannot delete your own account.' },
  lastSuperAdmin: {
    code: 934,
    status: 409,
    text: 'The last SuperAdmin cannot be demoted or deleted. Give another user the SuperAdmin role first.',
  },
  roleNotAssignable: { code: 935, status: 403, text: 'You may not give or take away that role.' },
  staffNotManageable: { code: 936, status: 403, text: 'You may not manage this super user.' },
  unknownRole: { code: 937, status: 400, text: 'There is no such role.' },
  profileNotAllowed: { code: 938, status: 403, text: 'You may not open this profile.' },
  customerExists: { code: 940, status: 409, text: MESSAGES.customerExists },
  siteNameTaken: { code: 941, status: 409, text: 'That site name is taken. Please choose another.' },
  impersonationConflict: { code: 945, status: 409, text: 'This request cannot be changed this way now.' },
  impersonationInvalid: { code: 946, status: 400, text: 'The impersonation request is not valid.' },
  impersonationForbidden: { code: 947, status: 403, text: 'You may not take this action on this request.' },
  approverCoolingDown: {
    code: 948,
    status: 403,
    text: 'You became a SuperAdmin recently: you cannot approve impersonation requests until the cool-down has passed.',
  },
  /** The reason code is not among the operator's (IMPERSONATION_REASON_CODES); access-reasons.ts. */
  unknownReasonCode: {
    code: 1140,
    status: 400,
    text: 'There is no such reason code. Please choose one of the list.',
  },
  /** IMPERSONATION_CASE_REQUIRED: a request names its case or ticket. */
  caseRequired: { code: 1141, status: 400, text: 'Please give the case or ticket reference.' },
  caseReferenceInvalid: {
    code: 1142,
    status: 400,
    text: 'The case or ticket reference is too long or holds characters that are not printable.',
  },
  customerAuthFailed: { code: 949, status: 401, text: 'The API key and secret do not match a site.' },
  customObjectsEmpty: { code: 999, status: 404, text: 'This site has no custom objects yet.' },
  securityConflict: {
    code: 981,
    status: 400,
    text: 'Account lockout needs a lockout time: set Lockout minutes, or set Failed sign-ins to 0.',
  },
  customObjectExists: { code: 960, status: 409, text: 'A custom object with this Id already exists.' },
  previousPasswordSettingsNotSet: {
    code: 1037,
    status: 404,
    text: 'This site has no previous-password settings (it hashes previous passwords as it hashes passwords).',
  },
  securityAnswerSettingsNotSet: {
    code: 1090,
    status: 404,
    text: 'This site has no security-answer settings yet.',
  },
  /** The spec's other security-question code, which the console ignores as it does 1090. */
  securityQuestionsNotUsed: {
    code: 1091,
    status: 404,
    text: 'This site does not use security questions.',
  },
  encryptionKeyNeeded: { code: 962, status: 400, text: 'This encryption type needs an encryption key.' },
  fieldExists: { code: 963, status: 409, text: 'A field or data source with this name already exists.' },
  customDomainExists: { code: 961, status: 409, text: 'This domain is already bound to a site.' },
  unknownCatalogueEntry: {
    code: 942,
    status: 400,
    text: 'There is no such feature set, data center or global server.',
  },
  userInputTooCostly: {
    code: 971,
    status: 400,
    text: 'This check took too long and was stopped. Simplify the schema, its patterns or the sample.',
  },
  checkerBusy: {
    code: 972,
    status: 503,
    text: 'Too many checks are waiting. Please try again in a moment.',
  },
  accountLocked: {
    code: 974,
    status: 429,
    text: 'Too many wrong passwords: this account is locked for a few minutes. Please try again later.',
  },
  previewBusy: {
    code: 973,
    status: 503,
    text: 'Too many hashing previews are waiting. Please try again in a moment.',
  },
  consentLinkInvalid: {
    code: 975,
    status: 400,
    text: 'This consent link is invalid, has been used, or has expired.',
  },
  siteAccessLinkInvalid: { code: 976, status: 400, text: 'This link is invalid or has expired.' },
  customerEmailTaken: {
    code: 977,
    status: 409,
    text: 'Another customer already uses this email address (as their email or sign-in email).',
  },
  customerAuthEmailTaken: {
    code: 978,
    status: 409,
    text: 'Another customer already uses this sign-in email address (as their email or sign-in email).',
  },
  exportBusy: {
    code: 979,
    status: 429,
    text: 'Two exports of the audit trail are already running. Please try again when one has finished.',
  },
  secondStepInvalid: {
    code: 985,
    status: 401,
    text: 'This sign-in has expired or was already completed. Please sign in again with your password.',
  },
  wrongSecondFactor: {
    code: 986,
    status: 401,
    text: 'That code is not correct, or it was already used. Wait for the next code and try again.',
  },
  mfaSetupInvalid: {
    code: 987,
    status: 400,
    text: 'The second factor could not be set up. Please try again.',
  },
  mfaLastFactor: {
    code: 988,
    status: 409,
    text: 'Second factors are required here: add another passkey or an authenticator app before you remove this one.',
  },
  noticeNotCancellable: {
    code: 990,
    status: 409,
    text: 'Only a scheduled notice can be cancelled: this one has started sending, has been sent or was cancelled.',
  },
  noticeAudienceTooLarge: {
    code: 991,
    status: 400,
    text: 'This audience reaches more recipients than a notice may have. Please narrow it.',
  },
  noticeAudienceEmpty: { code: 992, status: 400, text: 'This audience reaches no site owner.' },
  noticeNotFound: { code: 993, status: 404, text: 'There is no such notice.' },
  unsubscribeLinkInvalid: { code: 994, status: 400, text: 'This unsubscribe link is not valid.' },
  mfaConflict: { code: 989, status: 409, text: 'This second factor cannot be changed this way now.' },
  /** The staff address allowlist does not include the caller's address (sign-in or any call). */
  addressNotAllowed: {
    code: 1110,
    status: 403,
    text: 'Your address is not allowed to reach the console. Ask a SuperAdmin to add it to the address allowlist.',
  },
  /** Saving an allowlist that leaves out the saver's own address. */
  allowlistLockOut: {
    code: 1111,
    status: 400,
    text: 'This list does not include your current address: saving it would lock you out.',
  },
  /** A call an API token may not make (its owner's sign-in, tokens, impersonation sessions). */
  tokenNotAllowed: {
    code: 1112,
    status: 403,
    text: 'An API token cannot make this call: sign in to the console.',
  },
  /** A scoped role's holder named a customer or site outside its data centers or plans. */
  outOfScope: {
    code: 1113,
    status: 403,
    text: "This customer or site is outside your role's scope.",
  },
  /** Custom roles (codes 1120-1122): a name taken, a built-in role, a role still held or mapped. */
  roleNameTaken: {
    code: 1120,
    status: 409,
    text: 'A role with that name already exists. Please choose another.',
  },
  builtInRoleFixed: { code: 1121, status: 409, text: 'A built-in role cannot be changed or deleted.' },
  /** The text names how many staff members hold it (or groups map to it). */
  roleInUse: { code: 1122, status: 409, text: 'This role is still in use.' },
  /** Webhooks (codes 1160-1163): an endpoint address refused, too many, a paused or unknown one. */
  webhookAddress: {
    code: 1160,
    status: 400,
    text: 'This endpoint address cannot be used.',
  },
  webhookLimit: { code: 1161, status: 409, text: 'There are as many webhook subscriptions as allowed.' },
  webhookState: { code: 1162, status: 409, text: 'The subscription is not in a state that allows this.' },
  webhookNotFound: { code: 1163, status: 404, text: 'There is no such webhook subscription.' },
  webhookManualLimit: {
    code: 1164,
    status: 429,
    text: 'This subscription has been sent as many tests and redeliveries as an hour allows.',
  },
  /**
   * Periodic access review (codes 1170-1172): no one decides on their own roles; nothing to review;
   * a confirmation names the version of the roles it confirms.
   */
  reviewOwnRoles: {
    code: 1170,
    status: 403,
    text: 'You cannot confirm or remove your own roles: another SuperAdmin must review them.',
  },
  reviewNoRoles: {
    code: 1171,
    status: 409,
    text: 'This staff member holds no roles: there is nothing to review.',
  },
  reviewVersionRequired: {
    code: 1172,
    status: 400,
    text: "A confirmation must name the version of the roles it confirms (If-Match: the Version of the team list's row).",
  },
  /**
   * Break-glass access (codes 1180-1184; break-glass.ts): turned off by the operator; more than 60
   * minutes; no extension; the opener does not close their own review; a review closed already.
   */
  breakGlassOff: {
    code: 1180,
    status: 403,
    text: 'Break-glass access is turned off by the operator (BREAK_GLASS_ENABLED).',
  },
  breakGlassDuration: {
    code: 1181,
    status: 400,
    text: 'Break-glass access lasts from 1 to 60 minutes.',
  },
  breakGlassNoExtension: {
    code: 1182,
    status: 409,
    text: 'You already hold access to this site: break-glass access is never extended or stacked. Let it end, or ask for more through a request.',
  },
  breakGlassOwnReview: {
    code: 1183,
    status: 403,
    text: 'You opened this break-glass access: another SuperAdmin must close its review.',
  },
  breakGlassReviewClosed: {
    code: 1184,
    status: 409,
    text: 'The review of this break-glass access is closed already.',
  },
  internal: { code: 950, status: 500, text: MESSAGES.genericError },
  unavailable: { code: 951, status: 503, text: 'The service is starting or stopping. Please try again.' },
  storeUnavailable: {
    code: 952,
    status: 503,
    text: 'The service cannot reach its database right now. Please try again in a few seconds.',
  },
  tooManyRequests: {
    code: 953,
    status: 429,
    text: 'Too many requests from this address. Please try again later.',
  },
  /** Single sign-on (OpenID Connect): codes 1101-1104, away from the 9xx run other work adds to. */
  ssoOff: { code: 1101, status: 404, text: 'Single sign-on is not set up.' },
  ssoRefused: {
    code: 1102,
    status: 401,
    text: 'Single sign-on did not complete. Please try again, or ask your administrator.',
  },
  passwordSignInOff: {
    code: 1103,
    status: 403,
    text: 'Password sign-in is off. Please sign in with single sign-on.',
  },
  ssoSettingsInvalid: { code: 1104, status: 400, text: 'These single sign-on settings cannot be saved.' },
  breakGlassNeeded: {
    code: 1105,
    status: 409,
    text: 'Password sign-in is off and this is its break-glass account: turn password sign-in on, or name another break-glass account, on the Single sign-on screen first.',
  },
  // Bulk actions (bulk.ts)
  bulkTooLarge: {
    code: 1190,
    status: 400,
    text: 'The selection holds more items than a bulk action may take. Narrow the filter.',
  },
  bulkState: { code: 1191, status: 409, text: 'This bulk job cannot be changed this way now.' },
  bulkOwnApproval: {
    code: 1192,
    status: 403,
    text: "A bulk job needs a second SuperAdmin's approval: you cannot approve your own.",
  },
  bulkApproverOnly: { code: 1193, status: 403, text: 'Only a SuperAdmin may approve a bulk job.' },
  bulkNotYours: {
    code: 1194,
    status: 403,
    text: 'Only the staff member who asked for this bulk job, or a SuperAdmin, may do this.',
  },
  bulkUndoOver: {
    code: 1195,
    status: 409,
    text: 'This bulk job can no longer be undone: undo lasts 10 minutes from its end, once.',
  },
  invitationNotPending: {
    code: 1196,
    status: 409,
    text: 'This member has no pending invitation: they accepted it, or were deactivated.',
  },
  /**
   * A job's approval while its requester may no longer run it (the runner would fail it): the
   * text names why, as the runner's failure does (bulk-runner.ts currentCallOf).
   */
  bulkRequesterMayNotRun: {
    code: 1198,
    status: 409,
    text: 'The requester may no longer run this bulk job: it cannot be approved.',
  },
  /**
   * A job's start while its requester may no longer run it (the API token of its dry run revoked or
   * expired since): the text names why, as 1198's does. A code of its own: 1198's says approved.
   */
  bulkRequesterMayNotStart: {
    code: 1199,
    status: 409,
    text: 'The requester may no longer run this bulk job: it cannot be started.',
  },
  /** The resend's own refusal of one's own account (the deletion's, 933, spoke of deleting). */
  ownInvitation: {
    code: 1197,
    status: 403,
    text: 'You cannot resend an invitation to your own account.',
  },
  signInBusy: {
    code: 984,
    status: 429,
    text: 'This account is busy with other sign-ins right now. Please try again in a moment.',
  },
} as const;

export type ErrorName = keyof typeof ERRORS;

/** The one error envelope of every 4xx and 5xx answer. */
export const errorEnvelopeSchema = z.object({
  ErrorCode: z.number().int(),
  Description: z.string(),
  Message: z.string(),
  RequestId: z.string(),
  FieldErrors: z.array(z.object({ Field: z.string(), Message: z.string() })).optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/**
 * The text a client shows for an error body, as spec section 8 reads it: Description, description,
 * message or ErrorMessage. Returns undefined when the body carries no error code.
 */
export function errorTextOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  if (b.ErrorCode === undefined && b.errorCode === undefined) return undefined;
  for (const key of ['Description', 'description', 'message', 'Message', 'ErrorMessage']) {
    const v = b[key];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  return MESSAGES.genericError;
}
