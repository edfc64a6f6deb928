/**
 * One write path: every write endpoint of the contract, called with its valid call (MATRIX) by a
 * SuperAdmin while the staff-trail insert fails, answers 5xx and changes nothing. A change kept
 * without its trail row (or a trail row without its change) fails here, endpoint by endpoint.
 */
import { randomUUID } from 'node:crypto';
import { ENDPOINT_LIST, type EndpointId } from '@sac/contract/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWrite } from '../src/lib/write-path.ts';
import { recordEvent, writeActivity } from '../src/modules/activity/activity.service.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { type Actor, type Fixture, MATRIX, MATRIX_APPROVER, send, writes } from './endpoint-matrix.ts';
import { createTestApp, PASSWORD, type TestApp } from './harness.ts';

/**
 * Columns whose change is not the request's change, so the fingerprint leaves them out:
 * - staff_sessions.last_used_at: every authenticated call marks its session as used (the idle
 *   end of a session), whether or not the call's write is kept.
 */
const BOOKKEEPING: Record<string, string[]> = {
  staff_sessions: ['last_used_at'],
};
/**
 * Tables left out whole, because their change is not the request's:
 * - address_limit_counters: a public door counts the caller's address before it does anything
 *   else (the budget must count refused and failed calls too, or a failure would be free to
 *   repeat).
 * - login_failures_by_address: a refused sign-in step counts against its address for the same
 *   reason, whether or not its trail row could be written.
 */
const NOT_THE_REQUESTS = new Set(['address_limit_counters', 'login_failures_by_address']);

/**
 * Writes that answer without a trail row by design, so the failing insert does not stop them.
 * None here: the calls that are not GETs yet write no trail (they compute an answer, begin a
 * factor's set-up, or mark one's own notifications read) are left out by writes() itself, each
 * named with its reason in COMPUTES_ONLY (endpoint-matrix.ts).
 */
const ANSWERS_WITHOUT_TRAIL = new Set<EndpointId>([]);

type Arranged = Awaited<ReturnType<(typeof MATRIX)[EndpointId]['request']>>;
/** A passkey of `uid`, written straight into the table; its id. */
async function passkeyOf(uid: string): Promise<number> {
  const r = await t.db.query<{ id: string }>(
    `INSERT INTO staff_passkeys (uid, credential_id, public_key, name, created_at)
     VALUES ($1, $2, '\\x00', 'Key', now()) RETURNING id`,
    [uid, randomUUID()],
  );
  return Number(r.rows[0]!.id);
}
/** The newest session of `email`'s account, after one more sign-in. */
async function anotherSession(email: string, uid: string): Promise<number> {
  await t.login(email);
  const r = await t.db.query<{ id: string }>(
    'SELECT id FROM staff_sessions WHERE uid = $1 ORDER BY id DESC LIMIT 1',
    [uid],
  );
  return Number(r.rows[0]!.id);
}
/**
 * Writes whose valid call in MATRIX is refused before its change (a SuperAdmin without a passkey
 * renames none: 404): here the state the change needs is arranged first, so the call would
 * succeed, and must now fail whole.
 */
const REACHING: Partial<Record<EndpointId, (actor: Actor, target: Actor) => Promise<Arranged>>> = {
  passkeyRename: async (actor) => ({ payload: { Id: await passkeyOf(actor.uid), Name: 'Renamed' } }),
  passkeyRemove: async (actor) => ({ payload: { Id: await passkeyOf(actor.uid), password: PASSWORD } }),
  recoveryCodesRenew: async (actor) => {
    await passkeyOf(actor.uid);
    return { payload: { password: PASSWORD } };
  },
  totpRemove: async (actor) => {
    await t.db.query(
      `INSERT INTO staff_totp (uid, secret_sealed, created_at, confirmed_at) VALUES ($1, '\\x00', now(), now())`,
      [actor.uid],
    );
    return { payload: { password: PASSWORD } };
  },
  endMySessions: async (actor) => ({ payload: { Id: await anotherSession(actor.email, actor.uid) } }),
  endStaffSessions: async (_actor, target) => ({
    payload: { uid: target.uid, Id: await anotherSession(target.email, target.uid) },
  }),
};

let t: TestApp;
let customer: Fixture['customer'];
let tables: string[];

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff(MATRIX_APPROVER, ['SuperAdmin']);
  const uid = await insertCustomer(t.db, { first: 'Write', last: 'Path', email: 'write@path.example' });
  customer = { uid, appId: (await insertSite(t.db, { owner: uid, name: 'write-path-site' })).appId };
  const r = await t.db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  tables = r.rows.map((x) => x.table_name).filter((x) => !NOT_THE_REQUESTS.has(x));
});
afterAll(() => t.close(), 180_000);

/** Each table's rows (as JSON, without the bookkeeping columns), hashed in one order. */
async function fingerprint(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of tables) {
    const drop = (BOOKKEEPING[table] ?? []).map((c) => ` - '${c}'`).join('');
    const r = await t.db.query<{ n: string; h: string | null }>(
      `SELECT count(*)::text AS n, md5(string_agg(j, E'\\n' ORDER BY j)) AS h
         FROM (SELECT (to_jsonb(x)${drop})::text AS j FROM "${table}" x) rows`,
    );
    out[table] = `${r.rows[0]!.n}:${r.rows[0]!.h ?? ''}`;
  }
  return out;
}

const changed = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).filter((k) => a[k] !== b[k]);

const newStaff = async (roles: string[]): Promise<Actor> => {
  const email = `w-${randomUUID()}@example.com`;
  return { uid: await t.addStaff(email, roles), email };
};

/** Every write of the table; a targeted one on another's object, where a SuperAdmin may act. */
const cells = ENDPOINT_LIST.filter((e) => writes(e) && !ANSWERS_WITHOUT_TRAIL.has(e.id as EndpointId)).map(
  (e) => [`${e.method} ${e.path}`, e.id as EndpointId] as const,
);

describe('the trail insert fails: the write answers 5xx and changes nothing', () => {
  const cell = async (id: EndpointId) => {
    const e = ENDPOINT_LIST.find((x) => x.id === id)!;
    const row = MATRIX[id];
    const actor = await newStaff(['SuperAdmin']);
    const other = await newStaff(['Support']);
    const session = await t.login(actor.email);
    const target = row.targeted ? other : actor;
    const want = row.expect.SuperAdmin;
    const reaching = REACHING[id];
    const expected = reaching ? 200 : typeof want === 'number' ? want : want[row.targeted ? 'other' : 'own'];
    const arranged = reaching
      ? await reaching(actor, target)
      : await row.request({ t, customer, actor, target });
    await t.ctx.mailer.flush();
    const before = await fingerprint();
    await t.db.exec('ALTER TABLE activity_log ADD CONSTRAINT trail_fails CHECK (false) NOT VALID');
    let r: Awaited<ReturnType<TestApp['inject']>>;
    try {
      r = await send(t, e, session, arranged);
    } finally {
      await t.db.exec('ALTER TABLE activity_log DROP CONSTRAINT trail_fails');
    }
    await t.ctx.mailer.flush();
    const after = await fingerprint();
    // A call that would have succeeded must now fail whole. One refused (4xx as in the matrix)
    // keeps that answer, or fails too where the refusal itself is recorded (a bogus sign-in ticket).
    if (expected < 300 || r.statusCode >= 500) expect(r.statusCode, r.body).toBeGreaterThanOrEqual(500);
    else expect(r.statusCode, r.body).toBe(expected);
    expect(changed(before, after), `tables changed by ${id} (${r.statusCode})`).toEqual([]);
  };
  it.each(cells)('%s (%s)', (_name, id) => cell(id));
});

describe('a change and its trail row are one write by construction', () => {
  it("writes a change's trail row only in the write path's transaction (a type error elsewhere)", async () => {
    const row = { at: new Date(), action: 'team.create' as const, details: { typeCheck: true } };
    // @ts-expect-error a change's trail row is written in its write (runWrite's WriteTx), not on ctx.db
    const outside = () => writeActivity(t.db, row);
    expect(typeof outside).toBe('function');
    // A trail row that is the whole of what happened is an event of its own, on the database.
    const before = await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM activity_log');
    await runWrite(t.db, { change: async () => undefined, trail: (tx) => writeActivity(tx, row) });
    await recordEvent(t.db, row);
    const after = await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM activity_log');
    expect(Number(after.rows[0]!.n) - Number(before.rows[0]!.n)).toBe(2);
  });
});
