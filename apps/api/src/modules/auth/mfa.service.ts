import { MFA_MESSAGES, type SecondFactorMethod } from '@sac/contract/mfa';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { runWrite } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { notifySessionsEnded } from '../staff-notifications/staff-notifications.service.ts';
import { lockColleague, lockOwnAccount, superAdminOnly } from './approver-cool-down.ts';
import { factorsResetMail } from './auth.mails.ts';
import { checkCurrentPassword } from './auth.service.ts';
import {
  deleteAllFactors,
  deletePasskey,
  deleteTotp,
  factorsOf,
  findTotp,
  passkeysOf,
  renamePasskey,
  replaceRecoveryCodes,
} from './mfa.repo.ts';
import {
  checkRegistration,
  confirmTotp,
  newRecoveryCodes,
  registrationOptions,
  startTotp,
  storePasskey,
} from './second-factors.ts';
import { revokeUserSessions } from './sessions.repo.ts';
import { keepBreakGlassUsable } from './staff.service.ts';
import type { RegistrationJson } from './webauthn.ts';

/**
 * Second factors of staff (docs/decisions.md, "Two-step sign-in") under their account menu, and a
 * SuperAdmin's reset of a colleague's; the sign-in's part is mfa-sign-in.service.ts.
 */

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
        // the break-glass account keeps a factor while password sign-in is off
        await keepBreakGlassUsable(tx, me.uid);
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
    change: async (tx, target) => {
      const removed = await deleteAllFactors(tx, uid);
      await keepBreakGlassUsable(tx, uid);
      return { target, removed, ended: await revokeUserSessions(tx, uid, now, 'factors-reset') };
    },
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
