import { SECOND_STEP_TTL_MINUTES, type SecondFactorMethod } from '@sac/contract/mfa';
import type { AppContext, Caller } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { runWrite, type WriteTx } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { addressInDatabase, forgiveInStore } from './login-throttle.ts';
import { issuePasswordTicket, openPasswordSession } from './sign-in.repo.ts';
import type { StaffRow } from './staff.repo.ts';

/**
 * A sign-in once its first factor is in (a password in auth.service.ts, the OpenID provider in
 * sso.service.ts): the ticket to the second step, or the session, one write each.
 */

type SignInAudit = { at: Date; actorEmail: string; clientAddress: string };

/** How a first factor was proved, for acceptSignIn: a password, or the OpenID provider (sso.service.ts). */
export interface SignInHow {
  /** The trail action of a completed sign-in: login.success, or login.sso. */
  action: 'login.success' | 'login.sso';
  details?: Record<string, unknown>;
  /** The provider's amr/acr counted as the second factor: no local step. */
  secondFactorDone?: boolean;
  /** Changes made in the same write, before the ticket or session (an account made, roles set). */
  before?: (tx: WriteTx) => Promise<void>;
  /** Trail rows of the same write, besides the sign-in's own. */
  trail?: (tx: WriteTx) => Promise<void>;
}

/**
 * A right first factor's one write: the ticket to the second step, or the session, each one
 * statement with the account's counts and the address's count (sign-in.repo.ts), and the trail
 * row. A second factor, or the set-up of a first one (STAFF_MFA=required), stands between the
 * first factor and the session: the answer is then a single-use ticket to that step, not the pair.
 * The ticket and the session are bound to the password hash read under the attempt's admission: a
 * reset racing the sign-in wins.
 */
export async function acceptSignIn(
  ctx: AppContext,
  call: Caller,
  staff: StaffRow,
  factors: { totp: boolean; passkeys: number; recoveryLeft: number },
  audit: SignInAudit,
  how: SignInHow = { action: 'login.success' },
) {
  const now = audit.at;
  const who = { ...audit, actorUid: staff.uid, actorEmail: staff.email };
  const forgive = addressInDatabase(ctx.addressFailures, call.clientAddress, now);
  const hasFactor = factors.totp || factors.passkeys > 0;
  const via = how.action === 'login.sso' ? { via: 'sso' } : {};
  if (!how.secondFactorDone && (hasFactor || ctx.config.staffMfa === 'required')) {
    const kind: 'verify' | 'enrol' = hasFactor ? 'verify' : 'enrol';
    const { ticket, expiresAt } = await runWrite(ctx.db, {
      change: async (tx) => {
        await how.before?.(tx);
        const issued = await issuePasswordTicket(
          tx,
          {
            uid: staff.uid,
            kind,
            passwordHash: staff.password_hash,
            at: now,
            ttlMs: SECOND_STEP_TTL_MINUTES * 60_000,
          },
          forgive,
        );
        if (!issued) throw new AppError('invalidCredentials');
        return issued;
      },
      trail: async (tx) => {
        await how.trail?.(tx);
        await writeActivity(tx, { ...who, action: 'login.second-step', details: { kind, ...via } });
      },
    });
    // Another store's count is taken back once the ticket is committed, not from inside its write
    // (a write rolled back after it would leave the count taken back twice: checkAdmitted).
    await forgiveInStore(ctx.addressFailures, call.clientAddress, now);
    const methods: SecondFactorMethod[] = [];
    if (factors.passkeys > 0) methods.push('passkey');
    if (factors.totp) methods.push('totp');
    if (factors.recoveryLeft > 0) methods.push('recovery');
    return {
      SecondStep: { Ticket: ticket, ExpiresAt: expiresAt.toISOString(), Kind: kind, Methods: methods },
      Email: staff.email,
    };
  }
  const answer = await runWrite(ctx.db, {
    change: async (tx) => {
      await how.before?.(tx);
      // Only while the password just checked is still the user's: a reset or deletion racing this
      // sign-in wins (rolled back), and the caller hears what a wrong password would tell them.
      const made = await openSignedInSession(tx, call, staff, staff.password_hash, forgive, now);
      if (!made) throw new AppError('invalidCredentials');
      return made;
    },
    trail: async (tx) => {
      await how.trail?.(tx);
      await writeActivity(tx, {
        ...who,
        action: how.action,
        ...(how.details ? { details: how.details } : {}),
      });
    },
  });
  // Another store's count is taken back once the sign-in has committed, not from inside its write.
  await forgiveInStore(ctx.addressFailures, call.clientAddress, now);
  return answer;
}

/**
 * The session of a sign-in whose password (`passwordHash`, the one checked) is still the
 * account's, the address's count taken back with it (`forgive`): the pair and who signed in,
 * undefined when the password is no longer theirs.
 */
export async function openSignedInSession(
  tx: Queryable,
  call: Caller,
  staff: StaffRow,
  passwordHash: string,
  forgive: Parameters<typeof openPasswordSession>[3],
  now: Date,
) {
  const session = await openPasswordSession(
    tx,
    { uid: staff.uid, at: now, clientAddress: call.clientAddress, userAgent: call.userAgent },
    passwordHash,
    forgive,
  );
  return session && signedInAnswer(session, staff);
}

/** What a completed sign-in answers: the session's pair and who signed in. */
export const signedInAnswer = (session: { xtoken: string; xsign: string }, staff: StaffRow) => ({
  xtoken: session.xtoken,
  xsign: session.xsign,
  Email: staff.email,
  Name: staff.full_name,
  Role: staff.roles,
});
