import { randomUUID } from 'node:crypto';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import { SSO_CALLBACK_PATH, SSO_STATE_TTL_MINUTES } from '@sac/contract/sso';
import type { JWTPayload } from 'jose';
import type { AppContext, Caller } from '../../app-context.ts';
import { isUniqueViolation } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { consoleOrigin } from '../../lib/console-url.ts';
import { hashSecret, randomSecret, sameHash } from '../../lib/secrets.ts';
import { runWrite } from '../../lib/write-path.ts';
import { recordEvent, writeActivity } from '../activity/activity.service.ts';
import { acceptSignIn } from './accept-sign-in.ts';
import { refuseSignInOutsideAllowlist } from './api-tokens.service.ts';
import { lockedError } from './auth.service.ts';
import { admitSignIn, busyError, checkAdmitted } from './login-throttle.ts';
import {
  authorizationUrl,
  exchangeCode,
  type FetchPolicy,
  groupsOf,
  OidcError,
  providerOf,
  providerSecondFactor,
  verifyIdToken,
} from './oidc.ts';
import {
  putSsoState,
  readGroupRoles,
  readSsoSettings,
  type SsoSettingsRow,
  takeSsoState,
} from './sso.repo.ts';
import { insertStaff, isDeactivated, lockSuperAdmins, type StaffRow, setStaffRoles } from './staff.repo.ts';

/**
 * Staff sign-in through an OpenID Connect provider (docs/decisions.md, "Single sign-on"). The
 * provider proves the first factor; from there the sign-in is a password sign-in's: the same
 * admission (address budget, lock), the same ticket to the local second step unless the
 * provider's amr/acr counts as one, the same session, the same trail (login.sso).
 */

/** The password hash of an account made by single sign-on: no password verifies against it. */
const NO_PASSWORD = '!sso';

/** The redirect URI registered at the provider: the console's callback page on its first origin. */
export const redirectUriOf = (ctx: AppContext) => `${consoleOrigin(ctx.config)}${SSO_CALLBACK_PATH}`;

/** Where the provider's addresses may be (SSO_ALLOW_HTTP_ISSUER: also http, loopback and private). */
export const issuerPolicy = (ctx: AppContext): FetchPolicy => ({ allowLocal: ctx.config.ssoAllowHttpIssuer });

/** Set up and switched on, with its secret opened; undefined otherwise. */
async function liveSettings(ctx: AppContext) {
  const s = await readSsoSettings(ctx.db);
  if (!s?.enabled || !s.issuer || !s.client_id || !s.client_secret_sealed) return undefined;
  return { ...s, clientSecret: ctx.crypto.decrypt(s.client_secret_sealed) };
}

export async function ssoSignInOptions(ctx: AppContext) {
  const s = await readSsoSettings(ctx.db);
  const on = Boolean(s?.enabled && s.issuer && s.client_id && s.client_secret_sealed);
  return { Enabled: on, Name: on ? s!.display_name : '', PasswordSignIn: s?.password_sign_in ?? true };
}

/** A pending sign-in stored (state, nonce, PKCE verifier, the binder's hash); answers where to send the browser. */
export async function ssoStart(ctx: AppContext) {
  const s = await liveSettings(ctx);
  if (!s) throw new AppError('ssoOff');
  const provider = await providerOf(s.issuer, ctx.config.ssoKeyCooldownMs, issuerPolicy(ctx)).catch(
    (e: unknown) => {
      throw new AppError('ssoRefused', e instanceof OidcError ? e.message : undefined);
    },
  );
  const now = ctx.clock.now();
  const state = randomSecret();
  const nonce = randomSecret();
  const verifier = randomSecret();
  const binder = randomSecret();
  await runWrite(ctx.db, {
    change: (tx) =>
      putSsoState(tx, {
        stateHash: hashSecret(state),
        binderHash: hashSecret(binder),
        nonce,
        verifier,
        at: now,
        expiresAt: new Date(now.getTime() + SSO_STATE_TTL_MINUTES * 60_000),
      }),
    trail: {
      none: 'a sign-in sent to the provider: its finish writes the trail row, as a sign-in or a refusal',
    },
  });
  const url = authorizationUrl(provider.discovery, {
    clientId: s.client_id,
    redirectUri: redirectUriOf(ctx),
    state,
    nonce,
    verifier,
  });
  return { Url: url, Binder: binder };
}

type Audit = { at: Date; clientAddress: string; actorEmail?: string; actorUid?: string };

/**
 * A refusal: its trail row (login.sso.refused, with the reason), the address's failure counted
 * (as a bad second-step ticket is: a stranger cannot replay states without limit; not again when
 * the attempt's admission counted it), 1102.
 */
async function refuse(ctx: AppContext, audit: Audit, reason: string, counted = false): Promise<never> {
  await recordEvent(ctx.db, { ...audit, action: 'login.sso.refused', details: { reason } });
  if (counted) throw new AppError('ssoRefused');
  const failures = await ctx.addressFailures.recordFailure(audit.clientAddress, audit.at);
  if (failures > ctx.config.loginAddressDailyFailures) throw new AppError('tooManyAttempts');
  throw new AppError('ssoRefused');
}

/** The code the provider sent back, for a verified ID token of this pending sign-in. */
async function verifiedToken(
  ctx: AppContext,
  s: NonNullable<Awaited<ReturnType<typeof liveSettings>>>,
  input: { Code: string; State: string; Binder: string },
  audit: Audit,
) {
  const pending = await runWrite(ctx.db, {
    change: (tx) => takeSsoState(tx, hashSecret(input.State)),
    trail: {
      none: "spent by its first use, right or wrong: the sign-in's own row follows (login.sso or its refusal)",
    },
  });
  if (!pending || new Date(pending.expires_at) <= audit.at) return refuse(ctx, audit, 'state');
  if (!sameHash(pending.binder_hash, hashSecret(input.Binder))) return refuse(ctx, audit, 'binder');
  try {
    const provider = await providerOf(s.issuer, ctx.config.ssoKeyCooldownMs, issuerPolicy(ctx));
    const idToken = await exchangeCode(
      provider.discovery,
      {
        clientId: s.client_id,
        clientSecret: s.clientSecret,
        redirectUri: redirectUriOf(ctx),
        code: input.Code,
        verifier: pending.code_verifier,
      },
      issuerPolicy(ctx),
    );
    return await verifyIdToken(provider, idToken, {
      issuer: s.issuer,
      clientId: s.client_id,
      nonce: pending.nonce,
    });
  } catch (e) {
    if (e instanceof OidcError) return refuse(ctx, audit, e.reason);
    throw e;
  }
}

/** The built-in roles the token's groups map to; undefined when the table is empty (roles stay local). */
async function mappedRoles(ctx: AppContext, s: SsoSettingsRow, token: JWTPayload) {
  const table = await readGroupRoles(ctx.db);
  if (table.length === 0) return undefined;
  const groups = new Set(groupsOf(token, s.groups_claim));
  return [...new Set(table.filter((r) => groups.has(r.group_value)).map((r) => r.role))].sort();
}

export async function ssoFinish(
  ctx: AppContext,
  call: Caller,
  input: { Code: string; State: string; Binder: string },
) {
  const now = ctx.clock.now();
  const audit: Audit = { at: now, clientAddress: call.clientAddress };
  const s = await liveSettings(ctx);
  if (!s) throw new AppError('ssoOff');
  const token = await verifiedToken(ctx, s, input, audit);
  audit.actorEmail = token.email;
  // the staff address allowlist holds for every way in, as at the password sign-in
  await refuseSignInOutsideAllowlist(ctx, call.clientAddress, token.email);
  const roles = await mappedRoles(ctx, s, token);
  if (roles && roles.length === 0) return refuse(ctx, audit, 'no-mapped-role');
  const attempt = await admitSignIn(
    ctx.db,
    ctx.addressFailures,
    ctx.config.loginAddressDailyFailures,
    { email: token.email },
    call.clientAddress,
    now,
  );
  if (attempt.throttled) {
    await recordEvent(ctx.db, { ...audit, action: 'login.throttled', details: { via: 'sso' } });
    throw new AppError('tooManyAttempts');
  }
  const secondFactor = providerSecondFactor(token, s.second_factor_values.split(' ').filter(Boolean));
  const { staff, admission } = attempt;
  if (!staff) {
    // the admission counted the address's failure: a refusal here leaves it counted
    if (!s.create_on_first) return refuse(ctx, audit, 'unknown-staff', true);
    // the admission does not find a deactivated member (migration 0060): never made anew
    if (await isDeactivated(ctx.db, token.email)) return refuse(ctx, audit, 'deactivated', true);
    if (!roles) return refuse(ctx, audit, 'no-mapped-role', true);
    return firstSignIn(ctx, call, token, roles, secondFactor, audit);
  }
  audit.actorUid = staff.uid;
  if (admission?.kind === 'busy') throw busyError();
  if (admission?.kind !== 'admitted') {
    await recordEvent(ctx.db, { ...audit, action: 'login.sso.refused', details: { reason: 'locked' } });
    throw lockedError(admission?.kind === 'locked' ? admission.until : null, now);
  }
  return checkAdmitted(ctx, { uid: staff.uid, address: call.clientAddress, at: now }, async (settled) => {
    // the answer names the roles the groups gave, set in the same write
    const signedIn = roles ? { ...staff, roles } : staff;
    const answer = await acceptSignIn(
      ctx,
      call,
      signedIn,
      attempt.factors,
      { ...audit, actorEmail: staff.email },
      {
        action: 'login.sso',
        details: { secondFactor: secondFactor ?? null },
        secondFactorDone: secondFactor !== undefined,
        ...(roles && !sameRoles(roles, staff.roles) ? rolesFromGroups(staff, roles, audit, s) : {}),
      },
    );
    settled();
    return answer;
  });
}

const sameRoles = (a: string[], b: string[]) =>
  a.length === b.length && [...b].sort().every((r, i) => r === a[i]);

/**
 * The account's roles set to its groups' (the provider is where roles are kept), with their trail
 * row. The last SuperAdmin keeps that role whatever the groups say (as the team screen refuses to
 * demote them): `roles` is completed in place, so the answer names what was set.
 */
function rolesFromGroups(staff: StaffRow, roles: string[], audit: Audit, s: SsoSettingsRow) {
  // so does the break-glass account while password sign-in is off (its rules: sso-settings.service.ts)
  const breakGlass = !s.password_sign_in && s.break_glass_uid === staff.uid;
  return {
    before: async (tx: Parameters<typeof setStaffRoles>[0]) => {
      if (staff.roles.includes(ROLE_SUPER_ADMIN) && !roles.includes(ROLE_SUPER_ADMIN)) {
        const holders = breakGlass ? [] : await lockSuperAdmins(tx, ROLE_SUPER_ADMIN);
        if (holders.every((uid) => uid === staff.uid)) roles.push(ROLE_SUPER_ADMIN);
      }
      await setStaffRoles(tx, staff.uid, roles, audit.at);
    },
    trail: (tx: Parameters<typeof writeActivity>[0]) =>
      writeActivity(tx, {
        ...audit,
        actorUid: staff.uid,
        actorEmail: staff.email,
        action: 'team.roles',
        targetType: 'staff',
        targetId: staff.uid,
        details: { via: 'sso', from: staff.roles, to: roles },
      }),
  };
}

/** An account made at its first sign-in (creation on), with its groups' roles, and its session or second step. */
async function firstSignIn(
  ctx: AppContext,
  call: Caller,
  token: JWTPayload & { email: string },
  roles: string[],
  secondFactor: string | undefined,
  audit: Audit,
) {
  const uid = randomUUID();
  const name = typeof token.name === 'string' ? token.name.slice(0, 100) : token.email.split('@')[0]!;
  const staff: StaffRow = {
    uid,
    email: token.email,
    full_name: name,
    password_hash: NO_PASSWORD,
    created_at: audit.at,
    last_login_at: null,
    password_changed_at: null,
    invitation_pending: false,
    failed_logins: 0,
    lockouts: 0,
    locked_until: null,
    roles,
  };
  const who = { ...audit, actorUid: uid, actorEmail: token.email };
  // two first sign-ins of one email at once: the email's unique index lets one make the account;
  // the other is refused (as a sign-in that did not complete, to be tried again), not a 500
  return acceptSignIn(ctx, call, staff, { totp: false, passkeys: 0, recoveryLeft: 0 }, who, {
    action: 'login.sso',
    details: { secondFactor: secondFactor ?? null, created: true },
    secondFactorDone: secondFactor !== undefined,
    before: (tx) =>
      insertStaff(tx, {
        uid,
        email: token.email,
        fullName: name,
        passwordHash: NO_PASSWORD,
        roles,
        at: audit.at,
        rolesGrantedAt: audit.at,
      }),
    trail: (tx) =>
      writeActivity(tx, {
        ...who,
        action: 'team.create',
        targetType: 'staff',
        targetId: uid,
        details: { via: 'sso', roles },
      }),
  }).catch((e: unknown) => {
    if (isUniqueViolation(e)) return refuse(ctx, audit, 'created-meanwhile', true);
    throw e;
  });
}
