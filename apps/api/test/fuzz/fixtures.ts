/**
 * Deterministic fixtures of the fuzz: staff, customers, sites, impersonation requests and site
 * settings with fixed ids, keys and tokens, so that a recorded regression request names the same
 * rows on every run. The principals' sessions are issued directly (no password hashing).
 */
/** The fixture request (index in Pools.requestIds) that is the SuperAdmin's approved grant. */
const GRANT_INDEX = 3;

import { authChanged } from '../../src/db/db.ts';
import { hashPassword } from '../../src/lib/password-hash.ts';
import { hashSecret } from '../../src/lib/secrets.ts';
import { createSession } from '../../src/modules/auth/sessions.repo.ts';
import { insertStaff } from '../../src/modules/auth/staff.repo.ts';
import { unsubscribeToken } from '../../src/modules/notices/unsubscribe-token.ts';
import { shareSite } from '../customer-fixtures.ts';
import { CONSOLE_ORIGIN, PASSWORD, type TestApp } from '../harness.ts';

/** impersonating: the SuperAdmin's impersonation session (account/switchapp) on the approved fixture grant. */
export type PrincipalName = 'superadmin' | 'support' | 'anonymous' | 'impersonating';

const STAFF = {
  superadmin: {
    uid: 'a0000000-0000-4000-8000-000000000001',
    email: 'fuzz-sa@example.com',
    roles: ['SuperAdmin'],
  },
  support: {
    uid: 'a0000000-0000-4000-8000-000000000002',
    email: 'fuzz-support@example.com',
    roles: ['Support'],
  },
  approver: {
    uid: 'a0000000-0000-4000-8000-000000000003',
    email: 'fuzz-approver@example.com',
    roles: ['SuperAdmin'],
  },
  admin: { uid: 'a0000000-0000-4000-8000-000000000004', email: 'fuzz-admin@example.com', roles: ['Admin'] },
} as const;

const CUSTOMERS = [
  { first: 'Ada', last: 'Lovelace', email: 'ada.lovelace@analytical.example' },
  { first: 'Grace', last: 'Hopper', email: 'grace@cobol.example' },
  { first: 'Alan', last: 'Turing', email: 'alan@bletchley.example' },
  { first: 'Émilie', last: 'du Châtelet', email: 'emilie@physique.example' },
  { first: 'محمد', last: 'الخوارزمي', email: 'khwarizmi@algebra.example' },
] as const;
const customerUid = (i: number) => `c0000000-0000-4000-8000-00000000000${i + 1}`;

interface SiteFixture {
  appId: number;
  name: string;
  owner: string;
  apiKey: string;
  secret: string;
}

export interface Pools {
  customerUids: string[];
  staffUids: string[];
  sites: SiteFixture[];
  requestIds: number[];
  consentTokens: string[];
  siteAccessTokens: string[];
  /** Signed unsubscribe tokens of customers' addresses (customer notices). */
  unsubscribeTokens: string[];
  emails: string[];
  superAdminEmails: string[];
  staffRoles: string[];
  customerRoles: string[];
  customerPermissions: string[];
  featureSets: string[];
  dataCenters: string[];
  globalServers: string[];
  objIds: string[];
  domains: string[];
  dataSources: string[];
  timeZones: string[];
}

export interface Fixtures {
  pools: Pools;
  /** The live session of a principal (re-issued when a call ended it). */
  session(p: PrincipalName): { xtoken: string; xsign: string } | undefined;
  /** Puts the principals back as they were (roles, existence, a live session). */
  restorePrincipals(): Promise<void>;
}

export async function createFixtures(t: TestApp): Promise<Fixtures> {
  const { db } = t;
  const at = t.clock.now();
  const passwordHash = await hashPassword(PASSWORD);
  for (const s of Object.values(STAFF)) {
    await insertStaff(db, {
      uid: s.uid,
      email: s.email,
      fullName: s.email.split('@')[0]!,
      passwordHash,
      roles: [...s.roles],
      at,
    });
  }

  const created = new Date('2026-01-10T09:00:00Z');
  for (const [i, c] of CUSTOMERS.entries()) {
    await db.query(
      `INSERT INTO customers (uid, first_name, last_name, email, organization, phone, auth_email, contact_email,
         time_zone, created_at, modified_at)
       VALUES ($1, $2, $3, $4, 'Fuzz Ltd', '0123456789', $4, $4, 'Europe/London', $5, $5)`,
      [customerUid(i), c.first, c.last, c.email, created],
    );
  }
  const sites: SiteFixture[] = [];
  const siteNames = [
    'analytical-engine',
    'cobol-works',
    'enigma',
    'physique',
    'algebra',
    'difference-engine',
  ];
  for (const [i, name] of siteNames.entries()) {
    const owner = customerUid(i % CUSTOMERS.length);
    const apiKey = `b0000000-0000-4000-8000-00000000000${i + 1}`;
    const secret = `fuzz-secret-${i + 1}`;
    const r = await db.query<{ app_id: number }>(
      `INSERT INTO sites (app_name, api_key, secret_hash, owner_uid, plan, plan_status, trial_ends_at, data_center,
         global_server, db_name, features, production_url, staging_url, created_at, modified_at)
       VALUES ($1, $2, $3, $4, 'Developer', 'Trial', $5, 'eu-central', 'euc-shared-1', $6, '{social-login,mfa}',
         $7, $8, $9, $9) RETURNING app_id`,
      [
        name,
        apiKey,
        hashSecret(secret),
        owner,
        new Date('2026-02-01T00:00:00Z'),
        `${name}-db`,
        `https://${name}.example.com`,
        `https://staging.${name}.example.com`,
        created,
      ],
    );
    sites.push({ appId: Number(r.rows[0]!.app_id), name, owner, apiKey, secret });
  }
  await shareSite(db, sites[0]!.appId, customerUid(1), 'Developer');

  const catalogue = async (sql: string) => (await db.query<{ v: string }>(sql)).rows.map((r) => r.v);
  const customerRoles = await catalogue('SELECT name AS v FROM customer_roles ORDER BY 1');
  const pools: Pools = {
    customerUids: CUSTOMERS.map((_c, i) => customerUid(i)),
    staffUids: Object.values(STAFF).map((s) => s.uid),
    sites,
    requestIds: [],
    consentTokens: [],
    siteAccessTokens: [],
    unsubscribeTokens: [],
    emails: [...CUSTOMERS.map((c) => c.email), ...Object.values(STAFF).map((s) => s.email)],
    superAdminEmails: [STAFF.superadmin.email, STAFF.approver.email],
    staffRoles: await catalogue('SELECT name AS v FROM roles ORDER BY 1'),
    customerRoles,
    customerPermissions: await catalogue(
      'SELECT DISTINCT jsonb_object_keys(permissions) AS v FROM customer_roles ORDER BY 1',
    ),
    featureSets: await catalogue('SELECT name AS v FROM feature_sets ORDER BY 1'),
    dataCenters: await catalogue('SELECT code AS v FROM data_centers ORDER BY 1'),
    globalServers: await catalogue('SELECT code AS v FROM global_servers ORDER BY 1'),
    objIds: ['orders', 'loyalty_card'],
    domains: ['login.analytical.example', 'id.cobol.example'],
    dataSources: ['Country', 'State'],
    timeZones: ['Europe/London', 'Etc/GMT', 'America/New_York', 'Asia/Kolkata'],
  };

  // Impersonation: requests of each shape, with fixed consent and site access tokens.
  const requests: Array<{ initiator: string; consent: string; status?: string; appIndex: number }> = [
    { initiator: STAFF.superadmin.email, consent: 'pending', appIndex: 0 },
    { initiator: STAFF.approver.email, consent: 'granted', appIndex: 1 },
    { initiator: STAFF.approver.email, consent: 'pending', appIndex: 2 },
    { initiator: STAFF.superadmin.email, consent: 'granted', status: 'Approved', appIndex: 3 },
    { initiator: STAFF.support.email, consent: 'granted', appIndex: 4 },
  ];
  for (const [i, r] of requests.entries()) {
    const row = await db.query<{ id: number }>(
      `INSERT INTO impersonation_requests (app_id, initiator_email, consent, priority, description, assignees,
         proxy_roles, additional_permissions, duration_minutes, created_at, modified_at)
       VALUES ($1, $2, $3, 'High', 'fuzz fixture', $4, $5, '{ViewData}', 60, $6, $6) RETURNING id`,
      [sites[r.appIndex]!.appId, r.initiator, r.consent, pools.superAdminEmails, [customerRoles[0]!], at],
    );
    const id = Number(row.rows[0]!.id);
    if (r.status === 'Approved') {
      await db.query(
        `UPDATE impersonation_requests SET status = 'Approved', initiator_uid = $2, holder_uid = $2,
           approved_roles = proxy_roles, expires_at = $3, action_taken_by = $4, action_taken_at = $5 WHERE id = $1`,
        [id, STAFF.superadmin.uid, new Date(at.getTime() + 3_600_000), STAFF.approver.email, at],
      );
    }
    const consentToken = `fuzz-consent-token-${i + 1}`;
    await db.query(
      'INSERT INTO impersonation_consent_tokens (token_hash, request_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
      [hashSecret(consentToken), id, at, new Date(at.getTime() + 7 * 86_400_000)],
    );
    const accessToken = `fuzz-site-access-token-${i + 1}`;
    await db.query(
      'INSERT INTO site_access_tokens (token_hash, app_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
      [hashSecret(accessToken), sites[r.appIndex]!.appId, at, new Date(at.getTime() + 90 * 86_400_000)],
    );
    pools.requestIds.push(id);
    pools.consentTokens.push(consentToken);
    pools.siteAccessTokens.push(accessToken);
  }
  for (const address of pools.emails.slice(0, 5))
    pools.unsubscribeTokens.push(unsubscribeToken(t.ctx.crypto, address));

  const sessions = new Map<PrincipalName, { xtoken: string; xsign: string }>();
  const grantId = pools.requestIds[GRANT_INDEX]!;
  const issue = async (p: 'superadmin' | 'support' | 'impersonating') => {
    const s = await createSession(db, {
      uid: STAFF[p === 'impersonating' ? 'superadmin' : p].uid,
      at: t.clock.now(),
      clientAddress: '127.0.0.1',
      userAgent: 'fuzz',
      ...(p === 'impersonating' ? { impersonationRequestId: grantId } : {}),
    });
    sessions.set(p, { xtoken: s.xtoken, xsign: s.xsign });
  };

  const restorePrincipals = async () => {
    for (const p of ['superadmin', 'support'] as const) {
      const s = STAFF[p];
      const exists = await db.query('SELECT 1 FROM staff WHERE uid = $1', [s.uid]);
      if (exists.rows.length === 0) {
        await insertStaff(db, {
          uid: s.uid,
          email: s.email,
          fullName: p,
          passwordHash,
          roles: [...s.roles],
          at,
        });
      } else {
        await db.query('DELETE FROM staff_roles WHERE uid = $1', [s.uid]);
        for (const role of s.roles)
          await db.query('INSERT INTO staff_roles (uid, role) VALUES ($1, $2)', [s.uid, role]);
        authChanged(db);
      }
    }
    // The grant the impersonation session acts under: approved, live, undeleted, as in the fixture.
    await db.query(
      `UPDATE impersonation_requests SET status = 'Approved', consent = 'granted', deleted_at = NULL,
         initiator_uid = $2, holder_uid = $2, approved_roles = proxy_roles, expires_at = $3
       WHERE id = $1 AND NOT (status = 'Approved' AND consent = 'granted' AND deleted_at IS NULL
         AND approved_roles = proxy_roles AND expires_at > $4 AND holder_uid IS NOT DISTINCT FROM $2)`,
      [grantId, STAFF.superadmin.uid, new Date(t.clock.now().getTime() + 3_600_000), t.clock.now()],
    );
    for (const p of ['superadmin', 'support', 'impersonating'] as const) {
      const live = sessions.get(p);
      const alive = live
        ? await db.query('SELECT 1 FROM staff_sessions WHERE token_hash = $1 AND revoked_at IS NULL', [
            hashSecret(live.xtoken),
          ])
        : { rows: [] };
      if (alive.rows.length === 0) await issue(p);
    }
  };
  await restorePrincipals();

  // Site settings through the API, so their rows are exactly what the service stores.
  const sa = sessions.get('superadmin')!;
  const q = (i: number) => `uid=${sites[i]!.owner}&appId=${sites[i]!.appId}`;
  const seedCalls: Array<{ method: 'POST'; url: string; payload: Record<string, unknown> }> = [
    {
      method: 'POST',
      url: `/admin/customobject?${q(0)}`,
      payload: { Id: 'orders', Name: 'Orders', SizeMB: 10, Schema: '{"type":"object"}' },
    },
    {
      method: 'POST',
      url: `/admin/customobject?${q(1)}`,
      payload: { Id: 'loyalty_card', Name: 'Loyalty card', SizeMB: '5', Schema: '{"type":"object"}' },
    },
    {
      method: 'POST',
      url: `/admin/customdomain/bindingrequest?${q(0)}`,
      payload: { domain: pools.domains[0] },
    },
    {
      method: 'POST',
      url: `/admin/customdomain/bindingrequest?${q(1)}`,
      payload: { domain: pools.domains[1] },
    },
    {
      method: 'POST',
      url: `/admin/custom-registration-data?${q(0)}`,
      payload: { Name: 'Country', Items: [{ Value: 'fr', Text: 'France' }] },
    },
    {
      method: 'POST',
      url: `/admin/custom-registration-data?${q(0)}`,
      payload: {
        Name: 'State',
        ParentName: 'Country',
        Items: [{ Value: 'idf', Text: 'Île-de-France', Parent: 'fr' }],
      },
    },
  ];
  for (const c of seedCalls) {
    const r = await t.inject({ ...c, session: sa });
    if (r.statusCode !== 200) throw new Error(`fixture ${c.url}: ${r.statusCode} ${r.body}`);
  }

  return { pools, session: (p) => sessions.get(p), restorePrincipals };
}

export const CONSOLE_RESET_PAGE = `${CONSOLE_ORIGIN}/login`;
