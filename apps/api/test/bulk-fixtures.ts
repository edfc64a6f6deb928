import type { BulkState } from '@sac/contract/bulk';
import { insertItems, insertJob } from '../src/modules/bulk/bulk.repo.ts';
import { insertSite } from './customer-fixtures.ts';
import type { TestApp } from './harness.ts';

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
