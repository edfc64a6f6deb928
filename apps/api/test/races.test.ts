import type { BodyOf, EndpointId, QueryOf } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import { TRANSITION_ERRORS } from '@sac/contract/impersonation';
import { IMPERSONATION_MESSAGES } from '@sac/contract/impersonation-api';
import { IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session-messages';
import { MESSAGES } from '@sac/contract/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { type Answer, CONSOLE_ORIGIN, createTestApp, PASSWORD, type TestApp } from './harness.ts';
import { insertGrant, insertRequest } from './impersonation-fixtures.ts';

/**
 * Races: conflicting calls fired at the same moment through the HTTP app, many rounds
 * each. A client must see at most one winner where only one can win, a refusal in the contract's
 * words for the loser, and afterwards a stored state (and its log) that one serial order of the
 * successful calls explains. On PostgreSQL (a pool of 4 connections) the calls truly overlap in
 * the database; PGlite has one connection, so there they interleave only between statements.
 */
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 20);
type S = { xtoken: string; xsign: string };
type R = Answer<EndpointId>;

const ok = (r: R) => r.status === 200;
/** The refusal a client sees: HTTP status, ErrorCode and the text it shows. */
const refusal = (r: R) => {
  const b = r.error;
  return { status: r.status, code: b.ErrorCode, text: b.Description };
};
/** Runs one round's calls concurrently: all are started before any is awaited. */
const race = <T extends Array<() => Promise<R>>>(...calls: T) =>
  Promise.all(calls.map((c) => c())) as Promise<{ [K in keyof T]: Awaited<ReturnType<T[K]>> }>;

describe('impersonation decisions', () => {
  let t: TestApp;
  let boss: S; // SuperAdmin
  let chief: S; // another SuperAdmin
  let agent: S; // Admin who asks
  let agentUid: string;
  let owner: string;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp();
    await t.addStaff('boss@example.com', ['SuperAdmin']);
    await t.addStaff('chief@example.com', ['SuperAdmin']);
    agentUid = await t.addStaff('agent@example.com', ['Admin']);
    boss = await t.login('boss@example.com');
    chief = await t.login('chief@example.com');
    agent = await t.login('agent@example.com');
    owner = await insertCustomer(t.db, { first: 'Rae', last: 'Race', email: 'rae@race.example' });
  });
  afterAll(() => t.close());

  /** A fresh site and a pending request on it by the agent (its own site, so roles never clash). */
  async function pending(consent: 'pending' | 'granted' = 'granted', roles = ['Developer']) {
    const { appId } = await insertSite(t.db, { owner, name: `race-site-${++seq}` });
    const { id, consentToken } = await insertRequest(t.db, {
      appId,
      initiator: 'agent@example.com',
      assignees: ['boss@example.com', 'chief@example.com'],
      roles,
      consent,
      at: t.clock.now(),
    });
    return { id, appId, consentToken };
  }

  const action = (
    session: S,
    id: number,
    body: BodyOf<'impersonationAction'>,
    revokeAction?: QueryOf<'impersonationAction'>['revokeAction'],
  ) =>
    t.call('impersonationAction', {
      session,
      query: { requestId: String(id), ...(revokeAction ? { revokeAction } : {}) },
      body,
    });
  const approve = (session: S, id: number, minutes = 30, roles = ['Developer']) =>
    action(session, id, {
      Status: 'Approve',
      ProxyRoles: roles,
      AdditionalPermissions: [],
      Duration: minutes,
    });
  const reject = (session: S, id: number) => action(session, id, { Status: 'Reject', Comments: 'no' });
  const revoke = (session: S, id: number, roles?: string[]) =>
    roles
      ? action(session, id, { Status: 'Revoke', ProxyRoles: roles }, 'roles')
      : action(session, id, { Status: 'Revoke' }, 'site');
  const remove = (session: S, id: number) =>
    t.call('impersonationDelete', { session, query: { requestId: String(id) } });
  const answer = (token: string, granted: boolean) => t.call('consentAnswer', { body: { token, granted } });

  /** The request as the console lists it to a SuperAdmin; undefined once deleted. */
  async function shown(id: number) {
    const r = await t.call('impersonationList', { session: boss, query: { requestId: String(id) } });
    expect(r.status).toBe(200);
    return r.body.Data.find((x) => x.Id === id);
  }
  /** The request as listed, which must still be there. */
  async function listed(id: number) {
    const row = await shown(id);
    expect(row).toBeDefined();
    return row!;
  }
  /** The request's events in the impersonation log, oldest first, as the Logs screen pages through them. */
  async function events(id: number): Promise<string[]> {
    const all: Array<{ RequestId: number; Event: string; Actor: string | null }> = [];
    let cursor: string | null = null;
    do {
      const r: Answer<'impersonationLogs'> = await t.call('impersonationLogs', {
        session: boss,
        query: { limit: '200', ...(cursor ? { cursor } : {}) },
      });
      expect(r.status).toBe(200);
      all.push(...r.body.Data);
      cursor = r.body.NextCursor;
      // older pages hold only older requests' steps once this request's first step is read
    } while (cursor && !all.some((x) => x.RequestId === id && x.Event === 'request'));
    return all
      .filter((x) => x.RequestId === id)
      .reverse()
      .map((x) => `${x.Event} ${x.Actor}`);
  }
  const minutesGranted = (row: { Action: { ExpiresAt: string | null; ActionTakenAt: string | null } }) =>
    (Date.parse(row.Action.ExpiresAt!) - Date.parse(row.Action.ActionTakenAt!)) / 60_000;

  it('two approvals at once: one wins, the other is told the request is no longer pending', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id } = await pending();
      const [a, b] = await race(
        () => approve(boss, id, 30),
        () => approve(chief, id, 45),
      );
      expect([a, b].filter(ok)).toHaveLength(1);
      const [winner, loser] = ok(a) ? [a, b] : [b, a];
      expect(refusal(loser)).toEqual({ status: 409, code: 945, text: TRANSITION_ERRORS.notPending });
      const by = ok(a) ? 'boss@example.com' : 'chief@example.com';
      const row = await listed(id);
      expect(row.Action).toMatchObject({ Status: 'Approved', ActionTakenBy: by });
      expect(minutesGranted(row)).toBe(ok(a) ? 30 : 45);
      expect(winner.body.Data.ExpiresAt).toBe(row.Action.ExpiresAt);
      expect(await events(id)).toEqual([`approve ${by}`]);
    }
  });

  it('approve against reject: exactly one decision stands, and the log holds only it', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id } = await pending();
      const [a, r] = await race(
        () => approve(boss, id),
        () => reject(chief, id),
      );
      expect([a, r].filter(ok)).toHaveLength(1);
      expect(refusal(ok(a) ? r : a)).toEqual({ status: 409, code: 945, text: TRANSITION_ERRORS.notPending });
      const row = await listed(id);
      if (ok(a)) {
        expect(row.Action).toMatchObject({ Status: 'Approved', ActionTakenBy: 'boss@example.com' });
        expect(await events(id)).toEqual(['approve boss@example.com']);
      } else {
        expect(row.Action).toMatchObject({
          Status: 'Rejected',
          ActionTakenBy: 'chief@example.com',
          ExpiresAt: null,
        });
        expect(await events(id)).toEqual(['reject chief@example.com']);
      }
    }
  });

  it('approve against the requester deleting: one wins; an approval never lands on a deleted request', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id } = await pending();
      const [a, d] = await race(
        () => approve(boss, id),
        () => remove(agent, id),
      );
      expect([a, d].filter(ok)).toHaveLength(1);
      if (ok(a)) {
        expect(refusal(d)).toEqual({ status: 409, code: 945, text: TRANSITION_ERRORS.notPending });
        expect((await listed(id)).Action.Status).toBe('Approved');
        expect(await events(id)).toEqual(['approve boss@example.com']);
      } else {
        expect(refusal(a)).toMatchObject({ status: 404, code: 927 });
        expect(d.body).toMatchObject({ IsDeleted: true, Id: id });
        expect(await shown(id)).toBeUndefined();
        expect(await events(id)).toEqual(['delete agent@example.com']);
      }
    }
  });

  it('approve against revoke: a revoke counts only after the approval, and then ends the grant', async () => {
    // Revoke applies to an approved request only: either it came first and is refused (the grant
    // stands), or it came second and the request ends Revoked. Never revoked-then-approved.
    let revokedFirst = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const { id } = await pending();
      const [a, v] = await race(
        () => approve(boss, id),
        () => revoke(chief, id),
      );
      expect(ok(a)).toBe(true);
      const row = await listed(id);
      if (ok(v)) {
        expect(v.body.Data.Action.Status).toBe('Revoked');
        expect(row.Action.Status).toBe('Revoked');
        expect(await events(id)).toEqual(['approve boss@example.com', 'revoke chief@example.com']);
      } else {
        revokedFirst++;
        expect(refusal(v)).toEqual({ status: 409, code: 945, text: TRANSITION_ERRORS.notApproved });
        expect(row.Action.Status).toBe('Approved');
        expect(await events(id)).toEqual(['approve boss@example.com']);
      }
    }
    expect(revokedFirst).toBeLessThanOrEqual(ROUNDS);
  });

  it('two partial revokes at once: nothing revoked comes back (no lost update)', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id } = await pending('granted', ['Developer', 'Analyst']);
      expect((await approve(boss, id, 30, ['Developer', 'Analyst'])).status).toBe(200);
      const [x, y] = await race(
        () => revoke(boss, id, ['Developer']),
        () => revoke(chief, id, ['Analyst']),
      );
      expect(ok(x) && ok(y)).toBe(true);
      const row = await listed(id);
      expect(row.Action).toMatchObject({ Status: 'Revoked', ApprovedProxyRoles: [] });
      const log = await events(id);
      expect(log[0]).toBe('approve boss@example.com');
      expect(log.slice(1).sort()).toEqual(['revoke boss@example.com', 'revoke chief@example.com']);
    }
  });

  it("another SuperAdmin's partial revoke, racing the holder's calls, leaves the grant with its holder", async () => {
    // A customer's own request: the approving SuperAdmin (boss) holds the grant. chief revokes one
    // role while boss uses the grant and chief tries to: the revoke narrows boss's grant and never
    // hands it to chief (the holder was once read from action_taken_by, which every action
    // overwrote).
    const access = (session: S, appId: number) =>
      t.call('updateAccess', { session, query: { appId: String(appId), userId: owner } });
    const switchApp = (session: S, appId: number) =>
      t.call('switchApp', { session, query: { appid: String(appId) } });
    const read = (session: S, appId: number) =>
      t.call('appInfoById', { session, query: { uId: owner, appId: String(appId) } });
    for (let i = 0; i < ROUNDS; i++) {
      const { id, appId } = await pending('granted', ['Developer', 'Analyst']);
      await t.db.query(
        "UPDATE impersonation_requests SET is_customer_request = true, initiator_email = 'rae@race.example' WHERE id = $1",
        [id],
      );
      expect((await approve(boss, id, 30, ['Developer', 'Analyst'])).status).toBe(200);
      const opened = await switchApp(boss, appId);
      expect(opened.status).toBe(200);
      const imp = { xtoken: opened.body.xtoken, xsign: opened.body.xsign };
      const [v, mine, used, theirs, theirAccess] = await race(
        () => revoke(chief, id, ['Analyst']),
        () => access(boss, appId),
        () => read(imp, appId),
        () => switchApp(chief, appId),
        () => access(chief, appId),
      );
      expect(ok(v)).toBe(true);
      expect(ok(mine)).toBe(true);
      expect(ok(used)).toBe(true);
      expect(refusal(theirs)).toEqual({
        status: 403,
        code: 947,
        text: IMPERSONATION_SESSION_MESSAGES.noGrant,
      });
      expect(theirAccess.status).toBe(403);
      // afterwards: boss holds the narrowed grant and its session still works; chief holds nothing
      expect((await access(boss, appId)).body.Data).toMatchObject({ RequestId: id, Roles: ['Developer'] });
      expect((await read(imp, appId)).status).toBe(200);
      expect((await access(chief, appId)).status).toBe(403);
      expect((await listed(id)).Action).toMatchObject({
        Status: 'Approved',
        ActionTakenBy: 'chief@example.com',
      });
    }
  });

  it('revoke against opening an impersonation session: after the revoke no session reaches the site', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { appId } = await insertSite(t.db, { owner, name: `race-site-${++seq}` });
      const id = await insertGrant(t.db, {
        appId,
        initiatorUid: agentUid,
        initiatorEmail: 'agent@example.com',
        roles: ['Developer'],
        now: t.clock.now(),
      });
      const [sw, v] = await race(
        () => t.call('switchApp', { session: agent, query: { appid: String(appId) } }),
        () => revoke(boss, id),
      );
      expect(ok(v)).toBe(true);
      if (!ok(sw))
        expect(refusal(sw)).toEqual({ status: 403, code: 947, text: IMPERSONATION_SESSION_MESSAGES.noGrant });
      else {
        const imp = { xtoken: sw.body.xtoken, xsign: sw.body.xsign };
        const call = await t.call('appInfoById', {
          session: imp,
          query: { uId: owner, appId: String(appId) },
        });
        expect(refusal(call)).toEqual({ status: 401, code: 901, text: IMPERSONATION_SESSION_MESSAGES.ended });
      }
      expect((await listed(id)).Action.Status).toBe('Revoked');
      const again = await t.call('switchApp', { session: agent, query: { appid: String(appId) } });
      expect(again.status).toBe(403);
    }
  });

  it('one consent link answered twice at once (allow and deny): one answer counts', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id, consentToken } = await pending('pending');
      const [yes, no] = await race(
        () => answer(consentToken, true),
        () => answer(consentToken, false),
      );
      expect([yes, no].filter(ok)).toHaveLength(1);
      expect(refusal(ok(yes) ? no : yes)).toEqual({
        status: 400,
        code: 975,
        text: IMPERSONATION_MESSAGES.consentLinkInvalid,
      });
      const row = await listed(id);
      expect(row.Consent).toBe(ok(yes) ? 'granted' : 'denied');
      expect(await events(id)).toEqual([`consent-${ok(yes) ? 'granted' : 'denied'} rae@race.example`]);
      const details = await t.call('consentDetails', { query: { token: consentToken } });
      expect(details.status).toBe(400);
    }
  });

  it('consent against approve: an approval never lands before the customer allowed it', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id, consentToken } = await pending('pending');
      const [c, a] = await race(
        () => answer(consentToken, true),
        () => approve(boss, id),
      );
      expect(ok(c)).toBe(true);
      const row = await listed(id);
      expect(row.Consent).toBe('granted');
      if (ok(a)) {
        expect(row.Action.Status).toBe('Approved');
        expect(await events(id)).toEqual(['consent-granted rae@race.example', 'approve boss@example.com']);
      } else {
        expect(refusal(a)).toEqual({
          status: 400,
          code: 946,
          text: MESSAGES.customerNotGrantedImpersonation,
        });
        expect(row.Action.Status).toBe('Pending');
        expect(await events(id)).toEqual(['consent-granted rae@race.example']);
      }
    }
  });

  it('consent against the requester deleting: a deleted request takes no answer', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { id, consentToken } = await pending('pending');
      const [c, d] = await race(
        () => answer(consentToken, true),
        () => remove(agent, id),
      );
      expect(ok(d)).toBe(true);
      expect(await shown(id)).toBeUndefined();
      if (ok(c)) {
        expect(await events(id)).toEqual(['consent-granted rae@race.example', 'delete agent@example.com']);
      } else {
        expect(refusal(c)).toEqual({
          status: 400,
          code: 975,
          text: IMPERSONATION_MESSAGES.consentLinkInvalid,
        });
        expect(await events(id)).toEqual(['delete agent@example.com']);
      }
    }
  });
});

// Each round hashes or verifies a password about ten times (argon2id, by design slow): on a loaded
// two-core machine twenty rounds outlast the default 30 s, which is no finding about the races.
describe('password reset', { timeout: 120_000 }, () => {
  let t: TestApp;
  let boss: S;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp();
    await t.addStaff('boss@example.com', ['SuperAdmin']);
    boss = await t.login('boss@example.com');
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, remoteAddress: string) =>
    t.call('login', { body: { email, password }, remoteAddress });
  const me = (s: S) => t.call('session', { session: s });
  const reset = (resettoken: string, password: string) =>
    t.call('resetPassword', { body: { password, resettoken } });
  const pair = (r: Answer<'login'>): S => {
    const b = r.body;
    if (!('xtoken' in b)) throw new Error('login asked for a second step');
    return { xtoken: b.xtoken, xsign: b.xsign };
  };

  /** A new staff member with a session, and the token of the reset link mailed to them. */
  async function userWithResetLink(roles = ['Support']) {
    const email = `reset-${++n}@example.com`;
    const uid = await t.addStaff(email, roles);
    const session = await t.login(email, PASSWORD, `10.9.${n % 250}.1`);
    const r = await t.call('forgotPassword', { body: { email, url: `${CONSOLE_ORIGIN}/login` } });
    expect(r.status).toBe(200);
    const mail = await t.smtp.waitFor((m) => m.to.includes(email));
    const token = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('vtoken')!;
    return { email, uid, session, token };
  }

  it('one reset link used twice at once: exactly one 200, the password is the winner’s, every session ends', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { email, session, token } = await userWithResetLink();
      const [a, b] = await race(
        () => reset(token, 'Winner#123a'),
        () => reset(token, 'Other#456bc'),
      );
      expect([a, b].filter(ok)).toHaveLength(1);
      expect(refusal(ok(a) ? b : a)).toEqual({ status: 400, code: 905, text: ERRORS.invalidResetToken.text });
      const [won, lost] = ok(a) ? ['Winner#123a', 'Other#456bc'] : ['Other#456bc', 'Winner#123a'];
      const ip = `10.8.${i}.1`;
      expect(refusal(await me(session))).toMatchObject({ status: 401, code: 901 });
      expect(refusal(await login(email, lost, ip))).toEqual({
        status: 401,
        code: 903,
        text: MESSAGES.invalidCredentials,
      });
      expect(refusal(await login(email, PASSWORD, ip))).toMatchObject({ status: 401, code: 903 });
      const fresh = await login(email, won, ip);
      expect(fresh.status).toBe(200);
      expect((await me(pair(fresh))).status).toBe(200);
    }
  });

  it('sign-ins racing a reset: no session made with the old password outlives the reset', async () => {
    let oldPasswordSignIns = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const { email, session, token } = await userWithResetLink();
      const ip = `10.7.${i}.1`;
      const [done, ...signIns] = await race(
        () => reset(token, 'Renewed#789z'),
        () => login(email, PASSWORD, ip),
        () => login(email, PASSWORD, ip),
        () => login(email, PASSWORD, ip),
        () => login(email, 'Renewed#789z', ip),
      );
      expect(done.status).toBe(200);
      for (const [k, r] of signIns.entries()) {
        if (!ok(r)) {
          expect(refusal(r)).toEqual({ status: 401, code: 903, text: MESSAGES.invalidCredentials });
          continue;
        }
        const works = (await me(pair(r))).status;
        if (k < 3) {
          oldPasswordSignIns++;
          // Signed in with the old password: the reset must have ended that session.
          expect(works).toBe(401);
        } else expect(works).toBe(200);
      }
      expect((await me(session)).status).toBe(401);
      // The new password first: up to four of the raced sign-ins may have failed after the reset
      // cleared the account's count, and a fifth failure would lock it (LOCKOUT_THRESHOLD).
      expect((await login(email, 'Renewed#789z', ip)).status).toBe(200);
      expect((await login(email, PASSWORD, ip)).status).toBe(401);
    }
    expect(oldPasswordSignIns).toBeGreaterThanOrEqual(0);
  });

  it('sign-ins racing the deletion of the account: refused in the contract’s words, never a server error', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { email, uid } = await userWithResetLink();
      const ip = `10.6.${i}.1`;
      const [del, ...signIns] = await race(
        () => t.call('teamDelete', { session: boss, body: { role: [], uid } }),
        () => login(email, PASSWORD, ip),
        () => login(email, PASSWORD, ip),
      );
      expect(del.status).toBe(200);
      for (const r of signIns) {
        if (ok(r)) expect((await me(pair(r))).status).toBe(401);
        else expect(refusal(r)).toEqual({ status: 401, code: 903, text: MESSAGES.invalidCredentials });
      }
    }
  });
});

describe('role changes', () => {
  let t: TestApp;
  let root: S; // SuperAdmin
  let deputy: S; // SuperAdmin
  let lead: S; // Admin
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp();
    await t.db.query(
      "INSERT INTO roles (name, description, permissions, built_in) VALUES ('Reviewer', 'Reads', '{customers.read}', false)",
    );
    await t.addStaff('root@example.com', ['SuperAdmin']);
    await t.addStaff('deputy@example.com', ['SuperAdmin']);
    await t.addStaff('lead@example.com', ['Admin']);
    root = await t.login('root@example.com');
    deputy = await t.login('deputy@example.com');
    lead = await t.login('lead@example.com');
  });
  afterAll(() => t.close());

  const setRoles = (session: S, uid: string, role: string[]) =>
    t.call('teamUpdateRoles', { session, body: { role, uid, unAssignRoles: [] } });
  const remove = (session: S, uid: string) => t.call('teamDelete', { session, body: { role: [], uid } });
  const team = async () => {
    const r = await t.call('teamList', { session: root });
    expect(r.status).toBe(200);
    return r.body.Data;
  };
  const rolesOf = async (uid: string) => (await team()).find((u) => u.Uid === uid)?.Roles;
  /** The audit of a member's role changes, oldest first: each change starts where the one before ended. */
  async function roleAudit(uid: string) {
    const r = await t.db.query<{ details: { from: string[]; to: string[] } }>(
      "SELECT details FROM activity_log WHERE action = 'team.roles' AND target_id = $1 ORDER BY id",
      [uid],
    );
    return r.rows.map((x) => x.details);
  }
  const sorted = (xs: string[]) => [...xs].sort();

  it('two SuperAdmins setting one member’s roles at once: the roles are one requested set, never a mix', async () => {
    const a = ['Admin'];
    const b = ['Reviewer', 'Support'];
    for (let i = 0; i < ROUNDS; i++) {
      const uid = await t.addStaff(`member-${++n}@example.com`, ['Support']);
      const theirs = await t.login(`member-${n}@example.com`);
      const [x, y] = await race(
        () => setRoles(root, uid, a),
        () => setRoles(deputy, uid, b),
      );
      expect(ok(x) && ok(y)).toBe(true);
      const final = sorted((await rolesOf(uid))!);
      expect([a, b]).toContainEqual(final);
      const audit = await roleAudit(uid);
      expect(audit).toHaveLength(2);
      expect(sorted(audit[0]!.from)).toEqual(['Support']);
      expect(sorted(audit[1]!.from)).toEqual(sorted(audit[0]!.to));
      expect(sorted(audit[1]!.to)).toEqual(final);
      expect((await t.call('session', { session: theirs })).status).toBe(401);
    }
  });

  it('an Admin’s change racing a promotion to Admin: the Admin never overrides a peer', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const uid = await t.addStaff(`member-${++n}@example.com`, ['Support']);
      const [up, side] = await race(
        () => setRoles(root, uid, ['Admin']),
        () => setRoles(lead, uid, ['Reviewer']),
      );
      expect(ok(up)).toBe(true);
      if (!ok(side))
        expect(refusal(side)).toEqual({ status: 403, code: 936, text: ERRORS.staffNotManageable.text });
      // Either the Admin's change came first and the promotion followed, or it was refused.
      expect(await rolesOf(uid)).toEqual(['Admin']);
      const audit = await roleAudit(uid);
      expect(audit.at(-1)!.to).toEqual(['Admin']);
      if (audit.length === 2) expect(audit[1]!.from).toEqual(audit[0]!.to);
    }
  });

  it('the last two SuperAdmins demoting or deleting each other at once: one wins, one SuperAdmin stays', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const x = await t.addStaff(`sa-x-${i}@example.com`, ['SuperAdmin']);
      const y = await t.addStaff(`sa-y-${i}@example.com`, ['SuperAdmin']);
      let sx = await t.login(`sa-x-${i}@example.com`);
      // Leave exactly x and y holding SuperAdmin.
      for (const u of await team())
        if (u.Uid !== x && u.Uid !== y && u.Roles.includes('SuperAdmin'))
          expect((await setRoles(sx, u.Uid, ['Admin'])).status).toBe(200);
      root = sx;
      sx = await t.login(`sa-x-${i}@example.com`);
      const sy = await t.login(`sa-y-${i}@example.com`);
      const kind = i % 3; // 0: both demote, 1: both delete, 2: one demotes, one deletes
      const [rx, ry] = await race(
        () => (kind === 0 ? setRoles(sx, y, ['Admin']) : remove(sx, y)),
        () => (kind === 1 ? remove(sy, x) : setRoles(sy, x, ['Admin'])),
      );
      expect([rx, ry].filter(ok)).toHaveLength(1);
      const loser = ok(rx) ? ry : rx;
      // Refused at sign-in check (its session ended with its demotion or deletion), by the
      // management rule, or by the last-SuperAdmin rule; each in the contract's words.
      const seen = refusal(loser);
      expect([401, 403, 409]).toContain(seen.status);
      const expected = Object.values(ERRORS).find((e) => e.code === seen.code);
      expect(expected).toMatchObject({ status: seen.status, text: seen.text });
      root = await t.login(`sa-${ok(rx) ? 'x' : 'y'}-${i}@example.com`);
      const holders = (await team()).filter((u) => u.Roles.includes('SuperAdmin')).map((u) => u.Uid);
      expect(holders).toEqual([ok(rx) ? x : y]);
    }
  });
});
