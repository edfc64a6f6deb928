import { MFA_MESSAGES, type StepUpInput } from '@sac/contract/mfa';
import { STEP_UP_MESSAGES } from '@sac/contract/step-up';
import type { AppContext, StaffSession } from '../../app-context.ts';
import { firstRow, qb } from '../../db/sql.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { verifyPassword } from '../../lib/password-hash.ts';
import { runWrite } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { checkOwnProof } from './auth.service.ts';
import { factorsOf } from './mfa.repo.ts';
import { passkeyChallenge, secondFactorIsRight, wrongFactorError } from './second-factors.ts';
import { markSessionVerified } from './sessions.repo.ts';

/*
 * Step-up (docs/decisions.md, "Step-up: a recent proof, not a second sign-in"): a sensitive action
 * (an endpoint marked stepUp, or an approval) needs the session's holder to have proved who they
 * are within STEP_UP_MINUTES: at the session's sign-in, or here, with a second factor (the
 * password for an account without one). A wrong answer counts towards the lockout exactly as a
 * wrong sign-in does, so a stolen session cannot guess a code faster than the sign-in screen.
 */

/** Whether the session's last sign-in or step-up is within the window. */
export const recentlyVerified = (session: StaffSession, now: Date, windowMs: number): boolean =>
  now.getTime() - session.verifiedAt.getTime() <= windowMs;

/** Throws 911 unless the session's last sign-in or step-up is within STEP_UP_MINUTES. */
export function requireRecentProof(ctx: AppContext, session: StaffSession): void {
  if (session.apiToken) throw new AppError('tokenNotAllowed', STEP_UP_MESSAGES.tokenCannot);
  if (!recentlyVerified(session, ctx.clock.now(), ctx.config.stepUpWindowMs))
    throw new AppError('stepUpRequired');
}

/**
 * The account's factors as step-up methods; without one, its password, unless it has none (an
 * account made by single sign-on or SCIM: '!sso', '!scim'), which can only sign in again.
 */
async function methodsOf(ctx: AppContext, uid: string) {
  const f = await factorsOf(ctx.db, uid);
  const methods: ('passkey' | 'totp' | 'recovery')[] = [];
  if (f.passkeys > 0) methods.push('passkey');
  if (f.totp) methods.push('totp');
  if (f.recoveryLeft > 0 && methods.length > 0) methods.push('recovery');
  if (methods.length > 0) return methods;
  const hash = (await firstRow(ctx.db, qb.selectFrom('staff').select('password_hash').where('uid', '=', uid)))
    ?.password_hash;
  return hash === undefined || hash.startsWith('!') ? (['sign-in'] as const) : (['password'] as const);
}

const verifiedUntil = (ctx: AppContext, at: Date) =>
  new Date(at.getTime() + ctx.config.stepUpWindowMs).toISOString();

export async function stepUpStatus(ctx: AppContext, session: StaffSession) {
  return {
    Methods: [...(await methodsOf(ctx, session.uid))],
    WindowMinutes: ctx.config.stepUpWindowMs / 60_000,
    VerifiedUntil: verifiedUntil(ctx, session.verifiedAt),
  };
}

/** WebAuthn request options for a step-up with one of the caller's passkeys. */
export async function stepUpPasskeyOptions(
  ctx: AppContext,
  session: StaffSession,
  origin: string | undefined,
) {
  return passkeyChallenge(
    ctx,
    session.uid,
    origin,
    ctx.clock.now(),
    () => new AppError('wrongSecondFactor', MFA_MESSAGES.passkeyRefused),
  );
}

/**
 * Checks the proof (counted before the check, as a sign-in's), then marks the session verified
 * now, with its trail row. The password is refused to an account that has a second factor.
 */
export async function stepUp(ctx: AppContext, call: StaffCall, input: StepUpInput) {
  const { session } = call;
  const now = ctx.clock.now();
  const methods: readonly string[] = await methodsOf(ctx, session.uid);
  if (!methods.includes(input.Method))
    throw methods.includes('sign-in')
      ? new AppError('validation', STEP_UP_MESSAGES.signInAgain)
      : input.Method === 'password'
        ? new AppError('validation', STEP_UP_MESSAGES.useFactor)
        : wrongFactorError(input.Method);
  await checkOwnProof(ctx, call, session, {
    isRight: (staff) =>
      input.Method === 'password'
        ? verifyPassword(staff.password_hash, input.Password)
        : secondFactorIsRight(ctx, session.uid, input, now),
    kind: input.Method === 'password' ? 'password' : 'second-step',
    failedAction: 'stepup.failed',
    details: { method: input.Method },
    via: 'step-up',
    wrong: () =>
      input.Method === 'password'
        ? new AppError('wrongOldPassword', STEP_UP_MESSAGES.wrongPassword)
        : wrongFactorError(input.Method),
  });
  await runWrite(ctx.db, {
    change: async (tx) => {
      if (!(await markSessionVerified(tx, session.sessionId, now))) throw new AppError('unauthenticated');
    },
    trail: (tx) =>
      writeActivity(tx, {
        at: now,
        actorUid: session.uid,
        actorEmail: session.email,
        clientAddress: call.clientAddress,
        action: 'stepup.success',
        details: { method: input.Method },
      }),
  });
  return { Message: STEP_UP_MESSAGES.done, VerifiedUntil: verifiedUntil(ctx, now) };
}
