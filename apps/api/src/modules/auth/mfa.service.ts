import { randomBytes, timingSafeEqual } from 'node:crypto';
import { MFA_MESSAGES, RECOVERY_CODE_COUNT, type SecondFactorMethod } from '@sac/contract/mfa';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { hashSecret } from '../../lib/secrets.ts';
import { acceptedTotpStep, base32Encode, newTotpSecret, otpauthUrl } from '../../lib/totp.ts';
import { runWrite } from '../../lib/write-path.ts';
import { recordEvent, writeActivity } from '../activity/activity.service.ts';
import { notifySessionsEnded } from '../staff-notifications/staff-notifications.service.ts';
import { lockColleague, lockOwnAccount, superAdminOnly } from './approver-cool-down.ts';
import { factorsResetMail } from './auth.mails.ts';
import { checkCurrentPassword, lockedError } from './auth.service.ts';
import {
  addressInDatabase,
  admitSignIn,
  attemptFailed,
  busyError,
  forgiveInStore,
  recordAccountSuccess,
  releaseAttempt,
} from './login-throttle.ts';
import {
  deleteAllFactors,
  deletePasskey,
  deleteTotp,
  factorsOf,
  findTotp,
  insertPasskey,
  liveTicket,
  passkeysOf,
  putChallenge,
  putPendingTotp,
  renamePasskey,
  replaceRecoveryCodes,
  spendRecoveryCode,
  spendTicket,
  type TicketRow,
  takeChallenge,
  unusedRecoveryHashes,
  usePasskey,
  useTotpStep,
} from './mfa.repo.ts';
import { createSignInSession, revokeUserSessions } from './sessions.repo.ts';
import { openPasswordSession } from './sign-in.repo.ts';
import { findStaffByUid, type StaffRow } from './staff.repo.ts';
import {
  type AssertionJson,
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  type RegistrationJson,
  verifyPasskeyAssertion,
  verifyPasskeyRegistration,
} from './webauthn.ts';

/**
 * Second factors of staff (docs/decisions.md, "Two-step sign-in"): the second step of a sign-in,
 * the set-up a sign-in may require first (STAFF_MFA=required), a staff member's own factors under
 * their account menu, and a SuperAdmin's reset of a colleague's.
 */

/** A pending authenticator-app set-up stays confirmable this long. */
const TOTP_SETUP_MS = 15 * 60_000;
const CHALLENGE_MS = 5 * 60_000;

const issuerOf = (ctx: AppContext) => ctx.config.runtime.productName ?? 'Super Admin Console';

// ---------------------------------------------------------------- sign-in: the second step

/**
 * The second step: a passkey assertion, a one-time code or a recovery code for the ticket of a
 * right password. Counted before it is checked, per address and per account, exactly as a
 * password is: a wrong factor is a failed sign-in towards the lockout. Answers the session pair;
 * the ticket is spent only by a success.
 */
export async function secondStep(
  ctx: AppContext,
  call: Caller,
  input:
    | { Ticket: string; Method: 'totp' | 'recovery'; Code: string }
    | { Ticket: string; Method: 'passkey'; Response: AssertionJson },
) {
  const now = ctx.clock.now();
  const audit = { at: now, clientAddress: call.clientAddress };
  const throttled = async () => {
    await recordEvent(ctx.db, { ...audit, action: 'login.throttled', details: { via: 'second-step' } });
    return new AppError('tooManyAttempts');
  };
  const badTicket = async () => {
    await recordEvent(ctx.db, { ...audit, action: 'mfa.failed', details: { reason: 'ticket' } });
    return new AppError('secondStepInvalid');
  };
  // The ticket read, then the attempt counted before its check (the address's count, the
  // account read and the attempt admitted in one statement, as a password's: admitSignIn).
  const ticket = await liveTicket(ctx.db, input.Ticket, 'verify', now);
  if (!ticket) {
    if (
      (await ctx.addressFailures.recordFailure(call.clientAddress, now)) >
      ctx.config.loginAddressDailyFailures
    )
      throw await throttled();
    throw await badTicket();
  }
  const attempt = await admitSignIn(
    ctx.db,
    ctx.addressFailures,
    ctx.config.loginAddressDailyFailures,
    { uid: ticket.uid },
    call.clientAddress,
    now,
  );
  if (attempt.throttled) throw await throttled();
  const { staff, admission } = attempt;
  if (!staff || !admission) throw await badTicket();
  const who = { ...audit, actorUid: staff.uid, actorEmail: staff.email };
  if (admission.kind === 'busy') throw busyError();
  if (admission.kind === 'locked') {
    await recordEvent(ctx.db, {
      ...who,
      action: 'mfa.failed',
      details: { method: input.Method, reason: 'locked' },
    });
    throw lockedError(admission.until, now, MFA_MESSAGES.locked);
  }
  // Ends with its verdict's write, or is released (as a password's attempt, auth.service.ts).
  let settled = false;
  try {
    const ok =
      input.Method === 'passkey'
        ? await passkeyIsRight(ctx, staff.uid, input.Response, now)
        : input.Method === 'totp'
          ? await totpCodeIsRight(ctx, staff.uid, input.Code, now)
          : await spendRecovery(ctx.db, staff.uid, input.Code, now);
    if (!ok) {
      await runWrite(ctx.db, {
        change: (tx) => attemptFailed(tx, staff.uid, 'second-step', now),
        trail: async (tx, lockedUntil) => {
          await writeActivity(tx, {
            ...who,
            action: 'mfa.failed',
            details: { method: input.Method, reason: 'wrong-factor' },
          });
          if (lockedUntil)
            await writeActivity(tx, {
              ...who,
              action: 'login.lockout',
              targetType: 'staff',
              targetId: staff.uid,
              details: { lockedUntil: lockedUntil.toISOString(), via: 'second-step' },
            });
        },
      });
      settled = true;
      throw new AppError(
        'wrongSecondFactor',
        input.Method === 'totp'
          ? MFA_MESSAGES.wrongCode
          : input.Method === 'recovery'
            ? MFA_MESSAGES.wrongRecoveryCode
            : MFA_MESSAGES.passkeyRefused,
      );
    }
    const answer = await runWrite(ctx.db, {
      change: async (tx) => {
        // The account's row first (its write lock, see login), its counts cleared, with the
        // session (while the password the ticket was issued on is still theirs) and the
        // address's count taken back; then the ticket, spent: two uses cannot both succeed.
        const session = await openPasswordSession(
          tx,
          { uid: staff.uid, at: now, clientAddress: call.clientAddress, userAgent: call.userAgent },
          ticket.password_hash,
          addressInDatabase(ctx.addressFailures, call.clientAddress, now),
        );
        if (!session || !(await spendTicket(tx, input.Ticket, 'verify', now)))
          throw new AppError('secondStepInvalid');
        return signedInAnswer(session, staff);
      },
      trail: async (tx) => {
        await writeActivity(tx, { ...who, action: 'mfa.success', details: { method: input.Method } });
        if (input.Method === 'recovery') {
          const left = (await factorsOf(tx, staff.uid)).recoveryLeft;
          await writeActivity(tx, { ...who, action: 'recovery.used', details: { left } });
        }
        await writeActivity(tx, { ...who, action: 'login.success', details: { secondFactor: input.Method } });
      },
    });
    settled = true;
    // Another store's count is taken back once the sign-in has committed, not from inside its write.
    await forgiveInStore(ctx.addressFailures, call.clientAddress, now);
    return answer;
  } finally {
    if (!settled) await releaseAttempt(ctx.db, staff.uid).catch(() => undefined);
  }
}

/** WebAuthn request options for the ticket's account: a fresh challenge, its passkeys allowed. */
export async function signInPasskeyOptions(ctx: AppContext, ticketText: string, origin: string | undefined) {
  const now = ctx.clock.now();
  const ticket = await liveTicket(ctx.db, ticketText, 'verify', now);
  if (!ticket) throw new AppError('secondStepInvalid');
  const passkeys = await passkeysOf(ctx.db, ticket.uid);
  if (passkeys.length === 0) throw new AppError('secondStepInvalid', MFA_MESSAGES.passkeyRefused);
  const options = await passkeyAuthenticationOptions(ctx.config, origin, passkeys);
  await putChallenge(
    ctx.db,
    ticket.uid,
    'authenticate',
    options.challenge,
    new Date(now.getTime() + CHALLENGE_MS),
  );
  return { Options: options };
}

/** The session of a completed sign-in, while the password the ticket was issued on is still theirs. */
async function openSession(tx: Queryable, caller: Caller, staff: StaffRow, ticket: TicketRow, now: Date) {
  const session = await createSignInSession(
    tx,
    { uid: staff.uid, at: now, clientAddress: caller.clientAddress, userAgent: caller.userAgent },
    ticket.password_hash,
  );
  return session && signedInAnswer(session, staff);
}

/** What a completed sign-in answers: the session's pair and who signed in. */
const signedInAnswer = (session: { xtoken: string; xsign: string }, staff: StaffRow) => ({
  xtoken: session.xtoken,
  xsign: session.xsign,
  Email: staff.email,
  Name: staff.full_name,
  Role: staff.roles,
});

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

// ---------------------------------------------------------------- recovery codes

const normalRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/** Ten new codes of 60 random bits each, shown as abcd-efgh-2345; stored as SHA-256 hashes. */
async function newRecoveryCodes(db: Queryable, uid: string, now: Date): Promise<string[]> {
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

// ---------------------------------------------------------------- sign-in: a first factor set up

async function enrolTicket(ctx: AppContext, ticketText: string, now: Date) {
  const ticket = await liveTicket(ctx.db, ticketText, 'enrol', now);
  const staff = ticket ? await findStaffByUid(ctx.db, ticket.uid) : undefined;
  if (!ticket || !staff) throw new AppError('secondStepInvalid');
  return { ticket, staff };
}

/** A new authenticator-app secret for the account of an enrolment ticket. */
export async function signInTotpStart(ctx: AppContext, ticketText: string) {
  const now = ctx.clock.now();
  const { staff } = await enrolTicket(ctx, ticketText, now);
  return startTotp(ctx, staff, now);
}

async function startTotp(ctx: AppContext, staff: { uid: string; email: string }, now: Date) {
  const secret = newTotpSecret();
  if (!(await putPendingTotp(ctx.db, staff.uid, sealSecret(ctx, secret), now)))
    throw new AppError('mfaConflict', MFA_MESSAGES.totpAlreadyOn);
  return { Secret: base32Encode(secret), OtpauthUrl: otpauthUrl(issuerOf(ctx), staff.email, secret) };
}

/** Checks a code against the pending set-up and confirms it (in `tx`); whether it did. */
async function confirmTotp(ctx: AppContext, tx: Queryable, uid: string, code: string, now: Date) {
  const row = await findTotp(tx, uid);
  if (row?.confirmed_at) throw new AppError('mfaConflict', MFA_MESSAGES.totpAlreadyOn);
  if (!row || now.getTime() - new Date(row.created_at).getTime() > TOTP_SETUP_MS)
    throw new AppError('mfaSetupInvalid', MFA_MESSAGES.totpNotStarted);
  const step = acceptedTotpStep(openSecret(ctx, row.secret_sealed), code, now, Number(row.last_used_step));
  if (step === undefined || !(await useTotpStep(tx, uid, step, now, true)))
    throw new AppError('mfaSetupInvalid', MFA_MESSAGES.wrongCode);
}

/** Confirms the app set up at sign-in; answers the session pair and the recovery codes. */
export async function signInTotpConfirm(
  ctx: AppContext,
  call: Caller,
  input: { Ticket: string; Code: string },
) {
  const now = ctx.clock.now();
  const { ticket, staff } = await enrolTicket(ctx, input.Ticket, now);
  return finishSignInEnrolment(ctx, call, staff, ticket, input.Ticket, now, 'totp', (tx) =>
    confirmTotp(ctx, tx, staff.uid, input.Code, now),
  );
}

/** WebAuthn creation options for the account of an enrolment ticket. */
export async function signInPasskeyRegistrationOptions(ctx: AppContext, ticketText: string, origin?: string) {
  const now = ctx.clock.now();
  const { staff } = await enrolTicket(ctx, ticketText, now);
  return registrationOptions(ctx, staff, origin, now);
}

/** Registers the passkey made at sign-in; answers the session pair and the recovery codes. */
export async function signInPasskeyRegister(
  ctx: AppContext,
  call: Caller,
  input: { Ticket: string; Name: string; Response: RegistrationJson },
) {
  const now = ctx.clock.now();
  const { ticket, staff } = await enrolTicket(ctx, input.Ticket, now);
  const verified = await checkRegistration(ctx, staff.uid, input.Response, now);
  return finishSignInEnrolment(ctx, call, staff, ticket, input.Ticket, now, 'passkey', async (tx) => {
    await storePasskey(tx, staff.uid, verified, input.Name, now);
  });
}

/**
 * The sign-in that set up its first factor, one write: the account's row first (its counts
 * cleared: see login in auth.service.ts), then the factor, the ticket spent (two uses cannot both
 * succeed), the session (while the password the ticket was issued on is still theirs), new
 * recovery codes, and the trail.
 */
async function finishSignInEnrolment(
  ctx: AppContext,
  call: Caller,
  staff: StaffRow,
  ticket: TicketRow,
  ticketText: string,
  now: Date,
  method: 'totp' | 'passkey',
  addFactor: (tx: Queryable) => Promise<void>,
) {
  const who = { at: now, actorUid: staff.uid, actorEmail: staff.email, clientAddress: call.clientAddress };
  return runWrite(ctx.db, {
    change: async (tx) => {
      await recordAccountSuccess(tx, staff.uid, now);
      await addFactor(tx);
      if (!(await spendTicket(tx, ticketText, 'enrol', now))) throw new AppError('secondStepInvalid');
      const pair = await openSession(tx, call, staff, ticket, now);
      if (!pair) throw new AppError('secondStepInvalid');
      return { ...pair, RecoveryCodes: await newRecoveryCodes(tx, staff.uid, now) };
    },
    trail: async (tx) => {
      await writeActivity(tx, { ...who, action: 'mfa.enrol', details: { method, atSignIn: true } });
      await writeActivity(tx, { ...who, action: 'login.success', details: { enrolled: method } });
    },
  });
}

// ---------------------------------------------------------------- passkey ceremonies

async function registrationOptions(
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

async function checkRegistration(ctx: AppContext, uid: string, response: RegistrationJson, now: Date) {
  const challenge = await takeChallenge(ctx.db, uid, 'register', now);
  if (!challenge) throw new AppError('mfaSetupInvalid', MFA_MESSAGES.passkeyExpired);
  const verified = await verifyPasskeyRegistration(ctx.config, response, challenge);
  if (!verified) throw new AppError('mfaSetupInvalid');
  return verified;
}

async function storePasskey(
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

// ---------------------------------------------------------------- my factors (account menu)

const needPassword = (ctx: AppContext, caller: Caller, me: StaffSession, password: string) =>
  checkCurrentPassword(ctx, caller, me, password, {
    failedAction: 'mfa.failed',
    via: 'second-factor-change',
    wrong: () => new AppError('wrongOldPassword', 'The password is not correct.'),
  });

export async function myFactors(ctx: AppContext, me: StaffSession) {
  const totp = await findTotp(ctx.db, me.uid);
  const passkeys = await passkeysOf(ctx.db, me.uid);
  const { recoveryLeft } = await factorsOf(ctx.db, me.uid);
  return {
    Required: ctx.config.staffMfa === 'required',
    Totp: totp?.confirmed_at
      ? { CreatedAt: isoOrNull(totp.confirmed_at)!, LastUsedAt: isoOrNull(totp.last_used_at) }
      : null,
    Passkeys: passkeys.map((p) => ({
      Id: p.id,
      Name: p.name,
      CreatedAt: isoOrNull(p.created_at)!,
      LastUsedAt: isoOrNull(p.last_used_at),
    })),
    RecoveryCodesLeft: recoveryLeft,
  };
}

export async function myTotpStart(ctx: AppContext, call: StaffCall, input: { password: string }) {
  const me = call.session;
  const { password } = input;
  const now = ctx.clock.now();
  if ((await factorsOf(ctx.db, me.uid)).totp) throw new AppError('mfaConflict', MFA_MESSAGES.totpAlreadyOn);
  await needPassword(ctx, call, me, password);
  return startTotp(ctx, me, now);
}

/**
 * Adds a factor: under the lock of the account, so the account's first factor (read there) also
 * gets its recovery codes, once, when two factors are added at once.
 */
async function addMyFactor(
  ctx: AppContext,
  caller: Caller,
  me: StaffSession,
  method: SecondFactorMethod,
  details: Record<string, unknown>,
  add: (tx: Queryable) => Promise<void>,
  message: string,
) {
  const now = ctx.clock.now();
  const RecoveryCodes = await runWrite(ctx.db, {
    lock: async (tx) => {
      await lockOwnAccount(tx, me.uid);
      return factorsOf(tx, me.uid);
    },
    change: async (tx, before) => {
      await add(tx);
      const first = !before.totp && before.passkeys === 0;
      return first ? await newRecoveryCodes(tx, me.uid, now) : undefined;
    },
    trail: (tx) =>
      writeActivity(tx, {
        at: now,
        actorUid: me.uid,
        actorEmail: me.email,
        clientAddress: caller.clientAddress,
        action: 'mfa.enrol',
        details: { method, ...details },
      }),
  });
  return { Message: message, ...(RecoveryCodes ? { RecoveryCodes } : {}) };
}

export function myTotpConfirm(ctx: AppContext, call: StaffCall, input: { Code: string }) {
  const me = call.session;
  const code = input.Code;
  const now = ctx.clock.now();
  return addMyFactor(
    ctx,
    call,
    me,
    'totp',
    {},
    (tx) => confirmTotp(ctx, tx, me.uid, code, now),
    MFA_MESSAGES.totpEnrolled,
  );
}

/** The passkey is for the console at `origin` (the call's Origin header). */
export async function myPasskeyOptions(
  ctx: AppContext,
  call: StaffCall,
  input: { password: string; origin: string | undefined },
) {
  const me = call.session;
  const { password, origin } = input;
  await needPassword(ctx, call, me, password);
  return registrationOptions(
    ctx,
    { uid: me.uid, email: me.email, full_name: me.name },
    origin,
    ctx.clock.now(),
  );
}

export async function myPasskeyAdd(
  ctx: AppContext,
  call: StaffCall,
  input: { Name: string; Response: RegistrationJson },
) {
  const me = call.session;
  const { Name: name, Response: response } = input;
  const now = ctx.clock.now();
  const verified = await checkRegistration(ctx, me.uid, response, now);
  return addMyFactor(
    ctx,
    call,
    me,
    'passkey',
    { name },
    async (tx) => {
      await storePasskey(tx, me.uid, verified, name, now);
    },
    MFA_MESSAGES.passkeyAdded,
  );
}

export async function myPasskeyRename(ctx: AppContext, call: StaffCall, input: { Id: number; Name: string }) {
  const me = call.session;
  const { Id: id, Name: name } = input;
  const now = ctx.clock.now();
  await runWrite(ctx.db, {
    change: async (tx) => {
      if (!(await renamePasskey(tx, me.uid, id, name)))
        throw new AppError('notFound', MFA_MESSAGES.passkeyNotYours);
    },
    trail: (tx) =>
      writeActivity(tx, {
        at: now,
        actorUid: me.uid,
        actorEmail: me.email,
        clientAddress: call.clientAddress,
        action: 'mfa.rename',
        details: { passkeyId: id, name },
      }),
  });
  return { Message: MFA_MESSAGES.passkeyRenamed };
}

/**
 * Removes a factor (after the password). With STAFF_MFA=required the last one stays; without
 * factors an account's recovery codes go too (they would be a password-only second step). The
 * checks before the password only spare it a call that cannot succeed; the change decides under
 * the lock of the account, so two removals at once cannot both take "one of two".
 */
async function removeMyFactor(
  ctx: AppContext,
  caller: Caller,
  me: StaffSession,
  password: string,
  which: 'totp' | { passkeyId: number },
) {
  const now = ctx.clock.now();
  const before = await factorsOf(ctx.db, me.uid);
  const has =
    which === 'totp' ? before.totp : (await passkeysOf(ctx.db, me.uid)).some((p) => p.id === which.passkeyId);
  if (!has)
    throw new AppError(
      'notFound',
      which === 'totp' ? 'No authenticator app is set up for this account.' : MFA_MESSAGES.passkeyNotYours,
    );
  const left = (before.totp ? 1 : 0) + before.passkeys - 1;
  if (left === 0 && ctx.config.staffMfa === 'required')
    throw new AppError('mfaLastFactor', MFA_MESSAGES.lastFactor);
  await needPassword(ctx, caller, me, password);
  await runWrite(ctx.db, {
    lock: (tx) => lockOwnAccount(tx, me.uid),
    change: async (tx) => {
      const removed =
        which === 'totp' ? await deleteTotp(tx, me.uid) : await deletePasskey(tx, me.uid, which.passkeyId);
      if (!removed) throw new AppError('notFound', MFA_MESSAGES.passkeyNotYours);
      const after = await factorsOf(tx, me.uid);
      if (!after.totp && after.passkeys === 0) {
        if (ctx.config.staffMfa === 'required') throw new AppError('mfaLastFactor', MFA_MESSAGES.lastFactor);
        await replaceRecoveryCodes(tx, me.uid, [], now);
      }
      return removed;
    },
    trail: (tx, removed) =>
      writeActivity(tx, {
        at: now,
        actorUid: me.uid,
        actorEmail: me.email,
        clientAddress: caller.clientAddress,
        action: 'mfa.remove',
        details:
          which === 'totp'
            ? { method: 'totp' }
            : { method: 'passkey', passkeyId: which.passkeyId, name: (removed as { name: string }).name },
      }),
  });
  return { Message: which === 'totp' ? MFA_MESSAGES.totpRemoved : MFA_MESSAGES.passkeyRemoved };
}

export const myTotpRemove = (ctx: AppContext, call: StaffCall, input: { password: string }) =>
  removeMyFactor(ctx, call, call.session, input.password, 'totp');

export const myPasskeyRemove = (ctx: AppContext, call: StaffCall, input: { Id: number; password: string }) =>
  removeMyFactor(ctx, call, call.session, input.password, { passkeyId: input.Id });

export async function myRecoveryCodesRenew(ctx: AppContext, call: StaffCall, input: { password: string }) {
  const me = call.session;
  const { password } = input;
  const now = ctx.clock.now();
  const f = await factorsOf(ctx.db, me.uid);
  if (!f.totp && f.passkeys === 0) throw new AppError('mfaConflict', MFA_MESSAGES.noFactor);
  await needPassword(ctx, call, me, password);
  const RecoveryCodes = await runWrite(ctx.db, {
    // Checked again under the lock of the account: a factor removed meanwhile leaves none.
    lock: async (tx) => {
      await lockOwnAccount(tx, me.uid);
      const left = await factorsOf(tx, me.uid);
      if (!left.totp && left.passkeys === 0) throw new AppError('mfaConflict', MFA_MESSAGES.noFactor);
    },
    change: (tx) => newRecoveryCodes(tx, me.uid, now),
    trail: (tx) =>
      writeActivity(tx, {
        at: now,
        actorUid: me.uid,
        actorEmail: me.email,
        clientAddress: call.clientAddress,
        action: 'recovery.renew',
      }),
  });
  return { Message: MFA_MESSAGES.recoveryRenewed, RecoveryCodes };
}

// ---------------------------------------------------------------- a SuperAdmin's reset

/**
 * A SuperAdmin removes a colleague's factors and recovery codes (a lost phone, a lost key): their
 * sessions end too, the reset is in the activity log, and the colleague gets a mail about it.
 */
export async function resetStaffFactors(ctx: AppContext, call: StaffCall, input: { uid: string }) {
  const actor = call.session;
  const { uid } = input;
  if (!actor.roles.includes(ROLE_SUPER_ADMIN)) throw superAdminOnly();
  if (uid === actor.uid)
    throw new AppError('ownAccount', 'Your own second factors are managed under Sign-in security.');
  const now = ctx.clock.now();
  const { target } = await runWrite(ctx.db, {
    // The colleague's row and the actor's, locked; the role rules and the cool-down on them (948).
    lock: (tx) => lockColleague(ctx, tx, actor.uid, uid, now),
    change: async (tx, target) => ({
      target,
      removed: await deleteAllFactors(tx, uid),
      ended: await revokeUserSessions(tx, uid, now, 'factors-reset'),
    }),
    trail: async (tx, { target, removed, ended }) => {
      await writeActivity(tx, {
        at: now,
        actorUid: actor.uid,
        actorEmail: actor.email,
        clientAddress: call.clientAddress,
        action: 'mfa.reset',
        targetType: 'staff',
        targetId: uid,
        details: { of: target.email, totp: removed.totp, passkeys: removed.passkeys, sessionsEnded: ended },
      });
      // The reset has its own mail (below): the notification is in-app only.
      await notifySessionsEnded(tx, ctx, {
        uid,
        actorEmail: actor.email,
        count: ended,
        because: 'reset your second factors',
        mailed: true,
      });
      await ctx.mailer.send(
        tx,
        factorsResetMail({
          to: target.email,
          name: target.full_name,
          by: actor.email,
          required: ctx.config.staffMfa === 'required',
        }),
      );
    },
  });
  return { Message: MFA_MESSAGES.resetDone(target.email) };
}
