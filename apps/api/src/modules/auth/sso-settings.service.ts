import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { ssoSettingsBody } from '@sac/contract/sso';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { runWrite, type WriteTx } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { factorsOf } from './mfa.repo.ts';
import { countKeys, fetchDiscovery, OidcError, providerUrlProblem } from './oidc.ts';
import { membersOfGroupsNamed } from './scim.repo.ts';
import { ScimError } from './scim-filter.ts';
import { type RoleChange, syncRoles, writeRoleChanges } from './scim-groups.service.ts';
import {
  lockSsoSettings,
  readGroupRoles,
  readSsoSettings,
  shareLockRoles,
  writeSsoSettings,
} from './sso.repo.ts';
import { issuerPolicy, redirectUriOf } from './sso.service.ts';
import { findStaffByEmail } from './staff.repo.ts';

/** The SuperAdmin's single sign-on settings (docs/operations.md, "Single sign-on"). */

type SettingsBody = z.infer<typeof ssoSettingsBody>;

export async function ssoSettings(ctx: AppContext) {
  const s = await readSsoSettings(ctx.db);
  const table = await readGroupRoles(ctx.db);
  return {
    Enabled: s?.enabled ?? false,
    Name: s?.display_name ?? '',
    Issuer: s?.issuer ?? '',
    ClientId: s?.client_id ?? '',
    ClientSecretSet: Boolean(s?.client_secret_sealed),
    GroupsClaim: s?.groups_claim ?? 'groups',
    CreateOnFirstSignIn: s?.create_on_first ?? false,
    SecondFactorValues: (s?.second_factor_values ?? '').split(' ').filter(Boolean),
    PasswordSignIn: s?.password_sign_in ?? true,
    BreakGlassEmail: s?.break_glass_email ?? null,
    GroupRoles: table.map((r) => ({ Group: r.group_value, Role: r.role })),
    RedirectUri: redirectUriOf(ctx),
  };
}

const invalid = (why: string) => new AppError('ssoSettingsInvalid', why);

/**
 * The roles of the SCIM members of every group whose rows the table save changed, read again
 * (the table is where their roles come from: docs/decisions.md); a change that would leave no
 * SuperAdmin or change the break-glass account's roles refuses the save.
 */
async function resyncChangedGroups(
  tx: WriteTx,
  before: { group_value: string; role: string }[],
  after: { group: string; role: string }[],
  at: Date,
): Promise<RoleChange[]> {
  const rolesOf = (rows: { group: string; role: string }[]) => {
    const m = new Map<string, string[]>();
    for (const r of rows) m.set(r.group, [...(m.get(r.group) ?? []), r.role].sort());
    return m;
  };
  const was = rolesOf(before.map((r) => ({ group: r.group_value, role: r.role })));
  const is = rolesOf(after);
  const changed = [...new Set([...was.keys(), ...is.keys()])].filter(
    (g) => (was.get(g) ?? []).join(' ') !== (is.get(g) ?? []).join(' '),
  );
  try {
    return await syncRoles(tx, await membersOfGroupsNamed(tx, changed), at);
  } catch (e) {
    if (e instanceof ScimError) throw invalid(e.message);
    throw e;
  }
}

/**
 * Replaces the settings and the group table, one write with its trail row (never the secret).
 * Checked under the settings' row lock: a provider switched on is complete; password sign-in is
 * turned off only with single sign-on on and a break-glass account that exists, is a SuperAdmin
 * (someone can always sign in to turn it back) and has a second factor.
 */
export async function updateSsoSettings(ctx: AppContext, call: StaffCall, b: SettingsBody) {
  const now = ctx.clock.now();
  const values = [...new Set(b.SecondFactorValues)];
  if (values.some((v) => /\s/.test(v))) throw invalid('An amr or acr value has no spaces.');
  const groupRoles = [
    ...new Map(b.GroupRoles.map((g) => [`${g.Group}\n${g.Role}`, { group: g.Group, role: g.Role }])).values(),
  ];
  const secret = b.ClientSecret?.trim() ? ctx.crypto.encrypt(b.ClientSecret.trim()) : undefined;
  const who = {
    at: now,
    actorUid: call.session.uid,
    actorEmail: call.session.email,
    clientAddress: call.clientAddress,
  };
  await runWrite(ctx.db, {
    lock: async (tx) => {
      await lockSsoSettings(tx);
      const roles = await shareLockRoles(tx, [...new Set(groupRoles.map((g) => g.role))]);
      const unknown = groupRoles.find((g) => !roles.has(g.role));
      if (unknown) throw invalid(`There is no role ${unknown.role}.`);
      const stored = await readSsoSettings(tx);
      if (b.Enabled) {
        if (!b.Name) throw invalid('The provider needs a name for the sign-in button.');
        const problem = providerUrlProblem(b.Issuer, issuerPolicy(ctx), true);
        if (problem) throw invalid(problem);
        if (!b.ClientId) throw invalid('The client id is required.');
        if (!secret && !stored?.client_secret_sealed) throw invalid('The client secret is required.');
      }
      let breakGlassUid: string | null = null;
      if (b.BreakGlassEmail) {
        const staff = await findStaffByEmail(tx, b.BreakGlassEmail);
        if (!staff) throw invalid('There is no staff member with the break-glass email.');
        breakGlassUid = staff.uid;
        if (!b.PasswordSignIn) {
          if (!staff.roles.includes(ROLE_SUPER_ADMIN))
            throw invalid('The break-glass account must be a SuperAdmin.');
          const f = await factorsOf(tx, staff.uid);
          if (!f.totp && f.passkeys === 0)
            throw invalid('The break-glass account must have a second factor.');
        }
      }
      if (!b.PasswordSignIn) {
        if (!b.Enabled) throw invalid('Password sign-in can be turned off only while single sign-on is on.');
        if (!breakGlassUid) throw invalid('Name a break-glass account before turning password sign-in off.');
      }
      return { breakGlassUid, table: await readGroupRoles(tx) };
    },
    change: async (tx, { breakGlassUid, table }) => {
      await writeSsoSettings(
        tx,
        {
          enabled: b.Enabled,
          displayName: b.Name,
          issuer: b.Issuer,
          clientId: b.ClientId,
          clientSecretSealed: secret,
          groupsClaim: b.GroupsClaim,
          createOnFirst: b.CreateOnFirstSignIn,
          secondFactorValues: values,
          passwordSignIn: b.PasswordSignIn,
          breakGlassUid,
          at: now,
        },
        groupRoles,
      );
      return resyncChangedGroups(tx, table, groupRoles, now);
    },
    trail: async (tx, changes) => {
      await writeRoleChanges(tx, who, changes, { via: 'group-roles' });
      await writeActivity(tx, {
        at: now,
        actorUid: call.session.uid,
        actorEmail: call.session.email,
        clientAddress: call.clientAddress,
        action: 'team.sso.settings',
        details: {
          enabled: b.Enabled,
          issuer: b.Issuer,
          clientId: b.ClientId,
          secretChanged: Boolean(secret),
          createOnFirstSignIn: b.CreateOnFirstSignIn,
          secondFactorValues: values,
          passwordSignIn: b.PasswordSignIn,
          breakGlassEmail: b.BreakGlassEmail,
          groupRoles: groupRoles.length,
        },
      });
    },
  });
  return ssoSettings(ctx);
}

/** Fetches the issuer's discovery document and keys; says what is wrong instead of throwing. */
export async function testSsoIssuer(ctx: AppContext, issuer: string) {
  const policy = issuerPolicy(ctx);
  try {
    const d = await fetchDiscovery(issuer, policy);
    return {
      Ok: true,
      Problem: null,
      AuthorizationEndpoint: d.authorization_endpoint,
      Keys: await countKeys(d, policy),
    };
  } catch (e) {
    if (!(e instanceof OidcError)) throw e;
    return { Ok: false, Problem: e.message, AuthorizationEndpoint: null, Keys: 0 };
  }
}
