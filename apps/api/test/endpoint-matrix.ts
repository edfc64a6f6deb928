/**
 * Every endpoint of the contract's table as a valid call (MATRIX: the request, and the status
 * each principal gets). The authorization matrix runs every cell; the table-driven tests of the
 * write path and of statement budgets take the calls from here, so an endpoint added to the
 * contract is covered by all of them once it has its row.
 */
import { randomUUID } from 'node:crypto';
import type { EndpointDef, EndpointId } from '@sac/contract/endpoints';
import { recordVersion } from '../src/db/record-versions.repo.ts';
import { hashSecret } from '../src/lib/secrets.ts';
import { insertToken } from '../src/modules/auth/api-tokens.repo.ts';
import { insertPasskey } from '../src/modules/auth/mfa.repo.ts';
import { createToken as createScimToken } from '../src/modules/auth/scim-tokens.service.ts';
import { issueToken } from '../src/modules/auth/tokens.repo.ts';
import { insertRequest as insertImpersonationRequest } from '../src/modules/impersonation/impersonation.repo.ts';
import { unsubscribeToken } from '../src/modules/notices/unsubscribe-token.ts';
import { insertSubscription } from '../src/modules/webhooks/webhooks.repo.ts';
import { bulkJobOf, staffUid } from './bulk-fixtures.ts';
import { insertSite } from './customer-fixtures.ts';
import { CONSOLE_ORIGIN, PASSWORD, type TestApp } from './harness.ts';
import { insertGrant, insertRequest } from './impersonation-fixtures.ts';
import { softPasskey } from './soft-authenticator.ts';

/** Auditor is the built-in read-only role (audit.read and activity.read). */
/** Impersonating: an impersonation session (account/switchapp) as Developer on the fixture site. */
export const PRINCIPALS = [
  'anonymous',
  'expired',
  'SuperAdmin',
  'Admin',
  'Support',
  'Auditor',
  'Impersonating',
] as const;
export type Principal = (typeof PRINCIPALS)[number];
export type Target = 'own' | 'other';

export interface Actor {
  uid: string;
  email: string;
}
export interface Fixture {
  t: TestApp;
  /** A customer with one site, for the customer and site calls. */
  customer: { uid: string; appId: number };
  actor: Actor;
  /** The object the call is about: the actor's own account, or another staff member's (a Support user). */
  target: Actor;
}
export interface Row {
  /** Whether the call is about a staff object (then it runs on 'own' and on 'other'). */
  targeted: boolean;
  request(
    f: Fixture,
  ): Promise<{ query?: Record<string, string>; payload?: unknown; headers?: Record<string, string> }>;
  /** The expected HTTP status per principal; { own, other } when the target matters. */
  expect: Record<Principal, number | { own: number; other: number }>;
  /** A stream that stays open: the cell signs out once it answers, which ends it. */
  stream?: true;
}

const signedOut = { anonymous: 401, expired: 401 } as const;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Session = { xtoken: string; xsign: string };

/** An impersonation session of `actor` as Developer on `customer`'s site (a live grant, then account/switchapp). */
export async function impersonate(
  t: TestApp,
  customer: Fixture['customer'],
  actor: Actor,
  own: Session,
): Promise<Session> {
  await insertGrant(t.db, {
    appId: customer.appId,
    initiatorUid: actor.uid,
    initiatorEmail: actor.email,
    roles: ['Developer'],
    now: t.clock.now(),
  });
  const r = await t.inject({
    method: 'GET',
    url: '/account/switchapp',
    session: own,
    query: { appid: String(customer.appId) },
  });
  if (r.statusCode !== 200) throw new Error(`switchapp: ${r.statusCode} ${r.body}`);
  return { xtoken: r.json().xtoken as string, xsign: r.json().xsign as string };
}

/** Sends an endpoint's call as a row of MATRIX arranged it. */
export function send(
  t: TestApp,
  e: EndpointDef,
  session: Session | undefined,
  call: Awaited<ReturnType<Row['request']>>,
): ReturnType<TestApp['inject']> {
  const { query, payload, headers } = call;
  return t.inject({
    method: e.method,
    url: e.path,
    session,
    ...(headers ? { headers } : {}),
    ...(query ? { query } : {}),
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
}
const everyRole = (status: number | { own: number; other: number }) => ({
  SuperAdmin: status,
  Admin: status,
  Support: status,
});

/** A SuperAdmin made in beforeAll, the assignee of every impersonation request here. */
export const MATRIX_APPROVER = 'matrix-approver@example.com';

/** A fresh site per call, so requests never compete for the same roles. */
async function freshSite(f: Fixture): Promise<number> {
  return (await insertSite(f.t.db, { owner: f.customer.uid, name: `imp-${randomUUID().slice(0, 8)}` })).appId;
}
async function newRequestData(f: Fixture) {
  return {
    AppId: await freshSite(f),
    Priority: 'High',
    Description: 'matrix',
    ReasonCode: 'support-ticket',
    Assignees: [MATRIX_APPROVER],
    ProxyRoles: ['Developer'],
    AdditionalPermissions: [],
    Duration: 60,
  };
}
async function requestBy(f: Fixture, initiator: string, consent: 'pending' | 'granted' = 'pending') {
  return insertRequest(f.t.db, {
    appId: await freshSite(f),
    initiator,
    assignees: [MATRIX_APPROVER],
    consent,
  });
}

/** A live grant on a fresh site to the target (the actor on 'own'); answers the site's appId. */
async function grantTo(f: Fixture): Promise<number> {
  const appId = await freshSite(f);
  await insertGrant(f.t.db, {
    appId,
    initiatorUid: f.target.uid,
    initiatorEmail: f.target.email,
    roles: ['Developer'],
    now: f.t.clock.now(),
  });
  return appId;
}

const siteOf = (f: Fixture) => ({ uid: f.customer.uid, appId: String(f.customer.appId) });
async function insertObject(f: Fixture): Promise<string> {
  const id = `obj-${randomUUID().slice(0, 8)}`;
  await f.t.db.query(
    `INSERT INTO custom_objects (app_id, id, name, size_mb, schema, created_at, modified_at)
     VALUES ($1, $2, 'Matrix', 5, '{"type":"object"}', now(), now())`,
    [f.customer.appId, id],
  );
  return id;
}
async function insertDomain(f: Fixture): Promise<string> {
  const domain = `d${randomUUID().slice(0, 8)}.matrix.example`;
  await f.t.db.query(
    "INSERT INTO custom_domains (domain, app_id, token, created_at) VALUES ($1, $2, 'tok', now())",
    [domain, f.customer.appId],
  );
  return domain;
}
const HASHING = {
  EncryptionType: 'SHA-256',
  HashEncoding: 'hex',
  SaltEncoding: 'utf8',
  Salt: 's',
  PerPasswordSalt: false,
  Iterations: 1,
  SaltAttach: 'Append',
};
async function insertEncryption(f: Fixture, set: string): Promise<void> {
  await f.t.db.query(
    `INSERT INTO encryption_settings (app_id, set_name, settings, modified_at) VALUES ($1, $2, $3, now())
     ON CONFLICT DO NOTHING`,
    [f.customer.appId, set, JSON.stringify(HASHING)],
  );
}
/** A read of site settings: every built-in role; not the Auditor. */
const settingsRead = (req: Row['request'], impersonating: number): Row => ({
  targeted: false,
  request: req,
  expect: { ...signedOut, ...everyRole(200), Auditor: 403, Impersonating: impersonating },
});
/** A change of site settings: SuperAdmin and Admin, and an impersonation session with ManageSettings. */
const settingsWrite = (req: Row['request']): Row => ({
  targeted: false,
  request: req,
  expect: { ...signedOut, SuperAdmin: 200, Admin: 200, Support: 403, Auditor: 403, Impersonating: 200 },
});

/** A read of the staff audit trail: SuperAdmin and the Auditor only. */
/** Customer notices: SuperAdmin and Admin (notices.send), nobody else. */
const noticesSend = (req: Row['request']): Row => ({
  targeted: false,
  request: req,
  expect: { ...signedOut, SuperAdmin: 200, Admin: 200, Support: 403, Auditor: 403, Impersonating: 403 },
});
/** A notice scheduled for tomorrow, written straight into the table. */
async function scheduledNotice(f: Fixture): Promise<number> {
  const r = await f.t.db.query<{ id: number }>(
    `INSERT INTO customer_notices (kind, subject, body_text, audience, send_at, created_at, created_by_email)
     VALUES ('maintenance', 'Matrix', 'Text', '{"Type":"all"}', $1, $2, 'matrix@example.com') RETURNING id`,
    [new Date(f.t.clock.now().getTime() + 86_400_000), f.t.clock.now()],
  );
  return Number(r.rows[0]!.id);
}
/** An unsubscribe token of a fresh address. */
const unsubscribeTokenOf = (f: Fixture) =>
  unsubscribeToken(f.t.ctx.crypto, `owner-${randomUUID().slice(0, 8)}@matrix.example`);

const auditRead = (req: Row['request']): Row => ({
  targeted: false,
  request: req,
  expect: { ...signedOut, SuperAdmin: 200, Admin: 403, Support: 403, Auditor: 200, Impersonating: 403 },
});

/**
 * Calls that are not GETs yet leave no trail row: three compute an answer from their body, three
 * begin a second factor's set-up or a step-up with a passkey (a challenge or a pending secret;
 * the set-up or step-up is recorded when it completes), and marking one's own notifications read
 * changes only one's own read state. The GET that starts an impersonation session is recorded.
 * The trail holds a row for every other answered write.
 */
const COMPUTES_ONLY = new Set<EndpointId>([
  // plans a bulk job (kept for its run, which only its actor starts; the run is recorded, bulk.start)
  'bulkDryRun',
  'bulkRequestsDryRun',
  'bulkSessionsDryRun',
  'bulkInvitationsDryRun',
  'bulkCustomersDryRun',
  'customObjectValidate',
  'encryptionPreview',
  'noticeRecipients',
  // fetches the issuer's discovery document and keys, stores nothing
  'ssoTest',
  'passkeyOptions',
  'staffNotificationsRead',
  'stepUpPasskeyOptions',
  'totpEnrolStart',
]);
export const writes = (e: { id: string; method: string }) =>
  (e.method !== 'GET' && !COMPUTES_ONLY.has(e.id as EndpointId)) || e.id === 'switchApp';

/** A link token of the owner's site access page. */
async function siteAccessToken(f: Fixture): Promise<string> {
  const token = randomUUID();
  await f.t.db.query(
    'INSERT INTO site_access_tokens (token_hash, app_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
    [hashSecret(token), f.customer.appId, f.t.clock.now(), new Date(f.t.clock.now().getTime() + 86_400_000)],
  );
  return token;
}

/** A call open to whoever may request impersonation: every built-in role, not the Auditor. */
const impersonationRequester = (req: Row['request']): Row => ({
  targeted: false,
  request: req,
  expect: { ...signedOut, ...everyRole(200), Auditor: 403, Impersonating: 403 },
});

/** A write to a customer or site: SuperAdmin and Admin only. */
type Arranged = { query?: Record<string, string>; payload?: unknown };
const customerWrite = (req: (f: Fixture) => Arranged | Promise<Arranged>, impersonating = 403): Row => ({
  targeted: false,
  request: async (f) => req(f),
  expect: {
    ...signedOut,
    SuperAdmin: 200,
    Admin: 200,
    Support: 403,
    Auditor: 403,
    Impersonating: impersonating,
  },
});

/** A read of a customer or site: every built-in role reads them; the Auditor does not. */
const customerRead = (req: (f: Fixture) => { query?: Record<string, string> }, impersonating = 403): Row => ({
  targeted: false,
  request: async (f) => req(f),
  expect: { ...signedOut, ...everyRole(200), Auditor: 403, Impersonating: impersonating },
});

/** A public door of the second step, called with a ticket nobody holds: 401 (985) whoever calls. */
const bogusTicket = (extra: Record<string, unknown> = {}): Row => ({
  targeted: false,
  request: async () => ({ payload: { Ticket: 'x'.repeat(43), ...extra } }),
  expect: {
    anonymous: 401,
    expired: 401,
    SuperAdmin: 401,
    Admin: 401,
    Support: 401,
    Auditor: 401,
    Impersonating: 401,
  },
});

/** A call on the caller's own second factors: every staff session, never an impersonation session. */
const ownFactors = (status: number, payload?: unknown): Row => ({
  targeted: false,
  request: async () => (payload === undefined ? {} : { payload }),
  expect: { ...signedOut, ...everyRole(status), Auditor: status, Impersonating: 403 },
});

const everyone = (status: number) =>
  ({
    anonymous: status,
    expired: status,
    SuperAdmin: status,
    Admin: status,
    Support: status,
    Auditor: status,
    Impersonating: status,
  }) as const;
const superAdminOnly = (status: number): Row['expect'] => ({
  ...signedOut,
  SuperAdmin: status,
  Admin: 403,
  Support: 403,
  Auditor: 403,
  Impersonating: 403,
});

/** A live API token of `uid` with `permissions` (90 days): its id, and the bearer secret. */
async function matrixToken(t: TestApp, uid: string, permissions: string[]): Promise<number> {
  return (await matrixBearer(t, uid, permissions)).id;
}
export async function matrixBearer(
  t: TestApp,
  uid: string,
  permissions: string[],
): Promise<{ id: number; bearer: string }> {
  const bearer = `sac_${randomUUID()}${randomUUID()}`;
  const id = await insertToken(t.db, {
    uid,
    name: 'matrix',
    token: bearer,
    permissions,
    allowedAddresses: [],
    createdBy: uid,
    at: t.clock.now(),
    expiresAt: new Date(t.clock.now().getTime() + 90 * 86_400_000),
  });
  return { id, bearer };
}

/** A custom role nobody holds, made for one cell; its name. */
async function customRole(t: TestApp): Promise<string> {
  const name = `Role ${randomUUID().slice(0, 8)}`;
  await t.db.query("INSERT INTO roles (name, permissions) VALUES ($1, '{customers.read}')", [name]);
  return name;
}

/** A webhook subscription to a closed loopback port, for the webhook calls. */
async function webhook(t: TestApp): Promise<number> {
  return insertSubscription(t.db, {
    url: 'http://127.0.0.1:9/hook',
    description: '',
    eventTypes: ['site.created'],
    secret: t.ctx.crypto.encrypt('whsec_AAAA'),
    by: {
      uid: (await t.db.query<{ uid: string }>('SELECT uid FROM staff LIMIT 1')).rows[0]!.uid,
      email: 'm',
    },
    at: t.clock.now(),
  });
}

/** SuperAdmins only (the service checks the role; team.write alone is not enough). */
const superAdminCall = (req: Row['request']): Row => ({
  targeted: false,
  request: req,
  expect: superAdminOnly(200),
});

export const MATRIX: Record<EndpointId, Row> = {
  loginSecondStep: bogusTicket({ Method: 'totp', Code: '123456' }),
  loginPasskeyOptions: bogusTicket(),
  loginEnrolTotp: bogusTicket(),
  loginEnrolTotpConfirm: bogusTicket({ Code: '123456' }),
  loginEnrolPasskeyOptions: bogusTicket(),
  loginEnrolPasskey: bogusTicket({
    Name: 'Key',
    Response: softPasskey().register({ challenge: 'x', rp: { id: 'console.test' } }, CONSOLE_ORIGIN),
  }),
  myFactors: ownFactors(200),
  totpEnrolStart: ownFactors(200, { password: PASSWORD }),
  // no set-up started: 400
  totpEnrolConfirm: ownFactors(400, { Code: '123456' }),
  // no app set up: 404
  totpRemove: ownFactors(404, { password: PASSWORD }),
  passkeyOptions: ownFactors(200, { password: PASSWORD }),
  // no challenge asked for: 400
  passkeyAdd: ownFactors(400, {
    Name: 'Key',
    Response: softPasskey().register({ challenge: 'x', rp: { id: 'console.test' } }, CONSOLE_ORIGIN),
  }),
  passkeyRename: ownFactors(404, { Id: 2_000_000_000, Name: 'Key' }),
  passkeyRemove: ownFactors(404, { Id: 2_000_000_000, password: PASSWORD }),
  // no factor to renew codes of: 409
  recoveryCodesRenew: ownFactors(409, { password: PASSWORD }),
  stepUpStatus: ownFactors(200),
  stepUpPasskeyOptions: {
    ...ownFactors(200),
    request: async ({ t, actor }) => {
      await insertPasskey(t.db, {
        uid: actor.uid,
        credentialId: `matrix-${actor.uid}`,
        publicKey: new Uint8Array(77),
        signCount: 0,
        transports: [],
        name: 'Matrix key',
        at: new Date(),
      });
      return {};
    },
  },
  // no second factor: the password confirms it is them
  stepUp: ownFactors(200, { Method: 'password', Password: PASSWORD }),
  // A colleague's factors: SuperAdmins only, and never their own account this way.
  staffFactorsReset: {
    targeted: true,
    request: async ({ target }) => ({ payload: { uid: target.uid } }),
    expect: {
      ...signedOut,
      SuperAdmin: { own: 403, other: 200 },
      Admin: 403,
      Support: 403,
      Auditor: 403,
      Impersonating: 403,
    },
  },
  login: {
    targeted: false,
    request: async ({ actor }) => ({ payload: { email: actor.email, password: PASSWORD } }),
    expect: {
      anonymous: 200,
      expired: 200,
      SuperAdmin: 200,
      Admin: 200,
      Support: 200,
      Auditor: 200,
      Impersonating: 200,
    },
  },
  // Single sign-on is off in the matrix's app: the sign-in screen reads so, the two steps are 404.
  ssoSignInOptions: {
    targeted: false,
    request: async () => ({}),
    expect: { ...everyone(200) },
  },
  ssoStart: { targeted: false, request: async () => ({ payload: {} }), expect: { ...everyone(404) } },
  ssoFinish: {
    targeted: false,
    request: async () => ({ payload: { Code: 'code', State: 'state', Binder: 'binder' } }),
    expect: { ...everyone(404) },
  },
  ssoSettings: { targeted: false, request: async () => ({}), expect: superAdminOnly(200) },
  ssoSettingsUpdate: {
    targeted: false,
    request: async () => ({
      payload: {
        Enabled: false,
        Name: 'Okta',
        Issuer: 'https://id.example.com',
        ClientId: 'console',
        GroupsClaim: 'groups',
        CreateOnFirstSignIn: false,
        SecondFactorValues: ['mfa'],
        PasswordSignIn: true,
        BreakGlassEmail: null,
        GroupRoles: [{ Group: 'staff-support', Role: 'Support' }],
      },
    }),
    expect: superAdminOnly(200),
  },
  // the discard port refuses at once: answered 200 with what is wrong
  ssoTest: {
    targeted: false,
    request: async () => ({ payload: { Issuer: 'http://127.0.0.1:9' } }),
    expect: superAdminOnly(200),
  },
  logout: {
    targeted: false,
    request: async () => ({}),
    expect: { ...signedOut, SuperAdmin: 200, Admin: 200, Support: 200, Auditor: 200, Impersonating: 200 },
  },
  session: {
    targeted: false,
    request: async () => ({}),
    expect: { ...signedOut, SuperAdmin: 200, Admin: 200, Support: 200, Auditor: 200, Impersonating: 200 },
  },
  forgotPassword: {
    targeted: true,
    request: async ({ target }) => ({ payload: { email: target.email, url: `${CONSOLE_ORIGIN}/login` } }),
    expect: {
      anonymous: 200,
      expired: 200,
      SuperAdmin: 200,
      Admin: 200,
      Support: 200,
      Auditor: 200,
      Impersonating: 200,
    },
  },
  resetPassword: {
    targeted: true,
    request: async ({ t, target }) => {
      const token = await issueToken(t.db, {
        uid: target.uid,
        purpose: 'reset',
        at: t.clock.now(),
        ttlMs: 60_000,
      });
      return { payload: { password: 'Matrix#123', resettoken: token } };
    },
    expect: {
      anonymous: 200,
      expired: 200,
      SuperAdmin: 200,
      Admin: 200,
      Support: 200,
      Auditor: 200,
      Impersonating: 200,
    },
  },
  changePassword: {
    targeted: false,
    request: async () => ({ payload: { oldpassword: PASSWORD, newpassword: 'Matrix#123' } }),
    expect: { ...signedOut, SuperAdmin: 200, Admin: 200, Support: 200, Auditor: 200, Impersonating: 403 },
  },
  mySessions: {
    targeted: false,
    request: async () => ({}),
    expect: { ...signedOut, ...everyRole(200), Auditor: 200, Impersonating: 403 },
  },
  // A session id nobody has: past every check, then 404 (ending a real one would end the matrix's).
  endMySessions: {
    targeted: false,
    request: async () => ({ payload: { Id: 2_000_000_000 } }),
    expect: { ...signedOut, ...everyRole(404), Auditor: 404, Impersonating: 403 },
  },
  // A colleague's sessions: SuperAdmins only, and never their own account this way.
  staffSessions: {
    targeted: true,
    request: async ({ target }) => ({ query: { uid: target.uid } }),
    expect: {
      ...signedOut,
      SuperAdmin: { own: 403, other: 200 },
      Admin: 403,
      Support: 403,
      Auditor: 403,
      Impersonating: 403,
    },
  },
  endStaffSessions: {
    targeted: true,
    request: async ({ target }) => ({ payload: { uid: target.uid, Id: 2_000_000_000 } }),
    expect: {
      ...signedOut,
      SuperAdmin: { own: 403, other: 404 },
      Admin: 403,
      Support: 403,
      Auditor: 403,
      Impersonating: 403,
    },
  },
  teamList: {
    targeted: false,
    request: async () => ({}),
    expect: { ...signedOut, SuperAdmin: 200, Admin: 200, Support: 403, Auditor: 403, Impersonating: 403 },
  },
  teamRoles: {
    targeted: false,
    request: async () => ({}),
    expect: { ...signedOut, SuperAdmin: 200, Admin: 200, Support: 200, Auditor: 200, Impersonating: 403 },
  },
  teamCreate: {
    targeted: false,
    request: async () => ({
      payload: { role: ['Support'], email: `new-${randomUUID()}@example.com`, name: 'New' },
    }),
    expect: { ...signedOut, SuperAdmin: 200, Admin: 200, Support: 403, Auditor: 403, Impersonating: 403 },
  },
  teamUpdateRoles: {
    targeted: true,
    request: async ({ target }) => ({
      payload: { role: ['Support'], uid: target.uid, unAssignRoles: ['Admin'] },
    }),
    // Nobody changes their own roles; Support lacks team.write.
    expect: {
      ...signedOut,
      SuperAdmin: { own: 403, other: 200 },
      Admin: { own: 403, other: 200 },
      Support: 403,
      Auditor: 403,
      Impersonating: 403,
    },
  },
  teamDelete: {
    targeted: true,
    request: async ({ target }) => ({ payload: { role: [], uid: target.uid } }),
    expect: {
      ...signedOut,
      SuperAdmin: { own: 403, other: 200 },
      Admin: { own: 403, other: 200 },
      Support: 403,
      Auditor: 403,
      Impersonating: 403,
    },
  },
  // A pending invitee's invitation again: the target made one (a Support, whom Admins manage too).
  teamResendInvitation: {
    targeted: true,
    request: async ({ t, target }) => {
      await t.db.query('UPDATE staff SET invitation_pending = true WHERE uid = $1', [target.uid]);
      return { payload: { uid: target.uid } };
    },
    expect: {
      ...signedOut,
      SuperAdmin: { own: 403, other: 200 },
      Admin: { own: 403, other: 200 },
      Support: 403,
      Auditor: 403,
      Impersonating: 403,
    },
  },
  // Periodic access review: a SuperAdmin confirms another member's roles at the version read.
  teamReviewDecide: {
    targeted: true,
    request: async ({ t, target }) => ({
      payload: { Uid: target.uid, Decision: 'confirm' },
      headers: { 'if-match': `"${await recordVersion(t.db, `staff:${target.uid}:roles`)}"` },
    }),
    expect: {
      ...signedOut,
      SuperAdmin: { own: 403, other: 200 },
      Admin: 403,
      Support: 403,
      Auditor: 403,
      Impersonating: 403,
    },
  },
  teamReviewExport: auditRead(async () => ({})),
  // Custom roles: SuperAdmins only; the role edited or deleted is made for the cell.
  customRoleCreate: superAdminCall(async () => ({
    payload: { Name: `Role ${randomUUID().slice(0, 8)}`, Permissions: ['customers.read'] },
  })),
  customRoleUpdate: superAdminCall(async ({ t }) => ({
    payload: { Name: await customRole(t), Permissions: ['sites.read'], Scope: { Plans: ['Free'] } },
    headers: { 'if-match': '"1"' },
  })),
  customRoleDelete: superAdminCall(async ({ t }) => ({ payload: { Name: await customRole(t) } })),
  teamProfile: {
    targeted: true,
    request: async ({ target }) => ({ query: { uid: target.uid } }),
    // Anyone opens their own; a Support user opens nobody else's (spec section 6).
    expect: {
      ...signedOut,
      SuperAdmin: 200,
      Admin: 200,
      Support: { own: 200, other: 403 },
      Auditor: { own: 200, other: 403 },
      Impersonating: 403,
    },
  },
  // Customers and sites: reads need customers.read, sites.read or activity.read.
  searchCustomer: customerRead(() => ({ query: { customerName: 'matrix' } })),
  searchCustomerExport: customerRead(() => ({ query: { customerName: 'matrix', sort: '-created' } })),
  customerProfile: customerRead((f) => ({ query: { uid: f.customer.uid } })),
  userProfile: customerRead((f) => ({ query: { uid: f.customer.uid } })),
  loginSessions: customerRead((f) => ({ query: { uid: f.customer.uid } })),
  activityLogs: {
    targeted: false,
    request: async (f) => ({ query: { uid: f.customer.uid } }),
    expect: { ...signedOut, ...everyRole(200), Auditor: 200, Impersonating: 403 },
  },
  customerApps: customerRead((f) => ({ query: { uid: f.customer.uid } })),
  customerAllApps: customerRead((f) => ({ query: { uid: f.customer.uid } })),
  sharedApps: customerRead((f) => ({ query: { uid: f.customer.uid } })),
  appById: customerRead((f) => ({ query: { uId: f.customer.uid, appId: String(f.customer.appId) } }), 200),
  appInfoById: customerRead(
    (f) => ({ query: { uId: f.customer.uid, appId: String(f.customer.appId) } }),
    200,
  ),
  features: customerRead(() => ({})),
  siteDataCenter: customerRead(
    (f) => ({
      query: { userId: f.customer.uid, appId: String(f.customer.appId) },
    }),
    200,
  ),
  siteFeature: customerRead(
    (f) => ({ query: { userId: f.customer.uid, appId: String(f.customer.appId) } }),
    200,
  ),
  siteBasicSettings: customerRead(
    (f) => ({
      query: { uID: f.customer.uid, appId: String(f.customer.appId) },
    }),
    200,
  ),
  customerRoles: {
    targeted: false,
    request: async () => ({}),
    expect: { ...signedOut, ...everyRole(200), Auditor: 200, Impersonating: 403 },
  },
  // Customer and site writes: customers.write and sites.write, which Support and Auditor lack.
  createCustomer: customerWrite(() => ({
    payload: {
      firstname: 'New',
      lastname: 'Customer',
      email: `c-${randomUUID()}@customer.example`,
      appname: `site-${randomUUID().slice(0, 8)}`,
    },
  })),
  updateCustomerProfile: customerWrite((f) => ({
    query: { uid: f.customer.uid },
    payload: {
      data: {
        FirstName: 'Matrix',
        LastName: 'Customer',
        Email: 'matrix@customer.example',
        PhoneNumber: '0123456789',
        TimeZone: 'Europe/Paris',
      },
    },
  })),
  setCustomerPassword: customerWrite((f) => ({
    query: { uid: f.customer.uid },
    payload: { password: 'Cust#1234' },
  })),
  verifyEmail: customerWrite((f) => ({ payload: { uid: f.customer.uid } })),
  addSite: customerWrite((f) => ({
    query: { uid: f.customer.uid },
    payload: { appname: `site-${randomUUID().slice(0, 8)}` },
  })),
  // Staff with sites.write change plan and trial; an impersonation session only with ManageBilling,
  // which the Developer grant lacks. Every call here changes the plan (to the one the site does not
  // have), so the session is refused. The same call with plan and trial unchanged is open to
  // ManageSettings (tested in impersonation.test.ts).
  updateSiteBasicSettings: {
    ...customerWrite(() => ({}), 403),
    request: async (f) => {
      const now = await f.t.db.query<{ plan: string }>('SELECT plan FROM sites WHERE app_id = $1', [
        f.customer.appId,
      ]);
      const plan = now.rows[0]!.plan === 'Developer' ? 'Developer Premium' : 'Developer';
      return {
        query: { uID: f.customer.uid, appId: String(f.customer.appId) },
        payload: { data: { ProductionUrl: 'https://matrix.example.com', Plan: plan, TrialDays: 14 } },
      };
    },
  },
  updateSiteFeatures: customerWrite(
    (f) => ({
      query: { userId: f.customer.uid, appId: String(f.customer.appId) },
      payload: { FeatureSet: 'Free' },
    }),
    200,
  ),
  updateSiteDataCenter: customerWrite(
    (f) => ({
      query: { userId: f.customer.uid, appId: String(f.customer.appId) },
      payload: { Source: 'global-server', GlobalServer: 'use-shared-1', DbName: 'matrix_db' },
    }),
    200,
  ),
  // Staff only: an impersonation session never replaces the site's credentials.
  rotateSiteSecret: customerWrite((f) => ({
    query: { uid: f.customer.uid, appId: String(f.customer.appId) },
    payload: { GraceMinutes: 0 },
  })),
  setSiteStatus: customerWrite((f) => ({
    query: { uId: f.customer.uid, appId: String(f.customer.appId) },
    payload: { Status: 'active' },
  })),
  // Impersonation: request with impersonation.request, decide with impersonation.approve.
  impersonationCreate: impersonationRequester(async (f) => ({ payload: { data: await newRequestData(f) } })),
  impersonationList: impersonationRequester(async () => ({ query: {} })),
  impersonationRequestsExport: impersonationRequester(async () => ({ query: { sort: '-priority' } })),
  impersonationApprovers: impersonationRequester(async () => ({})),
  impersonationReasons: impersonationRequester(async () => ({})),
  impersonationTakenRoles: impersonationRequester(async (f) => ({
    query: { appId: String(f.customer.appId) },
  })),
  impersonationEdit: {
    targeted: true,
    request: async (f) => ({
      query: { requestId: String((await requestBy(f, f.target.email)).id) },
      payload: {
        AdditionalPermissions: [],
        Assignees: [MATRIX_APPROVER],
        Description: 'edit',
        ReasonCode: 'support-ticket',
        Priority: 'Low',
        ProxyRoles: ['Analyst'],
      },
    }),
    // only the requester edits
    expect: { ...signedOut, ...everyRole({ own: 200, other: 403 }), Auditor: 403, Impersonating: 403 },
  },
  impersonationDelete: {
    targeted: true,
    request: async (f) => ({ query: { requestId: String((await requestBy(f, f.target.email)).id) } }),
    expect: { ...signedOut, ...everyRole({ own: 200, other: 403 }), Auditor: 403, Impersonating: 403 },
  },
  impersonationAction: {
    targeted: true,
    request: async (f) => ({
      query: { requestId: String((await requestBy(f, f.target.email, 'granted')).id) },
      payload: { Status: 'Approve', ProxyRoles: ['Developer'], AdditionalPermissions: [], Duration: 30 },
    }),
    // only SuperAdmins decide, and never on their own request
    expect: {
      ...signedOut,
      SuperAdmin: { own: 403, other: 200 },
      Admin: 403,
      Support: 403,
      Auditor: 403,
      Impersonating: 403,
    },
  },
  // Break-glass access: SuperAdmins only (the role, checked by the service); opened on a fresh site.
  breakGlassOptions: superAdminCall(async () => ({})),
  breakGlassReviews: superAdminCall(async () => ({ query: { state: 'all' } })),
  breakGlassOpen: superAdminCall(async (f) => ({
    payload: {
      AppId: await freshSite(f),
      ReasonCode: 'production-incident',
      CaseReference: 'INC-1',
      ProxyRoles: ['Developer'],
      Duration: 30,
    },
  })),
  // The review of the target's break-glass access: never closed by its opener.
  breakGlassReviewClose: {
    targeted: true,
    request: async (f) => ({
      payload: {
        RequestId: await insertImpersonationRequest(f.t.db, {
          appId: await freshSite(f),
          initiator: { uid: f.target.uid, email: f.target.email },
          isCustomerRequest: false,
          consent: null,
          priority: 'Critical',
          description: '',
          why: { reasonCode: 'production-incident', caseReference: 'INC-1' },
          assignees: [],
          proxyRoles: ['Developer'],
          additionalPermissions: [],
          durationMinutes: 30,
          at: f.t.clock.now(),
          breakGlass: { holder: { uid: f.target.uid, email: f.target.email } },
        }),
        Note: 'Looked at the incident; nothing else touched.',
      },
    }),
    expect: {
      ...signedOut,
      SuperAdmin: { own: 403, other: 200 },
      Admin: 403,
      Support: 403,
      Auditor: 403,
      Impersonating: 403,
    },
  },
  impersonationLogs: impersonationRequester(async () => ({ query: {} })),
  impersonationLogsExport: impersonationRequester(async () => ({ query: { sort: 'app' } })),
  customerRequestsList: impersonationRequester(async () => ({})),
  customerRequestsCreate: {
    targeted: false,
    // the customer's own call: their site's API key and secret, no staff session needed
    request: async (f) => {
      const site = await insertSite(f.t.db, {
        owner: f.customer.uid,
        name: `cust-${randomUUID().slice(0, 8)}`,
      });
      return {
        headers: { apikey: site.apiKey, apisecret: site.secret },
        payload: {
          data: {
            Priority: 'High',
            Description: 'help',
            ProxyRoles: ['Developer'],
            AdditionalPermissions: [],
            Duration: 30,
          },
        },
      };
    },
    expect: { anonymous: 200, expired: 200, ...everyRole(200), Auditor: 200, Impersonating: 200 },
  },
  siteAccess: {
    targeted: false,
    request: async (f) => ({ query: { token: await siteAccessToken(f) } }),
    expect: { anonymous: 200, expired: 200, ...everyRole(200), Auditor: 200, Impersonating: 200 },
  },
  siteAccessExport: {
    targeted: false,
    request: async (f) => ({ query: { token: await siteAccessToken(f), format: 'json' } }),
    expect: { anonymous: 200, expired: 200, ...everyRole(200), Auditor: 200, Impersonating: 200 },
  },
  siteAccessFeed: {
    targeted: false,
    request: async (f) => ({ query: { token: await siteAccessToken(f) } }),
    expect: { anonymous: 200, expired: 200, ...everyRole(200), Auditor: 200, Impersonating: 200 },
  },
  consentDetails: {
    targeted: false,
    request: async (f) => ({ query: { token: (await requestBy(f, MATRIX_APPROVER)).consentToken } }),
    expect: { anonymous: 200, expired: 200, ...everyRole(200), Auditor: 200, Impersonating: 200 },
  },
  consentAnswer: {
    targeted: false,
    request: async (f) => ({
      payload: { token: (await requestBy(f, MATRIX_APPROVER)).consentToken, granted: true },
    }),
    expect: { anonymous: 200, expired: 200, ...everyRole(200), Auditor: 200, Impersonating: 200 },
  },
  // Site settings: read with site-settings.read, change with site-settings.write; an
  // impersonation session as Developer reads (ViewData) and changes (ManageSettings) its site.
  customObjectList: settingsRead(async (f) => {
    await insertObject(f);
    return { query: siteOf(f) };
  }, 200),
  customObjectCreate: settingsWrite(async (f) => ({
    query: siteOf(f),
    payload: {
      Id: `obj-${randomUUID().slice(0, 8)}`,
      Name: 'Matrix',
      SizeMB: 5,
      Schema: '{"type":"object"}',
    },
  })),
  customObjectDelete: settingsWrite(async (f) => ({
    query: siteOf(f),
    payload: { objId: await insertObject(f) },
  })),
  customObjectSchema: settingsWrite(async (f) => ({
    query: siteOf(f),
    payload: { objId: await insertObject(f), Schema: '{"type":"object"}' },
  })),
  customObjectValidate: settingsRead(
    async (f) => ({
      query: siteOf(f),
      payload: { Schema: '{"type":"object"}', Sample: '{}' },
    }),
    200,
  ),
  hubDomain: settingsRead(async () => ({}), 403),
  customDomainList: settingsRead(async (f) => ({ query: siteOf(f) }), 200),
  // Every site's domains: not a site's, so no impersonation session reads it.
  customDomainsAll: settingsRead(async () => ({ query: { status: 'pending' } }), 403),
  customDomainCreate: settingsWrite(async (f) => ({
    query: siteOf(f),
    payload: { domain: `d${randomUUID().slice(0, 8)}.matrix.example` },
  })),
  customDomainDelete: settingsWrite(async (f) => ({
    query: siteOf(f),
    payload: { domain: await insertDomain(f) },
  })),
  customDomainVerify: settingsWrite(async (f) => ({
    query: siteOf(f),
    payload: { domain: await insertDomain(f) },
  })),
  appSettings: settingsRead(async (f) => ({ query: siteOf(f) }), 200),
  updateAppSettings: settingsWrite(async (f) => ({
    query: siteOf(f),
    payload: { data: { ProductionUrl: 'https://matrix.example.com' } },
  })),
  applicationSecurity: settingsRead(async (f) => {
    await f.t.db.query(
      `INSERT INTO application_security (app_id, settings, modified_at) VALUES ($1, '{}', now())
       ON CONFLICT (app_id) DO NOTHING`,
      [f.customer.appId],
    );
    return { query: siteOf(f) };
  }, 200),
  updateApplicationSecurity: settingsWrite(async (f) => ({
    query: siteOf(f),
    payload: {
      data: {
        SignInMode: 'Optional',
        MfaMode: 'Off',
        PasswordMinLength: 8,
        MaxFailedLogins: 0,
        LockoutMinutes: 0,
        SessionTimeoutMinutes: 60,
        SecurityReportTime: '',
      },
    },
  })),
  passwordSettings: settingsRead(async (f) => ({ query: siteOf(f) }), 200),
  previousPasswordSettings: settingsRead(async (f) => {
    await insertEncryption(f, 'previous-password');
    return { query: siteOf(f) };
  }, 200),
  securityQuestionSettings: settingsRead(async (f) => {
    await insertEncryption(f, 'security-answer');
    return { query: siteOf(f) };
  }, 200),
  saveEncryptionSettings: settingsWrite(async (f) => ({
    query: siteOf(f),
    payload: { Set: 'password', data: HASHING },
  })),
  encryptionPreview: settingsRead(
    async (f) => ({ query: siteOf(f), payload: { data: HASHING, Sample: 'Secret#1' } }),
    200,
  ),
  activeCustomFields: settingsRead(async (f) => ({ query: siteOf(f) }), 200),
  customRegistrationDataList: settingsRead(async (f) => ({ query: siteOf(f) }), 200),
  addDataSource: settingsWrite(async (f) => ({
    query: siteOf(f),
    payload: { Name: `ds_${randomUUID().slice(0, 8)}`, Items: [{ Value: 'a', Text: 'A' }] },
  })),
  addCustomField: settingsWrite(async (f) => ({
    query: siteOf(f),
    payload: { Name: `f_${randomUUID().slice(0, 8)}`, Display: 'F', Type: 'string', Rules: 'required' },
  })),
  saveDefaultFields: settingsWrite(async (f) => ({
    query: siteOf(f),
    payload: { Fields: [{ Name: 'FirstName', Enabled: true, Rules: '' }] },
  })),
  integrations: settingsRead(
    async (f) => ({ query: { uId: f.customer.uid, appId: String(f.customer.appId) } }),
    200,
  ),
  updateAccess: {
    targeted: true,
    request: async (f) => ({ query: { appId: String(await grantTo(f)), userId: f.customer.uid } }),
    // only the holder of a live grant; an impersonation session asks nothing more
    expect: { ...signedOut, ...everyRole({ own: 200, other: 403 }), Auditor: 403, Impersonating: 403 },
  },
  dashboard: {
    targeted: false,
    request: async () => ({}),
    expect: { ...signedOut, SuperAdmin: 200, Admin: 200, Support: 200, Auditor: 200, Impersonating: 403 },
  },
  // The list behind the dashboard's trials card: whoever sees the card (sites.read).
  trialsEnding: customerRead(() => ({ query: { days: '30', sort: '-ends' } })),
  noticeList: noticesSend(async () => ({})),
  noticeCreate: noticesSend(async (f) => ({
    payload: {
      Kind: 'maintenance',
      Subject: 'Matrix',
      Text: 'Planned work.',
      Audience: { Type: 'plan', Plans: ['Developer'] },
      SendAt: new Date(f.t.clock.now().getTime() + 86_400_000).toISOString(),
    },
  })),
  noticeRecipients: noticesSend(async () => ({ payload: { Audience: { Type: 'all' } } })),
  noticeAudienceOptions: noticesSend(async () => ({})),
  noticeSiteOptions: noticesSend(async () => ({ query: { term: 'matrix' } })),
  noticeOne: noticesSend(async (f) => ({ query: { id: String(await scheduledNotice(f)) } })),
  noticeDeliveries: noticesSend(async (f) => ({ query: { id: String(await scheduledNotice(f)) } })),
  noticeCancel: noticesSend(async (f) => ({ payload: { Id: await scheduledNotice(f) } })),
  noticeUnsubscribeDetails: {
    targeted: false,
    request: async (f) => ({ query: { token: unsubscribeTokenOf(f) } }),
    expect: { anonymous: 200, expired: 200, ...everyRole(200), Auditor: 200, Impersonating: 200 },
  },
  noticeUnsubscribe: {
    targeted: false,
    request: async (f) => ({ query: { token: unsubscribeTokenOf(f) } }),
    expect: { anonymous: 200, expired: 200, ...everyRole(200), Auditor: 200, Impersonating: 200 },
  },
  // One's own notifications: every staff session, never an impersonation session.
  staffNotifications: ownFactors(200),
  staffNotificationsRead: ownFactors(200, { All: true }),
  staffNotificationPreferences: ownFactors(200),
  staffNotificationPreferencesSave: ownFactors(200, {
    Preferences: [{ Kind: 'consent', Delivery: 'email' }],
  }),
  staffNotificationStream: { ...ownFactors(200), stream: true },
  auditEvents: auditRead(async () => ({ query: { action: 'login.success' } })),
  auditExport: auditRead(async () => ({ query: { format: 'jsonl', action: 'team.create' } })),
  auditSigningKey: auditRead(async () => ({})),
  auditStream: auditRead(async () => ({})),
  switchApp: {
    targeted: true,
    request: async (f) => ({ query: { appid: String(await grantTo(f)) } }),
    expect: { ...signedOut, ...everyRole({ own: 200, other: 403 }), Auditor: 403, Impersonating: 403 },
  },
  // Tokens: one's own, never from an impersonation session; the list of everyone's is the SuperAdmin's.
  apiTokenList: ownFactors(200),
  apiTokenCreate: ownFactors(200, { Name: 'matrix', ExpiresInDays: 30, Permissions: [] }),
  // A token of the target's: its owner revokes it, a SuperAdmin anyone's; another finds none (404).
  apiTokenRevoke: {
    targeted: true,
    request: async ({ t, target }) => ({ payload: { Id: await matrixToken(t, target.uid, []) } }),
    expect: {
      ...signedOut,
      SuperAdmin: 200,
      Admin: { own: 200, other: 404 },
      Support: { own: 200, other: 404 },
      Auditor: { own: 200, other: 404 },
      Impersonating: 403,
    },
  },
  serviceAccountCreate: superAdminCall(async () => ({
    payload: { Name: 'Matrix robot', Roles: ['Support'] },
  })),
  scimTokenList: superAdminCall(async () => ({})),
  scimTokenCreate: superAdminCall(async () => ({ payload: { Name: 'matrix' } })),
  scimTokenRevoke: superAdminCall(async ({ t }) => ({
    payload: {
      Id: (await createScimToken(t.ctx, { uid: null, email: 'm', clientAddress: '127.0.0.1' }, 'm')).Data.Id,
    },
  })),
  addressAllowlist: superAdminCall(async () => ({})),
  addressAllowlistSave: superAdminCall(async () => ({ payload: { Entries: [] } })),
  // webhooks.manage: the built-in SuperAdmin's alone
  webhookList: superAdminCall(async () => ({})),
  webhookCreate: superAdminCall(async () => ({
    payload: { Url: 'http://127.0.0.1:9/new', EventTypes: ['site.created'] },
  })),
  webhookUpdate: superAdminCall(async ({ t }) => ({
    payload: { Id: await webhook(t), Url: 'http://127.0.0.1:9/moved', EventTypes: ['customer.created'] },
  })),
  webhookDelete: superAdminCall(async ({ t }) => ({ payload: { Id: await webhook(t) } })),
  // Bulk actions: those of the single site action (sites.write); the approval a SuperAdmin's, of
  // another's job (MATRIX_APPROVER asked for it).
  bulkDryRun: customerWrite((f) => ({
    payload: { Action: 'site.deactivate', Uid: f.customer.uid, Selection: { Kind: 'all' } },
  })),
  // The customer search's: those of the single site action (sites.write), over all the search
  // matches ('matrix': every fixture customer of the scope matrix, which checks none outside the
  // principal's scope is named).
  bulkCustomersDryRun: customerWrite(() => ({
    payload: {
      Action: 'customer.deactivate-sites',
      Selection: { Kind: 'all', Search: { customerName: 'matrix' } },
    },
  })),
  // The requests list's: those of the single decision (impersonation.approve, SuperAdmins).
  bulkRequestsDryRun: superAdminCall(async (f) => ({
    payload: {
      Action: 'request.reject',
      Selection: { Kind: 'rows', Ids: [(await requestBy(f, MATRIX_APPROVER)).id] },
    },
  })),
  // The team list's invitations: the team's writers (a member outside their rights is planned refused).
  bulkInvitationsDryRun: {
    targeted: false,
    request: async () => ({
      payload: { Action: 'invitation.resend', Selection: { Kind: 'rows', Uids: [randomUUID()] } },
    }),
    expect: { ...signedOut, SuperAdmin: 200, Admin: 200, Support: 403, Auditor: 403, Impersonating: 403 },
  },
  // A colleague's sessions: SuperAdmins', never of their own account (as endStaffSessions); a
  // session id that is no live one is planned refused.
  bulkSessionsDryRun: {
    targeted: true,
    request: async ({ target }) => ({
      payload: {
        Action: 'session.end',
        StaffUid: target.uid,
        Selection: { Kind: 'rows', Ids: [2_000_000_000] },
      },
    }),
    expect: {
      ...signedOut,
      SuperAdmin: { own: 403, other: 200 },
      Admin: 403,
      Support: 403,
      Auditor: 403,
      Impersonating: 403,
    },
  },
  // The job's calls are open to anyone signed in; the service asks for the permission of the
  // job's list (here a customer's sites: sites.write), so the cells are those of the sites' list.
  bulkRun: customerWrite(async (f) => ({
    payload: { Id: await bulkJobOf(f.t, f.actor, f.customer.uid, 'planned') },
  })),
  bulkApprove: {
    targeted: false,
    request: async (f) => {
      const approver = { uid: await staffUid(f.t, MATRIX_APPROVER), email: MATRIX_APPROVER };
      return { payload: { Id: await bulkJobOf(f.t, approver, f.customer.uid, 'awaiting-approval', true) } };
    },
    expect: superAdminOnly(200),
  },
  bulkCancel: customerWrite(async (f) => ({
    payload: { Id: await bulkJobOf(f.t, f.actor, f.customer.uid, 'queued') },
  })),
  bulkUndo: customerWrite(async (f) => ({
    payload: { Id: await bulkJobOf(f.t, f.actor, f.customer.uid, 'done') },
  })),
  bulkJob: customerWrite(async (f) => ({
    query: { id: String(await bulkJobOf(f.t, f.actor, f.customer.uid, 'planned')) },
  })),
  webhookPause: superAdminCall(async ({ t }) => ({ payload: { Id: await webhook(t) } })),
  webhookResume: superAdminCall(async ({ t }) => {
    const id = await webhook(t);
    await t.db.query(
      "UPDATE webhook_subscriptions SET state = 'paused', paused_reason = 'manual' WHERE id = $1",
      [id],
    );
    return { payload: { Id: id } };
  }),
  webhookRotateSecret: superAdminCall(async ({ t }) => ({
    payload: { Id: await webhook(t), OverlapHours: 1 },
  })),
  webhookTest: superAdminCall(async ({ t }) => ({ payload: { Id: await webhook(t) } })),
  webhookDeliveries: superAdminCall(async ({ t }) => ({ query: { id: String(await webhook(t)) } })),
  webhookRedeliver: superAdminCall(async ({ t }) => {
    const id = await webhook(t);
    const d = await t.db.query<{ id: string }>(
      `INSERT INTO webhook_deliveries (subscription_id, event_id, event_type, payload, occurred_at, created_at, state)
       VALUES ($1, 'evt_1', 'site.created', '{}', now(), now(), 'failed') RETURNING id::text`,
      [id],
    );
    return { payload: { Id: id, DeliveryId: Number(d.rows[0]!.id) } };
  }),
};
