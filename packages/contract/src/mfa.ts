import { z } from 'zod';
import { requiredText } from './validation.ts';

/*
 * Two-step sign-in of staff (docs/decisions.md, "Two-step sign-in"): passkeys (WebAuthn) and
 * one-time codes (TOTP, RFC 6238), ten single-use recovery codes, and the single-use ticket that
 * carries a right password to the second step.
 */

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, a 30 s step. */
export const TOTP = { digits: 6, stepSeconds: 30, algorithm: 'SHA1' } as const;
export const RECOVERY_CODE_COUNT = 10;
const PASSKEY_NAME_MAX = 64;
/** How long the ticket between the password and the second step lives. */
export const SECOND_STEP_TTL_MINUTES = 5;

export const MFA_MESSAGES = {
  codeFormat: 'Enter the 6-digit code from your authenticator app (digits only).',
  recoveryFormat: 'Enter a recovery code as shown when you saved them, like abcd-efgh-2345.',
  wrongCode: 'That code is not correct, or it was already used. Wait for the next code and try again.',
  wrongRecoveryCode: 'That recovery code is not correct, or it was already used.',
  passkeyRefused: 'That passkey was not accepted for this account. Try another passkey or a code.',
  locked:
    'Too many failed sign-in attempts (wrong passwords or codes): this account is locked for a few minutes. Please try again later.',
  ticketInvalid:
    'This sign-in has expired or was already completed. Please sign in again with your password.',
  passkeyNameRequired: 'Passkey name is required.',
  passkeyNameLength: `A passkey name is at most ${PASSKEY_NAME_MAX} characters.`,
  totpEnrolled: 'Your authenticator app is set up. You will be asked for a code at sign-in.',
  totpNotStarted: 'Start the set-up of an authenticator app first: its secret has expired or was never made.',
  totpAlreadyOn:
    'An authenticator app is already set up for this account. Remove it first to set up another.',
  totpRemoved: 'Your authenticator app has been removed.',
  passkeyAdded: 'Your passkey has been added.',
  passkeyRenamed: 'Your passkey has been renamed.',
  passkeyRemoved: 'Your passkey has been removed.',
  passkeyNotYours: 'There is no passkey of this account with that id.',
  passkeyExpired: 'The passkey request has expired. Please try again.',
  lastFactor:
    'Second factors are required here: add another passkey or an authenticator app before you remove this one.',
  recoveryRenewed: 'New recovery codes have been made; the old ones no longer work.',
  noFactor: 'Set up a passkey or an authenticator app first.',
  resetDone: (email: string) =>
    `The second factors of ${email} have been removed and their sessions ended. They will set up a new one at their next sign-in.`,
} as const;

/** A ticket's shape (base64url, 20 to 100 characters) in one pattern, checked before any look-up. */
const ticket = z
  .string({ error: MFA_MESSAGES.ticketInvalid })
  .regex(/^[A-Za-z0-9_-]{20,100}$/, MFA_MESSAGES.ticketInvalid);

/** Six digits, checked before any work. */
const totpCode = z
  .string({ error: MFA_MESSAGES.codeFormat })
  .trim()
  .regex(/^\d{6}$/, MFA_MESSAGES.codeFormat);

/** 12 base32 letters in groups of four, as shown (abcd-efgh-2345); case and dashes do not matter. */
const recoveryCode = z
  .string({ error: MFA_MESSAGES.recoveryFormat })
  .trim()
  .regex(/^[A-Za-z2-7]{4}-?[A-Za-z2-7]{4}-?[A-Za-z2-7]{4}$/, MFA_MESSAGES.recoveryFormat);

export const passkeyName = z
  .string({ error: MFA_MESSAGES.passkeyNameRequired })
  .trim()
  .min(1, MFA_MESSAGES.passkeyNameRequired)
  .max(PASSKEY_NAME_MAX, MFA_MESSAGES.passkeyNameLength);

/** base64url text of at most `max` characters. */
const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'Not base64url.');
const transports = z
  .array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']))
  .max(8)
  .optional();
const extensionResults = z
  .object({ credProps: z.object({ rk: z.boolean().optional() }).optional() })
  .optional()
  .default({});

/** What navigator.credentials.create() answers, as JSON (bounded: hostile input). */
export const passkeyRegistration = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResults,
  response: z.object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(16_384),
    transports,
    authenticatorData: b64url(8192).optional(),
    publicKey: b64url(4096).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
});

/** What navigator.credentials.get() answers, as JSON (bounded). */
export const passkeyAssertion = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResults,
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(8192),
    signature: b64url(8192),
    userHandle: b64url(1024).optional(),
  }),
});

/** WebAuthn options for the browser (PublicKeyCredentialCreation/RequestOptionsJSON). */
const webauthnOptions = z.object({ challenge: z.string() }).catchall(z.unknown());
export const passkeyOptionsResponse = z.object({ Options: webauthnOptions });

const SECOND_FACTOR_METHODS = ['passkey', 'totp', 'recovery'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** The session pair and who signed in: the answer of a completed sign-in. */
export const signedInAnswer = z.object({
  xtoken: z.string(),
  xsign: z.string(),
  Email: z.string(),
  Name: z.string(),
  Role: z.array(z.string()),
});

/** A right password on an account with a second factor (or that must set one up): no session yet. */
export const secondStepAnswer = z.object({
  SecondStep: z.object({
    /** Single-use, bound to the account and its password, SECOND_STEP_TTL_MINUTES long. */
    Ticket: z.string(),
    ExpiresAt: z.string(),
    /** 'verify': prove a factor with Methods; 'enrol': set one up first (STAFF_MFA=required). */
    Kind: z.enum(['verify', 'enrol']),
    Methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
  }),
  Email: z.string(),
});

const recoveryCodes = z.array(z.string());

/** POST /admin/login/second-step */
export const secondStepBody = z.discriminatedUnion('Method', [
  z.object({ Ticket: ticket, Method: z.literal('totp'), Code: totpCode }),
  z.object({ Ticket: ticket, Method: z.literal('recovery'), Code: recoveryCode }),
  z.object({ Ticket: ticket, Method: z.literal('passkey'), Response: passkeyAssertion }),
]);
export const ticketBody = z.object({ Ticket: ticket });

/** The answer of a set-up that made the account's first factor: the pair, and the recovery codes once. */
export const enrolledSignInAnswer = signedInAnswer.extend({ RecoveryCodes: recoveryCodes });

export const totpSecretResponse = z.object({
  /** The shared secret as base32 text, to type into an app that cannot scan. */
  Secret: z.string(),
  /** otpauth://totp/… for the QR code. */
  OtpauthUrl: z.string(),
});

/** At sign-in when a factor must be set up first. */
export const enrolTotpAtSignInBody = z.object({ Ticket: ticket, Code: totpCode });
export const enrolPasskeyAtSignInBody = z.object({
  Ticket: ticket,
  Name: passkeyName,
  Response: passkeyRegistration,
});

const currentPassword = z.object({ password: requiredText('Password').pipe(z.string().max(1024)) });
export const currentPasswordBody = currentPassword;

const passkeyInfo = z.object({
  Id: z.number().int(),
  Name: z.string(),
  CreatedAt: z.string(),
  LastUsedAt: z.string().nullable(),
});
export type PasskeyInfo = z.infer<typeof passkeyInfo>;

/** GET /admin/account/mfa */
export const myFactorsResponse = z.object({
  /** STAFF_MFA: whether every staff member must have a factor. */
  Required: z.boolean(),
  Totp: z.object({ CreatedAt: z.string(), LastUsedAt: z.string().nullable() }).nullable(),
  Passkeys: z.array(passkeyInfo),
  RecoveryCodesLeft: z.number().int(),
});

export const totpConfirmBody = z.object({ Code: totpCode });
/** RecoveryCodes: present when this made the account's first factor (shown once). */
export const factorAddedResponse = z.object({
  Message: z.string(),
  RecoveryCodes: recoveryCodes.optional(),
});
export const addPasskeyBody = z.object({ Name: passkeyName, Response: passkeyRegistration });
export const renamePasskeyBody = z.object({ Id: z.number().int().positive(), Name: passkeyName });
export const removePasskeyBody = currentPassword.extend({ Id: z.number().int().positive() });
export const recoveryCodesResponse = z.object({ Message: z.string(), RecoveryCodes: recoveryCodes });
export const messageResponse = z.object({ Message: z.string() });

/** DELETE /admin/team/mfa: a SuperAdmin removes a colleague's factors. */
export const resetStaffFactorsBody = z.object({ uid: z.string().uuid('uid is not a valid user id.') });

// ---------------------------------------------------------------- step-up (recent sign-in)

/** GET /admin/step-up: how the caller can step up, and until when the last proof stands. */
export const stepUpStatusResponse = z.object({
  /**
   * The account's factors ('passkey', 'totp', 'recovery'); without one ['password'], or
   * ['sign-in'] for an account with no password either (single sign-on only): it signs in again.
   */
  Methods: z.array(z.enum([...SECOND_FACTOR_METHODS, 'password', 'sign-in'])),
  WindowMinutes: z.number(),
  /** When the session's last sign-in or step-up stops counting (may be past). */
  VerifiedUntil: z.string(),
});

/** POST /admin/step-up */
export const stepUpBody = z.discriminatedUnion('Method', [
  z.object({ Method: z.literal('totp'), Code: totpCode }),
  z.object({ Method: z.literal('recovery'), Code: recoveryCode }),
  z.object({ Method: z.literal('passkey'), Response: passkeyAssertion }),
  z.object({ Method: z.literal('password'), Password: requiredText('Password').pipe(z.string().max(1024)) }),
]);
export type StepUpInput = z.infer<typeof stepUpBody>;

export const stepUpResponse = z.object({ Message: z.string(), VerifiedUntil: z.string() });
