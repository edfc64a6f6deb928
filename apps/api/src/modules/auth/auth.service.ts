import { RESET_VTYPE, SUCCESS_MESSAGES } from '@sac/contract/auth';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import { consoleResetPage } from '../../lib/console-url.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../lib/password-hash.ts';
import { runWrite } from '../../lib/write-path.ts';
import { type ActivityAction, recordEvent, writeActivity } from '../activity/activity.service.ts';
import { acceptSignIn } from './accept-sign-in.ts';
import { refuseSignInOutsideAllowlist } from './api-tokens.service.ts';
import { resetPasswordMail } from './auth.mails.ts';
import {
  admitSignIn,
  attemptFailed,
  busyError,
  checkAdmitted,
  forgiveAddress,
  passwordRight,
} from './login-throttle.ts';
import { revokeSession, revokeUserSessions } from './sessions.repo.ts';
import { readSsoSettings } from './sso.repo.ts';
import { findStaffByEmail, lockStaffRow, type StaffRow, setPassword } from './staff.repo.ts';
import { consumeToken, isLiveToken, issueToken, tokensIssuedSince } from './tokens.repo.ts';

/**
 * Sign-in. Unknown email, wrong password and locked account all answer 'Please use valid
 * credentials.' (no account enumeration); an address over its daily failure budget gets 429
 * (904), and an attempt at an account whose budget is taken by attempts still being checked gets
 * 429 (984, try again in a moment): it is not known to be wrong.
 *
 * Every attempt is counted, per address and per account, before its password is checked, and
 * only attempts within both budgets are checked: one statement (admitSignIn) counts the address,
 * reads the account and its second factors and admits the attempt, committed before the hash, so
 * attempts sent together lock exactly as the same attempts sent one after another. After the
 * hash, everything the sign-in writes (the account's count, the ticket or the session, the
 * address's count taken back, the trail) is one write (runWrite).
 */
export async function login(ctx: AppContext, call: Caller, input: { email: string; password: string }) {
  const { email, password } = input;
  const now = ctx.clock.now();
  const audit = { at: now, actorEmail: email, clientAddress: call.clientAddress };
  await refuseSignInOutsideAllowlist(ctx, call.clientAddress, email);
  // Password sign-in off (single sign-on, docs/operations.md): only the break-glass account may,
  // and every refusal answers alike (1103), so the answer does not tell which account that is.
  const breakGlass = await passwordSignInGate(ctx, email, password, audit);
  const attempt = await admitSignIn(
    ctx.db,
    ctx.addressFailures,
    ctx.config.loginAddressDailyFailures,
    { email },
    call.clientAddress,
    now,
  );
  if (attempt.throttled) {
    await recordEvent(ctx.db, { ...audit, action: 'login.throttled' });
    throw new AppError('tooManyAttempts');
  }
  const refused = () => new AppError(breakGlass ? 'passwordSignInOff' : 'invalidCredentials');
  const { staff, admission } = attempt;
  if (admission?.kind === 'busy') throw busyError();
  if (!staff || admission?.kind !== 'admitted') {
    await verifyAgainstDummy(password);
    await refuseSignIn(ctx, audit, staff, staff ? 'locked' : 'unknown-email');
    throw refused();
  }
  // An admitted attempt ends with its verdict's write; one that never commits (an error, a
  // password changed under it) is released and spends neither budget (checkAdmitted).
  return checkAdmitted(ctx, { uid: staff.uid, address: call.clientAddress, at: now }, async (settled) => {
    if (!(await verifyPassword(staff.password_hash, password))) {
      await refuseSignIn(ctx, audit, staff, 'wrong-password');
      settled();
      throw refused();
    }
    const who = { ...audit, actorUid: staff.uid, actorEmail: staff.email };
    const answer = await acceptSignIn(ctx, call, staff, attempt.factors, audit, {
      action: 'login.success',
      ...(breakGlass
        ? {
            trail: (tx) =>
              writeActivity(tx, {
                ...who,
                action: 'login.break-glass',
                targetType: 'staff',
                targetId: staff.uid,
              }),
          }
        : {}),
    });
    settled();
    return answer;
  });
}

/**
 * Whether password sign-in is off and this is the break-glass account's email (true), or on
 * (false); off and any other email: refused here, the hash's time spent, with its trail row.
 */
async function passwordSignInGate(ctx: AppContext, email: string, password: string, audit: SignInAudit) {
  const sso = await readSsoSettings(ctx.db);
  if (!sso || sso.password_sign_in) return false;
  if (sso.break_glass_email && sso.break_glass_email.toLowerCase() === email.toLowerCase()) return true;
  // Counted against the address before any hashing, as a wrong password is: the refusal is no
  // free hashing, and the address's throttle answers alike for every account.
  if (
    (await ctx.addressFailures.recordFailure(audit.clientAddress, audit.at)) >
    ctx.config.loginAddressDailyFailures
  ) {
    await recordEvent(ctx.db, {
      ...audit,
      action: 'login.throttled',
      details: { via: 'password-sign-in-off' },
    });
    throw new AppError('tooManyAttempts');
  }
  await verifyAgainstDummy(password);
  await recordEvent(ctx.db, {
    ...audit,
    action: 'login.failed',
    details: { reason: 'password-sign-in-off' },
  });
  throw new AppError('passwordSignInOff');
}

type SignInAudit = { at: Date; actorEmail: string; clientAddress: string };

/**
 * A refused sign-in: a wrong password counted (and the lock it sets) with its trail, one write;
 * an unknown email or a locked account changes nothing, so its trail row is a statement of its own.
 */
async function refuseSignIn(
  ctx: AppContext,
  audit: SignInAudit,
  staff: StaffRow | undefined,
  reason: 'unknown-email' | 'locked' | 'wrong-password',
): Promise<void> {
  const failed = { ...audit, actorUid: staff?.uid, action: 'login.failed', details: { reason } } as const;
  if (!staff || reason !== 'wrong-password') {
    await recordEvent(ctx.db, failed);
    return;
  }
  await runWrite(ctx.db, {
    change: (tx) => attemptFailed(tx, staff.uid, 'password', audit.at),
    trail: async (tx, lockedUntil) => {
      await writeActivity(tx, failed);
      if (lockedUntil)
        await writeActivity(tx, {
          ...audit,
          actorUid: staff.uid,
          action: 'login.lockout',
          targetType: 'staff',
          targetId: staff.uid,
          details: { lockedUntil: lockedUntil.toISOString() },
        });
    },
  });
}

export async function logout(ctx: AppContext, call: StaffCall) {
  const { session } = call;
  const now = ctx.clock.now();
  await runWrite(ctx.db, {
    change: (tx) => revokeSession(tx, session.sessionId, now, 'logout'),
    trail: (tx) =>
      writeActivity(tx, {
        at: now,
        actorUid: session.uid,
        actorEmail: session.email,
        action: 'logout',
        clientAddress: call.clientAddress,
      }),
  });
  return { IsPosted: true, Message: SUCCESS_MESSAGES.logout };
}

/**
 * Reset mails one account gets per rolling hour. Past it the answer is the same (so it tells
 * nothing about the account) but no mail goes out: a stranger cannot fill someone's inbox.
 */
export const RESET_MAILS_PER_HOUR = 5;

/**
 * Mails a reset link when the email is known (within the limit); answers the same either way, and
 * in the same time: the request does one lookup and one audit row whatever the email, and the
 * token and the mail are written just after the answer.
 */
export async function forgotPassword(ctx: AppContext, call: Caller, input: { email: string; url: string }) {
  const { email } = input;
  const page = consoleResetPage(ctx.config, input.url);
  const now = ctx.clock.now();
  const staff = await findStaffByEmail(ctx.db, email);
  await recordEvent(ctx.db, {
    at: now,
    actorUid: staff?.uid,
    actorEmail: email,
    action: 'password.forgot',
    clientAddress: call.clientAddress,
    details: { known: Boolean(staff) },
  });
  if (staff) ctx.mailer.afterAnswer(() => mailResetLink(ctx, staff, page, now));
  return { IsPosted: true, Message: SUCCESS_MESSAGES.forgotPassword };
}

/**
 * The token and its mail, one write; past RESET_MAILS_PER_HOUR, nothing but a trail row. The
 * account's row is locked first, and its links of the last hour counted under that lock, so that
 * requests arriving together count each other's links.
 */
async function mailResetLink(
  ctx: AppContext,
  staff: { uid: string; email: string; full_name: string },
  page: URL,
  now: Date,
): Promise<void> {
  await runWrite(ctx.db, {
    lock: async (tx) => {
      await lockStaffRow(tx, staff.uid);
      const since = new Date(now.getTime() - 3_600_000);
      return { overLimit: (await tokensIssuedSince(tx, staff.uid, 'reset', since)) >= RESET_MAILS_PER_HOUR };
    },
    change: async (tx, { overLimit }) =>
      overLimit
        ? undefined
        : issueToken(tx, { uid: staff.uid, purpose: 'reset', at: now, ttlMs: ctx.config.resetTokenTtlMs }),
    // The request's own trail row (password.forgot) is written when it is answered; here the
    // link's mail (an outbox row), or the trail row of a link refused by the limit.
    trail: async (tx, token) => {
      if (token === undefined) {
        await writeActivity(tx, {
          at: now,
          actorUid: staff.uid,
          actorEmail: staff.email,
          action: 'password.forgot',
          details: { known: true, mailed: false, reason: 'reset-mail-limit' },
        });
        return;
      }
      page.searchParams.set('vtype', RESET_VTYPE);
      page.searchParams.set('vtoken', token);
      await ctx.mailer.send(
        tx,
        resetPasswordMail({
          to: staff.email,
          name: staff.full_name,
          resetUrl: page.toString(),
          ttlMinutes: Math.round(ctx.config.resetTokenTtlMs / 60_000),
        }),
      );
    },
  });
}

/**
 * Spends a reset (or invitation) token, sets the password and ends every session of that user.
 * The token is looked up before the new password is hashed: a bogus token costs one indexed read,
 * not a hash in the queue that sign-ins wait in. It is spent (and checked again) after the hash,
 * as the write's lock: a token spent meanwhile changes nothing.
 */
export async function resetPassword(
  ctx: AppContext,
  call: Caller,
  input: { password: string; resettoken: string },
) {
  const { password, resettoken } = input;
  const now = ctx.clock.now();
  const live = await isLiveToken(ctx.db, resettoken, ['reset', 'invite'], now);
  const passwordHash = live ? await hashPassword(password) : undefined;
  const done =
    passwordHash &&
    (await runWrite(ctx.db, {
      lock: (tx) => consumeToken(tx, resettoken, ['reset', 'invite'], now),
      change: async (tx, token) => {
        if (!token) return undefined;
        await setPassword(tx, token.uid, passwordHash, now);
        return { token, ended: await revokeUserSessions(tx, token.uid, now, 'password-reset') };
      },
      // No token spent, nothing changed: the refusal's own trail row follows.
      trail: async (tx, done) => {
        if (!done) return;
        await writeActivity(tx, {
          at: now,
          actorUid: done.token.uid,
          action: 'password.reset',
          clientAddress: call.clientAddress,
          details: { via: done.token.purpose, sessionsEnded: done.ended },
        });
      },
    }));
  if (!done) {
    await recordEvent(ctx.db, {
      at: now,
      action: 'password.reset.failed',
      clientAddress: call.clientAddress,
    });
    throw new AppError('invalidResetToken');
  }
  return {
    IsPosted: true,
    Message:
      done.token.purpose === 'invite' ? SUCCESS_MESSAGES.invitationAccepted : SUCCESS_MESSAGES.resetPassword,
  };
}

/**
 * Needs the old password; ends the user's other sessions and keeps the one making the change.
 * A wrong old password counts as a failed sign-in of the account and of the address, counted
 * before the check: a held session cannot guess the password faster than the sign-in screen.
 */
export async function changePassword(
  ctx: AppContext,
  call: StaffCall,
  input: { oldpassword: string; newpassword: string },
) {
  const { session } = call;
  const { oldpassword, newpassword } = input;
  const now = ctx.clock.now();
  if (oldpassword === newpassword) throw new AppError('samePassword');
  await checkOwnProof(ctx, call, session, {
    failedAction: 'password.change.failed',
    via: 'password-change',
    wrong: () => new AppError('wrongOldPassword'),
    kind: 'password',
    // The old password, or the new one already set: a repeat of a change made meanwhile (a second
    // submit, read after the first committed) proves the current password, and is answered as
    // done rather than counted as a wrong guess.
    isRight: async (staff) =>
      (await verifyPassword(staff.password_hash, oldpassword)) ||
      verifyPassword(staff.password_hash, newpassword),
  });
  const passwordHash = await hashPassword(newpassword);
  await runWrite(ctx.db, {
    change: async (tx) => {
      await setPassword(tx, session.uid, passwordHash, now);
      return revokeUserSessions(tx, session.uid, now, 'password-change', session.sessionId);
    },
    trail: (tx, ended) =>
      writeActivity(tx, {
        at: now,
        actorUid: session.uid,
        actorEmail: session.email,
        clientAddress: call.clientAddress,
        action: 'password.change',
        details: { sessionsEnded: ended },
      }),
  });
  return { IsPosted: true, Message: SUCCESS_MESSAGES.changePassword };
}

/**
 * Checks the signed-in user's current password before a sensitive change (a new password, a
 * second factor added or removed): checkOwnProof with the password.
 */
export function checkCurrentPassword(
  ctx: AppContext,
  caller: Caller,
  session: StaffSession,
  password: string,
  how: { failedAction: ActivityAction; via: string; wrong: () => AppError },
): Promise<void> {
  return checkOwnProof(ctx, caller, session, {
    ...how,
    kind: 'password',
    isRight: (staff) => verifyPassword(staff.password_hash, password),
  });
}

/**
 * Checks a proof the signed-in user gives of who they are (their password, or a second factor at
 * a step-up). A wrong one counts as a failed sign-in of the account and of the address, counted
 * before the check: a held session cannot guess faster than the sign-in screen (admitted as a
 * sign-in's attempt is). Throws `wrong()` on a wrong proof, 974 while the account is locked, 984
 * while its budget is taken by attempts being checked.
 */
export async function checkOwnProof(
  ctx: AppContext,
  caller: Caller,
  session: StaffSession,
  how: {
    isRight: (staff: { uid: string; password_hash: string }) => Promise<boolean>;
    /** Which count a wrong proof adds to: the wrong passwords or the wrong second steps. */
    kind: 'password' | 'second-step';
    failedAction: ActivityAction;
    details?: Record<string, unknown>;
    via: string;
    wrong: () => AppError;
  },
): Promise<void> {
  const now = ctx.clock.now();
  const audit = {
    at: now,
    actorUid: session.uid,
    actorEmail: session.email,
    clientAddress: caller.clientAddress,
  };
  // One statement, as a sign-in's: the address counted, the account read and admitted.
  const attempt = await admitSignIn(
    ctx.db,
    ctx.addressFailures,
    ctx.config.loginAddressDailyFailures,
    { uid: session.uid },
    caller.clientAddress,
    now,
  );
  if (attempt.throttled) {
    await recordEvent(ctx.db, { ...audit, action: 'login.throttled', details: { via: how.via } });
    throw new AppError('tooManyAttempts');
  }
  const { staff, admission } = attempt;
  if (admission?.kind === 'busy') throw busyError();
  if (!staff || admission?.kind !== 'admitted') {
    await recordEvent(ctx.db, {
      ...audit,
      action: how.failedAction,
      details: { ...how.details, reason: 'locked' },
    });
    throw lockedError(admission?.kind === 'locked' ? admission.until : null, now);
  }
  await checkAdmitted(ctx, { uid: staff.uid, address: caller.clientAddress, at: now }, async (settled) => {
    if (!(await how.isRight(staff))) {
      await runWrite(ctx.db, {
        change: (tx) => attemptFailed(tx, staff.uid, how.kind, now),
        trail: async (tx, lockedUntil) => {
          await writeActivity(tx, {
            ...audit,
            action: how.failedAction,
            details: { ...how.details, reason: how.kind === 'password' ? 'wrong-password' : 'wrong-factor' },
          });
          if (lockedUntil)
            await writeActivity(tx, {
              ...audit,
              action: 'login.lockout',
              targetType: 'staff',
              targetId: staff.uid,
              details: { lockedUntil: lockedUntil.toISOString(), via: how.via },
            });
        },
      });
      settled();
      throw how.wrong();
    }
    // As at a sign-in with a second factor: the wrong passwords are forgotten, the rest stays.
    await runWrite(ctx.db, {
      change: async (tx) => {
        // The address's row before the account's, in the order a sign-in takes them (sign-in.repo.ts).
        await forgiveAddress(ctx.addressFailures, tx, caller.clientAddress, now);
        await passwordRight(tx, staff.uid);
      },
      trail: {
        none: "the attempt's verdict on its own account's counts; the change it guards writes the trail row",
      },
    });
    settled();
  });
}

/** 974 with Retry-After: the account is locked until `until` (or was just found locked). */
export function lockedError(until: Date | null, now: Date, description?: string): AppError {
  const end = until ? new Date(until).getTime() : now.getTime();
  return Object.assign(new AppError('accountLocked', description), {
    retryAfterSeconds: Math.max(1, Math.ceil((end - now.getTime()) / 1000)),
  });
}

export function sessionInfo(session: StaffSession) {
  return {
    Email: session.email,
    Name: session.name,
    Role: session.roles,
    Permissions: [...session.permissions].sort(),
    Uid: session.uid,
  };
}
