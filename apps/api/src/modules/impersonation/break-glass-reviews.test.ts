import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { closeReview } from './break-glass.repo.ts';
import { insertRequest } from './impersonation.repo.ts';

/**
 * The break-glass reviews page (issue 35, item 2): every open review oldest first, not only the
 * dashboard's five; those closed in the last 30 days, or both, newest opening first; a page at a
 * time; SuperAdmins only.
 */

type S = { xtoken: string; xsign: string };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let t: TestApp;
let boss: S;
let peer: S;
let admin: S;
let custom: S;
let bossUid: string;
let appId: number;
/** The open grants' ids, oldest first, and how many hours before now each was opened. */
const open: { id: number; hoursAgo: number }[] = [];
let closedRecently: number;
let closedLongAgo: number;

/** A break-glass grant of boss's on the site, opened `hoursAgo` hours before now. */
async function grant(hoursAgo: number, caseReference: string): Promise<number> {
  const opener = { uid: bossUid, email: 'boss@example.com' };
  return insertRequest(t.db, {
    appId,
    initiator: opener,
    isCustomerRequest: false,
    consent: null,
    priority: 'Critical',
    description: '',
    why: { reasonCode: 'security-incident', caseReference },
    assignees: ['peer@example.com'],
    proxyRoles: ['Developer'],
    additionalPermissions: [],
    durationMinutes: 30,
    at: new Date(t.clock.now().getTime() - hoursAgo * HOUR),
    breakGlass: { holder: opener },
  });
}

beforeAll(async () => {
  t = await createTestApp();
  bossUid = await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('peer@example.com', ['SuperAdmin']);
  await t.addStaff('admin@example.com', ['Admin']);
  await t.db.query(
    "INSERT INTO roles (name, permissions) VALUES ('Approver', ARRAY['impersonation.request','impersonation.approve'])",
  );
  await t.addStaff('custom@example.com', ['Approver']);
  boss = await t.login('boss@example.com');
  peer = await t.login('peer@example.com');
  admin = await t.login('admin@example.com');
  custom = await t.login('custom@example.com');
  const owner = await insertCustomer(t.db, { first: 'Rae', last: 'View', email: 'rae@view.example' });
  appId = (await insertSite(t.db, { owner, name: 'review-shop' })).appId;
  // seven open reviews, more than the dashboard's five; the three oldest past 24 hours
  for (const hoursAgo of [50, 30, 25, 10, 5, 2, 1])
    open.push({ id: await grant(hoursAgo, `SEC-${hoursAgo}`), hoursAgo });
  closedRecently = await grant(72, 'SEC-72');
  closedLongAgo = await grant(40 * 24, 'SEC-OLD');
  await closeReview(t.db, closedLongAgo, {
    by: 'peer@example.com',
    at: new Date(t.clock.now().getTime() - 31 * DAY),
    note: 'Long ago.',
  });
});
afterAll(() => t.close());

const list = (session: S, query: Record<string, unknown> = {}) =>
  t.callLoose('breakGlassReviews', { session, query });

describe('the break-glass reviews page', () => {
  it('is for SuperAdmins only', async () => {
    expect((await list(admin)).status).toBe(403);
    expect((await list(custom)).status).toBe(403);
  });

  it('lists every open review, oldest first, overdue past 24 hours, a page at a time', async () => {
    // the one of 72 hours ago, closed in the next test, is still open here: the oldest
    const expected = [closedRecently, ...open.map((o) => o.id)];
    const all = await list(peer);
    expect(all.status).toBe(200);
    expect(all.body.Data.map((r) => r.RequestId)).toEqual(expected);
    expect(all.body.Data.map((r) => r.Overdue)).toEqual([true, ...open.map((o) => o.hoursAgo >= 24)]);
    expect(all.body.Data[1]).toMatchObject({
      AppName: 'review-shop',
      OpenedBy: 'boss@example.com',
      ReasonCode: 'security-incident',
      CaseReference: 'SEC-50',
      ClosedAt: null,
    });
    expect(all.body.NextCursor).toBeNull();
    // three at a time, the walk gives the same list
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(peer, { limit: 3, ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      expect(page.body.Data.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.Data.map((r) => r.RequestId));
      cursor = page.body.NextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(expected);
  });

  it('lists those closed in the last 30 days, newest first, with the note; and both', async () => {
    const close = await t.call('breakGlassReviewClose', {
      session: peer,
      body: { RequestId: closedRecently, Note: 'Rotated the leaked key.' },
    });
    expect(close.status).toBe(200);
    const closed = await list(peer, { state: 'closed' });
    expect(closed.body.Data.map((r) => r.RequestId)).toEqual([closedRecently]);
    expect(closed.body.Data[0]).toMatchObject({
      ClosedBy: 'peer@example.com',
      Note: 'Rotated the leaked key.',
      Overdue: false,
    });
    expect((await list(peer)).body.Data.map((r) => r.RequestId)).not.toContain(closedRecently);
    const both = await list(peer, { state: 'all' });
    expect(both.body.Data.map((r) => r.RequestId)).toEqual([
      ...open.map((o) => o.id).reverse(),
      closedRecently,
    ]);
    // the opener reads the list too (only closing their own is refused)
    expect((await list(boss, { state: 'all' })).body.Data).toHaveLength(open.length + 1);
  });

  it("refuses a state it does not know, and one state's cursor under another", async () => {
    expect((await list(peer, { state: 'overdue' })).status).toBe(400);
    expect((await list(peer, { limit: 0 })).status).toBe(400);
    const first = await list(peer, { limit: 2 });
    const cursor = first.body.NextCursor!;
    const mixed = await list(peer, { state: 'all', cursor });
    expect(mixed.status).toBe(400);
    expect((await list(peer, { cursor })).status).toBe(200);
  });
});
