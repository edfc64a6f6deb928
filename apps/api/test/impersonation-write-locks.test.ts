/**
 * The checks that decide an impersonation, notice or session write are made under the lock of
 * the record the write names, in the write's transaction (lib/write-path.ts): a write racing
 * another never acts on what it read before the other committed.
 *
 * Two kinds of test. A hooked one: the statement sink (db/statement-log.ts) sees every statement
 * before it runs, and right after the write's deciding read it starts a competing change (the
 * owner's email, a revoke) on the side; the test then asks whether that change had committed by
 * the time the write queued what it decided (the consent mail, the session's log row). Before the
 * read moved into the transaction it had, on both engines: on PGlite the competing statement ran
 * before the write's transaction began, on PostgreSQL it did not wait for anything. Under the lock
 * it waits for the write's commit. And raced ones, calls fired at the same moment for some rounds,
 * where only one of them may win: on PostgreSQL (a pool of connections) they truly overlap.
 */

import type { EndpointId } from '@sac/contract/endpoints';
import { IMPERSONATION_MESSAGES } from '@sac/contract/impersonation-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type StatementSink, statementHook } from '../src/db/statement-log.ts';
import { sendDueNotices } from '../src/modules/notices/notices.service.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { type Answer, CONSOLE_ORIGIN, createTestApp, type TestApp } from './harness.ts';
import { insertGrant, insertRequest } from './impersonation-fixtures.ts';

const ROUNDS = Number(process.env.RACE_ROUNDS ?? 10);
type S = { xtoken: string; xsign: string };
type R = Answer<EndpointId>;
const race = <T extends Array<() => Promise<R>>>(...calls: T) =>
  Promise.all(calls.map((c) => c())) as Promise<{ [K in keyof T]: Awaited<ReturnType<T[K]>> }>;

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
  await signIn();
  owner = await insertCustomer(t.db, { first: 'Lou', last: 'Lock', email: 'lou@lock.example' });
});
afterAll(() => t.close());
afterEach(() => {
  statementHook.sink = undefined;
});

async function signIn() {
  boss = await t.login('boss@example.com');
  chief = await t.login('chief@example.com');
  agent = await t.login('agent@example.com');
}

const newSite = async (ownerUid = owner) =>
  (await insertSite(t.db, { owner: ownerUid, name: `lock-site-${++seq}` })).appId;

const create = (session: S, appId: number, roles = ['Developer']) =>
  t.call('impersonationCreate', {
    session,
    headers: { origin: CONSOLE_ORIGIN },
    body: {
      data: {
        AppId: appId,
        Priority: 'High',
        Description: 'Locks',
        ReasonCode: 'support-ticket',
        Assignees: ['boss@example.com'],
        ProxyRoles: roles,
        AdditionalPermissions: [],
        Duration: 60,
      },
    },
  });
const action = (session: S, id: number, payload: Record<string, unknown>, revokeAction?: string) =>
  t.callLoose('impersonationAction', {
    session,
    query: { requestId: String(id), ...(revokeAction ? { revokeAction } : {}) },
    body: payload,
  });
const approve = (session: S, id: number) =>
  action(session, id, {
    Status: 'Approve',
    ProxyRoles: ['Developer'],
    AdditionalPermissions: [],
    Duration: 30,
  });
const reject = (session: S, id: number) => action(session, id, { Status: 'Reject', Comments: 'no' });

/**
 * Starts `compete` on the side right after the first statement matching `read` (at the next
 * statement or transaction begin anyone sends), and answers, for the first statement matching
 * `queued` after it, whether `compete` had committed by then.
 */
function competeAfter(read: RegExp, compete: () => Promise<unknown>, queued: RegExp) {
  let phase: 'watching' | 'armed' | 'fired' = 'watching';
  let committed = false;
  const out: { committedAtQueue: boolean | undefined; done: Promise<unknown> } = {
    committedAtQueue: undefined,
    done: Promise.resolve(),
  };
  const fire = () => {
    phase = 'fired';
    out.done = compete().then(() => {
      committed = true;
    });
  };
  const sink: StatementSink = {
    statement(sql) {
      if (phase === 'armed') fire();
      else if (phase === 'watching' && read.test(sql)) phase = 'armed';
      else if (phase === 'fired' && out.committedAtQueue === undefined && queued.test(sql))
        out.committedAtQueue = committed;
    },
    begin() {
      if (phase === 'armed') fire();
      return { wrote: false };
    },
    end() {},
  };
  statementHook.sink = sink;
  return out;
}

describe('opening a request: the site and its owner are read under the site lock', () => {
  it("the owner's email changing meanwhile waits for the request, whose consent mail goes to the owner's address at commit", async () => {
    const uid = await insertCustomer(t.db, { first: 'Em', last: 'Ail', email: 'before@lock.example' });
    const appId = await newSite(uid);
    const watch = competeAfter(
      /from "sites" as "s" inner join "customers" as "c" on "c"\."uid" = "s"\."owner_uid" where "s"\."app_id" = \$1/,
      () => t.db.query('UPDATE customers SET email = $2 WHERE uid = $1', [uid, 'after@lock.example']),
      /insert into "?mail_outbox"?/i,
    );
    const r = await create(agent, appId);
    await watch.done;
    statementHook.sink = undefined;
    expect(r.status, r.raw.body).toBe(200);
    // The owner's change had not committed when the consent mail was queued: it waited for the lock.
    expect(watch.committedAtQueue).toBe(false);
    const mails = await t.db.query<{ to_address: string }>(
      `SELECT to_address FROM mail_outbox WHERE to_address IN ('before@lock.example', 'after@lock.example')`,
    );
    expect(mails.rows.map((m) => m.to_address)).toEqual(['before@lock.example']);
  });

  it('two requests for one role on one site at once: one is opened, the other refused (945)', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const appId = await newSite();
      const [a, b] = await race(
        () => create(agent, appId),
        () => create(boss, appId),
      );
      const codes = [a.status, b.status].sort();
      expect(codes, `${a.raw.body} ${b.raw.body}`).toEqual([200, 409]);
      const loser = a.status === 409 ? a : b;
      expect(loser.error.ErrorCode).toBe(945);
      expect(loser.error.Description).toContain(IMPERSONATION_MESSAGES.roleTaken);
      const held = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM impersonation_requests WHERE app_id = $1',
        [appId],
      );
      expect(held.rows[0]!.n).toBe(1);
    }
  });

  it('an edit taking a role while another request for it is opened: one of them holds it', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const appId = await newSite();
      const { id } = await insertRequest(t.db, {
        appId,
        initiator: 'agent@example.com',
        assignees: ['boss@example.com'],
        roles: ['Analyst'],
      });
      const version = (
        await t.db.query<{ v: number }>(
          'SELECT version::int AS v FROM impersonation_requests WHERE id = $1',
          [id],
        )
      ).rows[0]!.v;
      const [edited, opened] = await race(
        () =>
          t.call('impersonationEdit', {
            session: agent,
            query: { requestId: String(id) },
            headers: { 'if-match': `"${version}"` },
            body: {
              AdditionalPermissions: [],
              Assignees: ['boss@example.com'],
              Description: 'Wider',
              ReasonCode: 'support-ticket',
              Priority: 'High',
              ProxyRoles: ['Developer'],
            },
          }),
        () => create(boss, appId),
      );
      expect([edited.status, opened.status].sort(), `${edited.raw.body} ${opened.raw.body}`).toEqual([
        200, 409,
      ]);
      const holders = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM impersonation_requests
          WHERE app_id = $1 AND deleted_at IS NULL AND 'Developer' = ANY(proxy_roles)`,
        [appId],
      );
      expect(holders.rows[0]!.n).toBe(1);
    }
  });
});

describe('deciding a request: the transition is decided under its row lock', () => {
  it('approve against reject: exactly one transition, one log row and one trail row', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const appId = await newSite();
      const { id } = await insertRequest(t.db, {
        appId,
        initiator: 'agent@example.com',
        assignees: ['boss@example.com', 'chief@example.com'],
        consent: 'granted',
        at: t.clock.now(),
      });
      const [yes, no] = await race(
        () => approve(boss, id),
        () => reject(chief, id),
      );
      expect(
        [yes.status, no.status].filter((s) => s === 200),
        `${yes.raw.body} ${no.raw.body}`,
      ).toHaveLength(1);
      const log = await t.db.query<{ event: string }>(
        `SELECT event FROM impersonation_log WHERE request_id = $1 AND event IN ('approve', 'reject')`,
        [id],
      );
      const trail = await t.db.query<{ action: string }>(
        `SELECT action FROM activity_log WHERE target_type = 'impersonation-request' AND target_id = $1
            AND action IN ('impersonation.approve', 'impersonation.reject')`,
        [String(id)],
      );
      const status = (
        await t.db.query<{ status: string }>('SELECT status FROM impersonation_requests WHERE id = $1', [id])
      ).rows[0]!.status;
      const won = yes.status === 200 ? 'approve' : 'reject';
      expect(log.rows.map((r) => r.event)).toEqual([won]);
      expect(trail.rows.map((r) => r.action)).toEqual([`impersonation.${won}`]);
      expect(status).toBe(won === 'approve' ? 'Approved' : 'Rejected');
    }
  });
});

describe('opening an impersonation session: the grant is read under its lock', () => {
  it('a revoke meanwhile waits for the session: no session starts on a grant revoked before it', async () => {
    const appId = await newSite();
    const id = await insertGrant(t.db, {
      appId,
      initiatorUid: agentUid,
      initiatorEmail: 'agent@example.com',
      roles: ['Developer'],
      now: t.clock.now(),
    });
    const watch = competeAfter(
      /from "impersonation_requests" as "r" inner join "sites" as "s"[\s\S]*"r"\."holder_uid" = \$\d+[\s\S]*for share/,
      () => t.db.query(`UPDATE impersonation_requests SET status = 'Revoked' WHERE id = $1`, [id]),
      /insert into "?impersonation_log"?/i,
    );
    const r = await t.call('switchApp', {
      session: agent,
      query: { appid: String(appId) },
    });
    await watch.done;
    statementHook.sink = undefined;
    expect(r.status, r.raw.body).toBe(200);
    // The revoke had not committed when the session's log row was written: it waited for the lock.
    expect(watch.committedAtQueue).toBe(false);
  });

  it('switchapp against a revoke: no session-start is logged after the revoke', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const appId = await newSite();
      const id = await insertGrant(t.db, {
        appId,
        initiatorUid: agentUid,
        initiatorEmail: 'agent@example.com',
        roles: ['Developer'],
        now: t.clock.now(),
      });
      const [sw, v] = await race(
        () =>
          t.call('switchApp', {
            session: agent,
            query: { appid: String(appId) },
          }),
        () => action(boss, id, { Status: 'Revoke' }, 'site'),
      );
      expect(v.status, v.raw.body).toBe(200);
      const log = await t.db.query<{ event: string }>(
        `SELECT event FROM impersonation_log WHERE request_id = $1 AND event IN ('session-start', 'revoke') ORDER BY id`,
        [id],
      );
      expect(log.rows.map((x) => x.event)).toEqual(
        sw.status === 200 ? ['session-start', 'revoke'] : ['revoke'],
      );
      const sessions = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM staff_sessions WHERE impersonation_request_id = $1',
        [id],
      );
      expect(sessions.rows[0]!.n).toBe(sw.status === 200 ? 1 : 0);
    }
  });
});

describe('cancelling a notice: its status is decided under its row lock', () => {
  it('a cancel while the job starts and queues the notice: either cancelled with nothing queued, or sent and refused (990)', async () => {
    const customer = await insertCustomer(t.db, {
      first: 'Nia',
      last: 'Notice',
      email: 'nia@notice.example',
    });
    await insertSite(t.db, { owner: customer, name: `notice-site-${++seq}` });
    for (let i = 0; i < ROUNDS; i++) {
      const made = await t.call('noticeCreate', {
        session: boss,
        body: {
          Kind: 'maintenance',
          Subject: `Lock round ${i}`,
          Text: 'Maintenance.',
          Audience: { Type: 'all' },
          SendAt: new Date(t.clock.now().getTime() + 60_000).toISOString(),
        },
      });
      expect(made.status, made.raw.body).toBe(200);
      const id = made.body.Data.Id;
      t.clock.advance(61_000);
      await signIn();
      const [c] = await Promise.all([
        t.call('noticeCancel', { session: chief, body: { Id: id } }),
        sendDueNotices(t.ctx),
      ]);
      const row = (
        await t.db.query<{ status: string }>('SELECT status FROM customer_notices WHERE id = $1', [id])
      ).rows[0]!;
      const queued = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM mail_outbox WHERE subject LIKE $1',
        [`%Lock round ${i}`],
      );
      const trail = await t.db.query<{ action: string }>(
        `SELECT action FROM activity_log WHERE target_type = 'notice' AND target_id = $1
            AND action IN ('notice.cancel', 'notice.send') ORDER BY id`,
        [String(id)],
      );
      if (c.status === 200) {
        expect(row.status).toBe('cancelled');
        expect(queued.rows[0]!.n).toBe(0);
        expect(trail.rows.map((x) => x.action)).toEqual(['notice.cancel']);
      } else {
        expect(c.error.ErrorCode, c.raw.body).toBe(990);
        expect(row.status).not.toBe('cancelled');
        expect(queued.rows[0]!.n).toBeGreaterThan(0);
        expect(trail.rows.map((x) => x.action)).toEqual(['notice.send']);
      }
    }
  });
});
