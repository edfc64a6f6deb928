import type { Readable } from 'node:stream';
import { searchCustomerExportQuery } from '@sac/contract/customer-export';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller, StaffSession } from '../src/app-context.ts';
import { exportSearch } from '../src/modules/customers/customer-export.service.ts';
import { exportRequests } from '../src/modules/impersonation/impersonation-exports.service.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * An export streams in batches of 2,000 rows. Rows that move in the list's order while it streams
 * (a customer renamed, a request changed) must still come once each: one moved from a batch not
 * yet read to one already read would be missed, one moved the other way listed twice. On
 * PostgreSQL every batch reads the snapshot the export began with. PGlite has one connection,
 * which no export may hold open (db.ts, consistentReader): there the batches read the database
 * as it is at each one, and this is not promised.
 */
const ROWS = 4_500;

/** Reads the file on until it holds at least `lines` whole lines (or has ended). */
async function readLines(it: AsyncIterator<unknown>, file: { text: string }, lines: number): Promise<void> {
  while (file.text.split('\r\n').length - 1 < lines) {
    const next = await it.next();
    if (next.done) return;
    file.text += String(next.value);
  }
}

/** The first field of each data line (an id or a uid), in the file's order. */
const firstFields = (file: { text: string }) =>
  file.text
    .split('\r\n')
    .slice(1, -1)
    .map((l) => l.split(',')[0]!);

describe.skipIf(process.env.TEST_DB !== 'postgres')('an export reads one snapshot (PostgreSQL)', () => {
  let t: TestApp;
  let viewer: StaffSession;
  const caller: Caller = { session: undefined, clientAddress: '192.0.2.9', userAgent: null };

  beforeAll(async () => {
    t = await createTestApp();
    const uid = await t.addStaff('exporter@example.com', ['SuperAdmin']);
    viewer = {
      sessionId: 0,
      uid,
      email: 'exporter@example.com',
      name: 'Exporter',
      roles: ['SuperAdmin'],
      permissions: new Set(['customers.read', 'impersonation.read', 'impersonation.approve']),
      verifiedAt: new Date(),
    };
  }, 120_000);
  afterAll(() => t.close());

  it('a customer search export: customers renamed across the batches while it streams each come once', async () => {
    // 'Snapshot P0001' … 'Snapshot P4500': all match 'snapshot' alike, so they come in name order.
    await t.db.query(
      `INSERT INTO customers (uid, first_name, last_name, email, organization, phone, auth_email, contact_email,
         time_zone, created_at, modified_at)
       SELECT gen_random_uuid(), 'Snapshot', 'P' || lpad(i::text, 4, '0'), 'snap' || i || '@bulk.example', '', '',
         'snap' || i || '@bulk.example', 'snap' || i || '@bulk.example', 'Europe/London', now(), now()
       FROM generate_series(1, $1::int) AS i`,
      [ROWS],
    );
    const uidOf = async (last: string) =>
      (await t.db.query<{ uid: string }>('SELECT uid FROM customers WHERE last_name = $1', [last])).rows[0]!
        .uid;
    const early = await uidOf('P0010');
    const late = await uidOf('P4400');

    let released = 0;
    const file = await exportSearch(
      t.ctx,
      caller,
      viewer,
      searchCustomerExportQuery.parse({ customerName: 'snapshot' }),
      () => released++,
    );
    expect(file.rows).toBe(ROWS);
    const it = (file.body as Readable)[Symbol.asyncIterator]();
    const read = { text: '' };
    await readLines(it, read, 1 + 2_000);
    expect(firstFields(read).slice(0, 10)).not.toContain(late);
    // The first batch read: one of its rows renamed to the end, a row of the third to the start.
    await t.db.query(`UPDATE customers SET last_name = 'Z' WHERE uid = $1`, [early]);
    await t.db.query(`UPDATE customers SET last_name = 'A' WHERE uid = $1`, [late]);
    await readLines(it, read, Number.POSITIVE_INFINITY);

    const uids = firstFields(read);
    expect(uids).toHaveLength(ROWS);
    expect(new Set(uids).size).toBe(ROWS);
    expect(uids).toContain(early);
    expect(uids).toContain(late);
    // As of the export's start: the names before the renames.
    expect(read.text.split('\r\n').find((l) => l.startsWith(late))).toContain('Snapshot P4400');
    await new Promise((r) => setImmediate(r));
    expect(released).toBe(1);
  }, 120_000);

  it('a request list export: requests that change across the batches while it streams each come once', async () => {
    const owner = await insertCustomer(t.db, { first: 'Rhea', last: 'Requests', email: 'rhea@snap.example' });
    const { appId } = await insertSite(t.db, { owner, name: 'snapshot-site' });
    const base = new Date(t.clock.now().getTime() - 2 * 3_600_000);
    // Pending, each changed a second after the one before: listed newest change first.
    await t.db.query(
      `INSERT INTO impersonation_requests (app_id, initiator_email, consent, priority, description, assignees,
         proxy_roles, additional_permissions, duration_minutes, created_at, modified_at)
       SELECT $1, 'exporter@example.com', 'pending', 'High', 'bulk', '{}', '{Developer}', '{ViewData}', 60,
         $2::timestamptz + i * interval '1 second', $2::timestamptz + i * interval '1 second'
       FROM generate_series(1, $3::int) AS i`,
      [appId, base, ROWS],
    );
    const ids = (
      await t.db.query<{ id: number }>(
        'SELECT id FROM impersonation_requests WHERE app_id = $1 ORDER BY id',
        [appId],
      )
    ).rows.map((r) => String(r.id));
    const early = ids[ROWS - 10]!; // among the newest changes: the first batch
    const late = ids[100]!; // among the oldest: the third batch

    let released = 0;
    const file = await exportRequests(t.ctx, { ...caller, session: viewer }, { release: () => released++ });
    expect(file.rows).toBe(ROWS);
    const it = (file.body as Readable)[Symbol.asyncIterator]();
    const read = { text: '' };
    await readLines(it, read, 1 + 2_000);
    expect(firstFields(read)).toContain(early);
    // The first batch read: one of its requests moved to the oldest change, one of the third to the newest.
    await t.db.query(`UPDATE impersonation_requests SET modified_at = $2 WHERE id = $1`, [
      early,
      new Date(base.getTime() - 86_400_000),
    ]);
    await t.db.query(`UPDATE impersonation_requests SET modified_at = $2 WHERE id = $1`, [
      late,
      new Date(base.getTime() + 86_400_000),
    ]);
    await readLines(it, read, Number.POSITIVE_INFINITY);

    const listed = firstFields(read);
    expect(listed).toHaveLength(ROWS);
    expect(new Set(listed).size).toBe(ROWS);
    expect(listed).toContain(late);
    await new Promise((r) => setImmediate(r));
    expect(released).toBe(1);
  }, 120_000);
});
