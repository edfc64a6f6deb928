import { randomBytes, timingSafeEqual } from 'node:crypto';
import { MFA_MESSAGES, RECOVERY_CODE_COUNT } from '@sac/contract/mfa';
import type { AppContext } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashSecret } from '../../lib/secrets.ts';
import { acceptedTotpStep, base32Encode, newTotpSecret, otpauthUrl } from '../../lib/totp.ts';
import {
  findTotp,
  insertPasskey,
  passkeysOf,
  putChallenge,
  putPendingTotp,
  replaceRecoveryCodes,
  spendRecoveryCode,
  takeChallenge,
  unusedRecoveryHashes,
  usePasskey,
  useTotpStep,
} from './mfa.repo.ts';
import {
  type AssertionJson,
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  type RegistrationJson,
  verifyPasskeyAssertion,
  verifyPasskeyRegistration,
} from './webauthn.ts';

/**
 * The second factors themselves (docs/decisions.md, "Two-step sign-in"): checking a code, a recovery
 * code or a passkey, and setting one up, for the sign-in (mfa-sign-in.service.ts) and the account
 * menu (mfa.service.ts).
 */

/** A pending authenticator-app set-up stays confirmable this long. */
const TOTP_SETUP_MS = 15 * 60_000;
/** A passkey ceremony's challenge stays usable this long. */
const CHALLENGE_MS = 5 * 60_000;

const issuerOf = (ctx: AppContext) => ctx.config.runtime.productName ?? 'Super Admin Console';

async function totpCodeIsRight(ctx: AppContext, uid: string, code: string, now: Date) {
  const row = await findTotp(ctx.db, uid);
  if (!row?.confirmed_at) return false;
  const step = acceptedTotpStep(openSecret(ctx, row.secret_sealed), code, now, Number(row.last_used_step));
  return step !== undefined && (await useTotpStep(ctx.db, uid, step, now, false));
}

/** The TOTP secret at rest: sealed with the field key (AES-256-GCM), as base64 text. */
const sealSecret = (ctx: AppContext, secret: Buffer): Buffer => ctx.crypto.encrypt(secret.toString('base64'));
const openSecret = (ctx: AppContext, sealed: Uint8Array): Buffer =>
  Buffer.from(ctx.crypto.decrypt(sealed), 'base64');

/** Spends a recovery code: compared with each unused hash in constant time, then spent atomically. */
async function spendRecovery(db: Queryable, uid: string, code: string, now: Date): Promise<boolean> {
  const given = hashSecret(normalRecoveryCode(code));
  let match: Buffer | undefined;
  for (const h of await unusedRecoveryHashes(db, uid)) {
    if (h.length === given.length && timingSafeEqual(h, given)) match = h;
  }
  return match !== undefined && (await spendRecoveryCode(db, uid, match, now));
}

/** A second factor as a sign-in's second step or a step-up gives it. */
export type FactorProof =
  | { Method: 'totp' | 'recovery'; Code: string }
  | { Method: 'passkey'; Response: AssertionJson };

/** Whether the factor given is the account's: its passkey, its app's code, or an unspent recovery code (spent). */
export function secondFactorIsRight(
  ctx: AppContext,
  uid: string,
  input: FactorProof,
  now: Date,
): Promise<boolean> {
  if (input.Method === 'passkey') return passkeyIsRight(ctx, uid, input.Response, now);
  if (input.Method === 'totp') return totpCodeIsRight(ctx, uid, input.Code, now);
  return spendRecovery(ctx.db, uid, input.Code, now);
}

export const wrongFactorError = (method: FactorProof['Method']) =>
  new AppError(
    'wrongSecondFactor',
    method === 'totp'
      ? MFA_MESSAGES.wrongCode
      : method === 'recovery'
        ? MFA_MESSAGES.wrongRecoveryCode
        : MFA_MESSAGES.passkeyRefused,
  );

async function passkeyIsRight(
  ctx: AppContext,
  uid: string,
  response: AssertionJson,
  now: Date,
): Promise<boolean> {
  const challenge = await takeChallenge(ctx.db, uid, 'authenticate', now);
  if (!challenge) return false;
  const passkey = (await passkeysOf(ctx.db, uid)).find((p) => p.credential_id === response.id);
  if (!passkey) return false;
  const verified = await verifyPasskeyAssertion(ctx.config, response, challenge, passkey);
  if (verified === undefined) return false;
  await usePasskey(ctx.db, passkey.id, verified.newCounter, now);
  return true;
}

/**
 * WebAuthn request options for an account's passkeys (a sign-in's second step, a step-up): a
 * fresh challenge, kept CHALLENGE_MS. Throws `none()` when the account has no passkey.
 */
export async function passkeyChallenge(
  ctx: AppContext,
  uid: string,
  origin: string | undefined,
  now: Date,
  none: () => AppError,
) {
  const passkeys = await passkeysOf(ctx.db, uid);
  if (passkeys.length === 0) throw none();
  const options = await passkeyAuthenticationOptions(ctx.config, origin, passkeys);
  await putChallenge(ctx.db, uid, 'authenticate', options.challenge, new Date(now.getTime() + CHALLENGE_MS));
  return { Options: options };
}

// ---------------------------------------------------------------- recovery codes

const normalRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/** Ten new codes of 60 random bits each, shown as abcd-efgh-2345; stored as SHA-256 hashes. */
export async function newRecoveryCodes(db: Queryable, uid: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const text = base32Encode(randomBytes(8)).slice(0, 12).toLowerCase();
    return `${text.slice(0, 4)}-${text.slice(4, 8)}-${text.slice(8, 12)}`;
  });
  await replaceRecoveryCodes(
    db,
    uid,
    codes.map((c) => hashSecret(normalRecoveryCode(c))),
    now,
  );
  return codes;
}

// ---------------------------------------------------------------- authenticator apps

export async function startTotp(ctx: AppContext, staff: { uid: string; email: string }, now: Date) {
  const secret = newTotpSecret();
  if (!(await putPendingTotp(ctx.db, staff.uid, sealSecret(ctx, secret), now)))
    throw new AppError('mfaConflict', MFA_MESSAGES.totpAlreadyOn);
  return { Secret: base32Encode(secret), OtpauthUrl: otpauthUrl(issuerOf(ctx), staff.email, secret) };
}

/** Checks a code against the pending set-up and confirms it (in `tx`); whether it did. */
export async function confirmTotp(ctx: AppContext, tx: Queryable, uid: string, code: string, now: Date) {
  const row = await findTotp(tx, uid);
  if (row?.confirmed_at) throw new AppError('mfaConflict', MFA_MESSAGES.totpAlreadyOn);
  if (!row || now.getTime() - new Date(row.created_at).getTime() > TOTP_SETUP_MS)
    throw new AppError('mfaSetupInvalid', MFA_MESSAGES.totpNotStarted);
  const step = acceptedTotpStep(openSecret(ctx, row.secret_sealed), code, now, Number(row.last_used_step));
  if (step === undefined || !(await useTotpStep(tx, uid, step, now, true)))
    throw new AppError('mfaSetupInvalid', MFA_MESSAGES.wrongCode);
}

// ---------------------------------------------------------------- passkey ceremonies

export async function registrationOptions(
  ctx: AppContext,
  staff: { uid: string; email: string; full_name: string },
  origin: string | undefined,
  now: Date,
) {
  const existing = await passkeysOf(ctx.db, staff.uid);
  const options = await passkeyRegistrationOptions(ctx.config, origin, staff, existing, issuerOf(ctx));
  await putChallenge(
    ctx.db,
    staff.uid,
    'register',
    options.challenge,
    new Date(now.getTime() + CHALLENGE_MS),
  );
  return { Options: options };
}

export async function checkRegistration(ctx: AppContext, uid: string, response: RegistrationJson, now: Date) {
  const challenge = await takeChallenge(ctx.db, uid, 'register', now);
  if (!challenge) throw new AppError('mfaSetupInvalid', MFA_MESSAGES.passkeyExpired);
  const verified = await verifyPasskeyRegistration(ctx.config, response, challenge);
  if (!verified) throw new AppError('mfaSetupInvalid');
  return verified;
}

export async function storePasskey(
  tx: Queryable,
  uid: string,
  v: NonNullable<Awaited<ReturnType<typeof verifyPasskeyRegistration>>>,
  name: string,
  now: Date,
): Promise<number> {
  const id = await insertPasskey(tx, {
    uid,
    credentialId: v.id,
    publicKey: v.publicKey,
    signCount: v.counter,
    transports: v.transports,
    name,
    at: now,
  });
  if (id === undefined) throw new AppError('mfaConflict', 'This passkey is already registered.');
  return id;
}
