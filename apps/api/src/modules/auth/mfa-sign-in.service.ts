import { MFA_MESSAGES } from '@sac/contract/mfa';
import type { AppContext, Caller } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { runWrite } from '../../lib/write-path.ts';
import { recordEvent, writeActivity } from '../activity/activity.service.ts';
import { openSignedInSession, signedInAnswer } from './accept-sign-in.ts';
import { lockedError } from './auth.service.ts';
import {
  addressInDatabase,
  admitSignIn,
  attemptFailed,
  busyError,
  checkAdmitted,
  forgiveInStore,
  recordAccountSuccess,
} from './login-throttle.ts';
import { factorsOf, liveTicket, spendTicket, type TicketRow } from './mfa.repo.ts';
import {
  checkRegistration,
  confirmTotp,
  newRecoveryCodes,
  passkeyChallenge,
  registrationOptions,
  secondFactorIsRight,
  startTotp,
  storePasskey,
  wrongFactorError,
} from './second-factors.ts';
import { createSignInSession } from './sessions.repo.ts';
import { findStaffByUid, type StaffRow } from './staff.repo.ts';
import type { AssertionJson, RegistrationJson } from './webauthn.ts';

/**
 * The second factors of a sign-in (docs/decisions.md, "Two-step sign-in"): the second step, and
 * the set-up a sign-in may require first (STAFF_MFA=required).
 */

// ---------------------------------------------------------------- sign-in: the second step

type SecondStepInput =
  | { Ticket: string; Method: 'totp' | 'recovery'; Code: string }
  | { Ticket: string; Method: 'passkey'; Response: AssertionJson };

type SignInAudit = { at: Date; clientAddress: string };
type Who = SignInAudit & { actorUid: string; actorEmail: string };

/**
 * The second step: a passkey assertion, a one-time code or a recovery code for the ticket of a
 * right password. Counted before it is checked, per address and per account, exactly as a
 * password is: a wrong factor is a failed sign-in towards the lockout. Answers the session pair;
 * the ticket is spent only by a success.
 */
export async function secondStep(ctx: AppContext, call: Caller, input: SecondStepInput) {
  const now = ctx.clock.now();
  const audit = { at: now, clientAddress: call.clientAddress };
  const { staff, ticket } = await admitSecondStep(ctx, call, input, audit);
  const who = { ...audit, actorUid: staff.uid, actorEmail: staff.email };
  // Ends with its verdict's write, or is released (as a password's attempt, auth.service.ts).
  return checkAdmitted(ctx, { uid: staff.uid, address: call.clientAddress, at: now }, async (settled) => {
    if (!(await secondFactorIsRight(ctx, staff.uid, input, now))) {
      await recordWrongFactor(ctx, staff.uid, input.Method, who);
      settled();
      throw wrongFactorError(input.Method);
    }
    const answer = await completeSecondStep(ctx, call, staff, ticket, input, who);
    settled();
    // Another store's count is taken back once the sign-in has committed, not from inside its write.
    await forgiveInStore(ctx.addressFailures, call.clientAddress, now);
    return answer;
  });
}

/**
 * The ticket read, then the attempt counted before its check (the address's count, the account
 * read and the attempt admitted in one statement, as a password's: admitSignIn). Throws, with
 * its trail row, for an unknown ticket, an address over its budget, or a locked account.
 */
async function admitSecondStep(ctx: AppContext, call: Caller, input: SecondStepInput, audit: SignInAudit) {
  const now = audit.at;
  const throttled = async () => {
    await recordEvent(ctx.db, { ...audit, action: 'login.throttled', details: { via: 'second-step' } });
    return new AppError('tooManyAttempts');
  };
  const badTicket = async () => {
    await recordEvent(ctx.db, { ...audit, action: 'mfa.failed', details: { reason: 'ticket' } });
    return new AppError('secondStepInvalid');
  };
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
  if (admission.kind === 'busy') throw busyError();
  if (admission.kind === 'locked') {
    await recordEvent(ctx.db, {
      ...audit,
      actorUid: staff.uid,
      actorEmail: staff.email,
      action: 'mfa.failed',
      details: { method: input.Method, reason: 'locked' },
    });
    throw lockedError(admission.until, now, MFA_MESSAGES.locked);
  }
  return { staff, ticket };
}

/** A wrong factor's one write: the failed attempt counted towards the lockout, and the trail. */
async function recordWrongFactor(ctx: AppContext, uid: string, method: SecondStepInput['Method'], who: Who) {
  await runWrite(ctx.db, {
    change: (tx) => attemptFailed(tx, uid, 'second-step', who.at),
    trail: async (tx, lockedUntil) => {
      await writeActivity(tx, { ...who, action: 'mfa.failed', details: { method, reason: 'wrong-factor' } });
      if (lockedUntil)
        await writeActivity(tx, {
          ...who,
          action: 'login.lockout',
          targetType: 'staff',
          targetId: uid,
          details: { lockedUntil: lockedUntil.toISOString(), via: 'second-step' },
        });
    },
  });
}

/**
 * A right factor's one write: the account's row first (its write lock, see login), its counts
 * cleared, with the session (while the password the ticket was issued on is still theirs) and
 * the address's count taken back; then the ticket, spent: two uses cannot both succeed.
 */
function completeSecondStep(
  ctx: AppContext,
  call: Caller,
  staff: StaffRow,
  ticket: TicketRow,
  input: SecondStepInput,
  who: Who,
) {
  const now = who.at;
  return runWrite(ctx.db, {
    change: async (tx) => {
      const answer = await openSignedInSession(
        tx,
        call,
        staff,
        ticket.password_hash,
        addressInDatabase(ctx.addressFailures, call.clientAddress, now),
        now,
      );
      if (!answer || !(await spendTicket(tx, input.Ticket, 'verify', now)))
        throw new AppError('secondStepInvalid');
      return answer;
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
}

/** WebAuthn request options for the ticket's account: a fresh challenge, its passkeys allowed. */
export async function signInPasskeyOptions(ctx: AppContext, ticketText: string, origin: string | undefined) {
  const now = ctx.clock.now();
  const ticket = await liveTicket(ctx.db, ticketText, 'verify', now);
  if (!ticket) throw new AppError('secondStepInvalid');
  return passkeyChallenge(
    ctx,
    ticket.uid,
    origin,
    now,
    () => new AppError('secondStepInvalid', MFA_MESSAGES.passkeyRefused),
  );
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
