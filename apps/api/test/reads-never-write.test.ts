/**
 * Reads never write: every GET endpoint of the contract, called as a principal it answers 2xx,
 * runs no write statement and commits no write (statements recorded by kind, db/statement-log.ts),
 * authentication included. A read's bookkeeping (the recently viewed customers) is written behind
 * it, in batches of its own (dashboard/recent-views.ts). The few GETs that write say why below,
 * and are held to exactly that write.
 */
import { ENDPOINT_LIST, type EndpointId } from '@sac/contract/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements } from '../src/db/statement-log.ts';
import { insertCustomer } from './customer-fixtures.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { type RecordedCalls, recordedCalls } from './recorded-calls.ts';

/** A GET of the spec's legacy API that is a write: it starts an impersonation session. */
const WRITE_BY_SPEC: EndpointId = 'switchApp';

/**
 * Exports: the trail row that records who took which data (decisions.md: "The export is
 * recorded") commits before the file leaves, so that no export goes unrecorded. One insert.
 */
const RECORDED_READS: EndpointId[] = [
  'searchCustomerExport',
  'impersonationRequestsExport',
  'impersonationLogsExport',
  'auditExport',
  'teamReviewExport',
];

/**
 * Public doors: the per-address budget that stops the guessing of link tokens is counted before
 * anything else (decisions.md: "Per-address limits on the public doors"), in the database unless
 * REDIS_URL is set (then in Redis, and the database is not written). One upsert of a counter.
 */
const COUNTED_DOORS: EndpointId[] = [
  'noticeUnsubscribeDetails',
  'siteAccess',
  'siteAccessExport',
  'siteAccessFeed',
  'consentDetails',
];

let t: TestApp;
let calls: RecordedCalls;
beforeAll(async () => {
  t = await createTestApp();
  calls = await recordedCalls(t);
});
afterAll(() => t.close(), 60_000);

const GETS = ENDPOINT_LIST.filter((e) => e.method === 'GET' && e.id !== WRITE_BY_SPEC);
const cases = (ids: (id: EndpointId) => boolean) =>
  GETS.filter((e) => ids(e.id as EndpointId)).map(
    (e) => [`${e.method} ${e.path}`, e.id as EndpointId] as const,
  );
/** 'INSERT INTO t', 'UPDATE t SET': what a write does to which table (as written or as built). */
const firstWords = (sql: string) => sql.replaceAll('"', '').split(' ').slice(0, 3).join(' ').toUpperCase();
const excepted = (id: EndpointId) => RECORDED_READS.includes(id) || COUNTED_DOORS.includes(id);

describe('reads never write', () => {
  it.each(cases((id) => !excepted(id)))('%s writes nothing', async (_name, id) => {
    const { status, body, counts } = await calls.call(id);
    expect(status, body).toBeLessThan(300);
    expect(counts.reads, 'no read was recorded').toBeGreaterThan(0);
    expect(counts.written, `${id} wrote`).toEqual([]);
    expect(counts.commits).toBe(0);
  });

  it.each(cases((id) => RECORDED_READS.includes(id)))('%s writes its trail row only', async (_name, id) => {
    const { status, body, counts } = await calls.call(id);
    expect(status, body).toBeLessThan(300);
    expect(counts.written.map(firstWords)).toEqual(['INSERT INTO ACTIVITY_LOG']);
    expect(counts.commits).toBe(1);
  });

  it.each(cases((id) => COUNTED_DOORS.includes(id)))(
    '%s writes its address counter only',
    async (_name, id) => {
      const { status, body, counts } = await calls.call(id);
      expect(status, body).toBeLessThan(300);
      expect(counts.written.map(firstWords)).toEqual(['INSERT INTO ADDRESS_LIMIT_COUNTERS']);
      expect(counts.commits).toBe(1);
    },
  );

  it('the view of a customer reaches the dashboard without a write in the read', async () => {
    const uid = await insertCustomer(t.db, { first: 'Seen', last: 'Once', email: 'seen@customer.example' });
    await t.addStaff('viewer@example.com', ['Support']);
    const session = await t.login('viewer@example.com');
    const get = () => t.call('customerProfile', { session, query: { uid } });
    const { out: r, counts } = await recordStatements(async () => await get());
    expect(r.status).toBe(200);
    expect(counts.writes).toBe(0);
    const dash = await t.call('dashboard', { session });
    expect(dash.body.RecentCustomers?.map((c) => c.Uid)).toEqual([uid]);
  });

  it("a session's idle clock is written at most once per renewal interval, not on every read", async () => {
    // The one write a read may cause (sessions.repo.ts: renewalInterval, at most 30 s): the
    // session's last use, so that the idle limit holds on every instance and after a restart.
    await t.addStaff('renewing@example.com', ['Support']);
    const session = await t.login('renewing@example.com');
    const read = async () =>
      (await recordStatements(async () => await t.call('session', { session }))).counts;
    expect((await read()).writes).toBe(0);
    t.clock.advance(31_000);
    const renewed = await read();
    expect(renewed.written.map(firstWords)).toEqual(['UPDATE STAFF_SESSIONS SET']);
    expect(renewed.commits).toBe(1);
    expect((await read()).writes).toBe(0);
  });
});
