import { TRIAL_ENDING_DAYS } from '@sac/contract/dashboard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

/** GET /admin/dashboard/trials-ending: the whole list behind the dashboard's trials card (issue 32). */
type S = { xtoken: string; xsign: string };
type Trial = {
  AppId: number;
  AppName: string;
  CustomerName: string;
  Plan: string;
  DataCenter: string | null;
  DataCenterName: string | null;
  TrialEndsAt: string;
};
let t: TestApp;
let sam: S;
let audrey: S;
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('sam@example.com', ['Support']);
  await t.addStaff('audrey@example.com', ['Auditor']);
  sam = await t.login('sam@example.com');
  audrey = await t.login('audrey@example.com');
  const owner = await insertCustomer(t.db, { first: 'Grace', last: 'Hopper', email: 'grace@trials.example' });
  const now = t.clock.now().getTime();
  // Twelve trials ending 10 h apart from an hour ahead (the last 111 h ahead, inside the 7 days),
  // two ending on the same instant (the site breaks the tie), one ended, one in 10 days, one subscribed.
  const ends = [...Array.from({ length: 12 }, (_, i) => now + HOUR + i * 10 * HOUR), now + HOUR];
  for (const [i, end] of ends.entries()) {
    const { appId } = await insertSite(t.db, { owner, name: `trial-${String(i).padStart(2, '0')}` });
    await t.db.query('UPDATE sites SET trial_ends_at = $2 WHERE app_id = $1', [appId, new Date(end)]);
  }
  for (const [name, end, status] of [
    ['ended', now - HOUR, 'Trial'],
    ['later', now + 10 * 24 * HOUR, 'Trial'],
    ['paid', now + 2 * HOUR, 'Subscribed'],
  ] as const) {
    const { appId } = await insertSite(t.db, { owner, name });
    await t.db.query('UPDATE sites SET trial_ends_at = $2, plan_status = $3 WHERE app_id = $1', [
      appId,
      new Date(end),
      status,
    ]);
  }
});
afterAll(() => t.close());

async function page(session: S, query: Record<string, string>) {
  const r = await t.call('trialsEnding', { session, query });
  expect(r.status, r.raw.body).toBe(200);
  return r.body as { Data: Trial[]; NextCursor: string | null };
}
/** Every page, `limit` a page: the sites' names in the order answered. */
async function walk(query: Record<string, string>) {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const p = await page(sam, { ...query, ...(cursor ? { cursor } : {}) });
    names.push(...p.Data.map((d) => d.AppName));
    cursor = p.NextCursor ?? undefined;
  } while (cursor);
  return names;
}

describe('GET /admin/dashboard/trials-ending', () => {
  it('lists the trials ending within 7 days, soonest first, with owner, plan and data center', async () => {
    const first = await page(sam, {});
    expect(first.NextCursor).toBeNull();
    expect(first.Data.map((d) => d.AppName)).toEqual([
      'trial-00',
      'trial-12',
      ...Array.from({ length: 11 }, (_, i) => `trial-${String(i + 1).padStart(2, '0')}`),
    ]);
    expect(first.Data[0]).toMatchObject({
      CustomerName: 'Grace Hopper',
      Plan: 'Developer',
      DataCenter: 'eu-central',
      TrialEndsAt: new Date(t.clock.now().getTime() + HOUR).toISOString(),
    });
    expect(first.Data[0]!.DataCenterName).toMatch(/\S/);
    // the dashboard's card counts the same window
    const card = await t.call('dashboard', { session: sam });
    expect(card.body.Sites?.TrialsEndingSoon.Count).toBe(first.Data.length);
    expect(TRIAL_ENDING_DAYS).toBe(7);
  });

  it('pages by keyset either way, ties broken by site, every trial once', async () => {
    const all = await walk({});
    expect(await walk({ limit: '5' })).toEqual(all);
    expect(await walk({ limit: '4', sort: '-ends' })).toEqual([...all].reverse());
    // a wider window takes the trial ending in 10 days; never the ended or the subscribed one
    const wide = await walk({ days: '30', limit: '3' });
    expect(wide).toEqual([...all, 'later']);
    expect(await walk({ days: '1' })).toEqual(['trial-00', 'trial-12', 'trial-01', 'trial-02']);
  });

  it('refuses a cursor of the other order, and windows and pages out of bounds', async () => {
    const asc = await page(sam, { limit: '2' });
    const crossed = await t.callLoose('trialsEnding', {
      session: sam,
      query: { limit: '2', sort: '-ends', cursor: asc.NextCursor! },
    });
    expect([crossed.status, crossed.error.Description]).toEqual([
      400,
      'cursor is not a cursor of this list.',
    ]);
    for (const query of [{ days: '0' }, { days: '91' }, { days: '1.5' }, { limit: '201' }, { sort: 'site' }])
      expect((await t.callLoose('trialsEnding', { session: sam, query })).status).toBe(400);
  });

  it('is for whoever sees the card: not the Auditor', async () => {
    expect((await t.callLoose('trialsEnding', { session: audrey, query: {} })).status).toBe(403);
  });
});
