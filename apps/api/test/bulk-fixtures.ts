import type { BulkDryRunBody, BulkState } from '@sac/contract/bulk';
import { afterAll, beforeAll, expect } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { insertItems, insertJob } from '../src/modules/bulk/bulk.repo.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * A bulk job deactivating one fresh site of `owner`, asked for by `actor`, written straight into its
 * tables in `state`: 'done' has its one item changed (the site inactive) and finished now, so its
 * undo is open. Answers the job's id.
 */
export async function bulkJobOf(
  t: TestApp,
  actor: { uid: string; email: string },
  owner: string,
  state: BulkState,
  approvalNeeded = false,
): Promise<number> {
  const site = await insertSite(t.db, { owner, name: `bulk-${Math.random().toString(36).slice(2, 10)}` });
  const at = t.clock.now();
  const id = await insertJob(t.db, {
    action: 'site.deactivate',
    list: 'customer-sites',
    customerUid: owner,
    selection: { Kind: 'rows', AppIds: [site.appId] },
    count: 1,
    actorUid: actor.uid,
    actorEmail: actor.email,
    actor: { name: actor.email, roles: ['SuperAdmin'], scope: null },
    clientAddress: '127.0.0.1',
    state,
    approvalNeeded,
    at,
  });
  await insertItems(t.db, id, [
    {
      target: site.appId,
      label: 'bulk',
      seenStatus: 'active',
      seenVersion: 1,
      planned: 'change',
      reason: null,
    },
  ]);
  if (state === 'done') {
    await t.db.query("UPDATE sites SET status = 'inactive' WHERE app_id = $1", [site.appId]);
    await t.db.query("UPDATE bulk_job_items SET outcome = 'changed', done_at = $2 WHERE job_id = $1", [
      id,
      at,
    ]);
    await t.db.query('UPDATE bulk_jobs SET finished_at = $2 WHERE id = $1', [id, at]);
  }
  return id;
}

/** The uid of a staff member by email. */
export async function staffUid(t: TestApp, email: string): Promise<string> {
  return (await t.db.query<{ uid: string }>('SELECT uid FROM staff WHERE email = $1', [email])).rows[0]!.uid;
}

type Session = { xtoken: string; xsign: string };

/**
 * The site-job suite's app and calls (bulk.test.ts, bulk-requester.test.ts): small bounds, so the
 * tests reach them (at most 12 items, approval over 4), and three staff members (two SuperAdmins,
 * one Admin). Registers the app's start and close; each helper reads the app when called.
 */
export function siteJobSuite() {
  let t!: TestApp;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp({ bulk: { ...loadConfig({}).bulk, maxItems: 12, approvalOver: 4 } });
    await t.addStaff('first@example.com', ['SuperAdmin']);
    await t.addStaff('second@example.com', ['SuperAdmin']);
    await t.addStaff('admin@example.com', ['Admin']);
  });
  afterAll(() => t.close());

  /** `count` fresh sites of a fresh customer, `inactive` of them inactive first; their appIds. */
  async function sitesOf(count: number, inactive = 0): Promise<{ uid: string; appIds: number[] }> {
    const uid = await insertCustomer(t.db, { first: 'C', last: `${++n}`, email: `c${n}@bulk.example` });
    const appIds: number[] = [];
    for (let i = 0; i < count; i++)
      appIds.push((await insertSite(t.db, { owner: uid, name: `bulk-${n}-${i}` })).appId);
    for (const id of appIds.slice(0, inactive))
      await t.db.query("UPDATE sites SET status = 'inactive' WHERE app_id = $1", [id]);
    return { uid, appIds };
  }

  async function dryRun(session: Session, body: Extract<BulkDryRunBody, { Uid: string }>) {
    const r = await t.call('bulkDryRun', { session, body });
    expect(r.status, r.raw.body).toBe(200);
    return r.body.Data;
  }

  return {
    app: () => t,
    /** A fresh number, for names no other test uses. */
    next: () => ++n,
    /** A fresh sign-in (a fresh step-up) of one of the three. */
    as: (who: 'first' | 'second' | 'admin') => t.login(`${who}@example.com`),
    sitesOf,
    statuses: async (appIds: number[]) =>
      (
        await t.db.query<{ status: string }>(
          'SELECT status FROM sites WHERE app_id = ANY($1) ORDER BY app_id',
          [appIds],
        )
      ).rows.map((r) => r.status),
    dryRun,
    job: async (session: Session, id: number) => {
      const r = await t.call('bulkJob', { session, query: { id: String(id) } });
      expect(r.status, r.raw.body).toBe(200);
      return r.body.Data;
    },
    act: (id: 'bulkRun' | 'bulkApprove' | 'bulkCancel' | 'bulkUndo', session: Session, Id: number) =>
      t.call(id, { session, body: { Id } }),
  };
}
