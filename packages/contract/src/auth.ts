import { z } from 'zod';
import { MESSAGES } from './messages.ts';
import { secondStepAnswer, signedInAnswer } from './mfa.ts';
import { loginEmail, requiredText, strongPassword } from './validation.ts';

/** POST /admin/login */
export const loginBody = z.object({ email: loginEmail, password: requiredText('Password') });
/**
 * The session pair; or, when the account has a second factor (or must set one up), no pair but a
 * single-use ticket to the second step (mfa.ts).
 */
export const loginResponse = z.union([signedInAnswer, secondStepAnswer]);

/** POST /admin/forgotpassword: `url` is the console page the reset link is built on. */
export const forgotPasswordBody = z.object({
  email: loginEmail,
  url: z.string().trim().url('url must be an absolute console address.'),
});

/** PUT /admin/resetpassword */
export const resetPasswordBody = z.object({
  password: strongPassword('Password'),
  resettoken: z.string({ error: MESSAGES.resetUrlMissingToken }).trim().min(1, MESSAGES.resetUrlMissingToken),
});

/** The console's reset form: password and confirmpassword, which must match. */
export const resetPasswordForm = z
  .object({ password: strongPassword('Password'), confirmpassword: requiredText('Confirm Password') })
  .refine((v) => v.password === v.confirmpassword, {
    message: MESSAGES.passwordsDoNotMatch,
    path: ['confirmpassword'],
  });

/** PUT /admin/changepassword */
export const changePasswordBody = z.object({
  oldpassword: requiredText('Old Password'),
  newpassword: strongPassword('New Password'),
});

/** The console's change-password form adds a confirmation that must match. */
export const changePasswordForm = changePasswordBody
  .extend({ confirmpassword: requiredText('Confirm Password') })
  .refine((v) => v.newpassword === v.confirmpassword, {
    message: MESSAGES.passwordsDoNotMatch,
    path: ['confirmpassword'],
  });

/** The reset link's query: `vtype` names the flow, `vtoken` carries the single-use token. */
export const RESET_VTYPE = 'reset';
export const INVITE_VTYPE = 'invite';

export const okResponse = z.object({ IsPosted: z.boolean(), Message: z.string().optional() });
/**
 * The Description of a 901 answer to a pair whose session was ended by someone (from My sessions,
 * or by a SuperAdmin), so the sign-in screen it lands on can say why; a session that ran out
 * answers ERRORS.unauthenticated's own text.
 */
export const SESSION_ENDED_MESSAGES = {
  'ended-by-user': 'This session was ended from My sessions. Please sign in again.',
  'ended-by-superadmin': 'A SuperAdmin ended this session. Please sign in again.',
  deactivated: 'Your account was deactivated. Ask a SuperAdmin if you think this is a mistake.',
} as const;

export const SUCCESS_MESSAGES = {
  forgotPassword: 'If an account exists for that email, we have sent a link to reset its password.',
  resetPassword: 'Your password has been reset. Please sign in.',
  invitationAccepted: 'Your password has been set. Please sign in.',
  changePassword: 'Your password has been changed.',
  logout: 'You have been signed out.',
} as const;

/** One live staff session, as its owner (or a SuperAdmin) sees it. */
const staffSession = z.object({
  Id: z.number().int(),
  StartedAt: z.string(),
  /** When it was last used (renewed at most every few minutes, so a little behind). */
  LastUsedAt: z.string(),
  ClientAddress: z.string().nullable(),
  /** Browser and system, read from its User-Agent: 'Chrome 142 on Linux'. */
  Browser: z.string(),
  /** The session making this call. */
  Current: z.boolean(),
  /** An impersonation session (account/switchapp) and the site it acts on; null for a console session. */
  ImpersonatedSite: z.string().nullable(),
});
export type StaffSessionInfo = z.infer<typeof staffSession>;
export const staffSessionsResponse = z.object({ Data: z.array(staffSession) });

export const SESSION_MESSAGES = {
  chooseOne: 'Name one session (Id), or ask for all the others (AllOthers).',
  notYours: 'There is no live session of this account with that id.',
  ended: (n: number) => (n === 1 ? '1 session ended.' : `${n} sessions ended.`),
} as const;

/** DELETE /admin/account/sessions: end one of my sessions, or all but this one. */
export const endMySessionsBody = z
  .object({ Id: z.number().int().positive().optional(), AllOthers: z.literal(true).optional() })
  .refine((b) => (b.Id === undefined) !== (b.AllOthers === undefined), {
    message: SESSION_MESSAGES.chooseOne,
  });

/** GET /admin/team/sessions?uid=: a colleague's live sessions (SuperAdmins). */
export const staffSessionsQuery = z.object({ uid: z.string().uuid('uid is not a valid user id.') });
/** DELETE /admin/team/sessions: end one of a colleague's sessions (Id), or all of them. */
export const endStaffSessionsBody = z.object({
  uid: z.string().uuid('uid is not a valid user id.'),
  Id: z.number().int().positive().optional(),
});
export const sessionsEndedResponse = z.object({ Ended: z.number().int(), Message: z.string() });
