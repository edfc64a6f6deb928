import { randomBytes, randomUUID } from 'node:crypto';
import type { AppContext } from '../apps/api/src/app-context.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import type { Db } from '../apps/api/src/db/db.ts';
import { migrate } from '../apps/api/src/db/migrate.ts';
import { recordStatements, type StatementCounts } from '../apps/api/src/db/statement-log.ts';
import { systemClock } from '../apps/api/src/lib/clock.ts';
import type { StaffCall } from '../apps/api/src/lib/endpoint-route.ts';
import { fieldCrypto } from '../apps/api/src/lib/field-crypto.ts';
import { createMetrics } from '../apps/api/src/lib/metrics.ts';
import { insertStaff } from '../apps/api/src/modules/auth/staff.repo.ts';
import { dryRun, runBulkJobs, runJob } from '../apps/api/src/modules/bulk/bulk.service.ts';
import { changeSiteStatus } from '../apps/api/src/modules/customers/sites.service.ts';
import { insertCustomer } from '../apps/api/test/customer-fixtures.ts';
import { onBothEngines } from './support.ts';

/**
 * Issue 35 item 1: a bulk deactivation of BENCH_BULK_SITES (default 10,000) sites of one customer,
 * as one job: its dry run, then the run by the bulk runner's own code (runBulkJobs), items a second.
 * Beside it, in the same run and on the same database, the single action's rate: the same service
 * call (changeSiteStatus: the site's lock, the change, its trail row) one site at a time for
 * BENCH_BULK_SINGLE (default 1,000) other sites. The figure is the ratio of the two.
 */
const SITES = Number(process.env.BENCH_BULK_SITES ?? 10_000);
const SINGLE = Number(process.env.BENCH_BULK_SINGLE ?? 1_000);

async function insertSites(db: Db, owner: string, n: number, prefix: string): Promise<number[]> {
  const r = await db.query<{ app_id: number }>(
    `INSERT INTO sites (app_name, api_key, secret_hash, owner_uid, plan, plan_status, data_center, global_server,
       db_name, features, production_url, staging_url, created_at, modified_at)
     SELECT $2 || '-' || n, gen_random_uuid(), decode(md5($2 || n), 'hex'), $1, 'Developer', 'Subscribed', 'eu-central', 'euc-shared-1',
       $2 || '_' || n || '_db', '{}', 'https://' || $2 || n || '.example.com', '', now(), now()
       FROM generate_series(1, $3::int) n RETURNING app_id`,
    [owner, prefix, n],
  );
  return r.rows.map((x) => Number(x.app_id));
}

async function run(name: string, db: Db): Promise<void> {
  await migrate(db);
  const config = loadConfig({});
  const ctx = {
    db,
    clock: systemClock,
    metrics: createMetrics(db),
    crypto: fieldCrypto(randomBytes(32)),
    // one job of every site, not held for a second SuperAdmin (the approval is one call, not timed)
    config: { ...config, bulk: { ...config.bulk, maxItems: SITES, approvalOver: SITES } },
  } as unknown as AppContext;
  const uid = randomUUID();
  await insertStaff(db, {
    uid,
    email: 'bench@example.com',
    fullName: 'Bench',
    passwordHash: 'x',
    roles: ['SuperAdmin'],
    at: new Date(),
  });
  const call: StaffCall = {
    session: {
      sessionId: 0,
      uid,
      email: 'bench@example.com',
      name: 'Bench',
      roles: ['SuperAdmin'],
      permissions: new Set(['sites.write']),
      verifiedAt: new Date(),
    },
    clientAddress: '127.0.0.1',
    userAgent: null,
  };
  const owner = await insertCustomer(db, { first: 'Bulk', last: 'Owner', email: 'bulk@bench.example' });
  const single = await insertCustomer(db, { first: 'Single', last: 'Owner', email: 'single@bench.example' });
  await insertSites(db, owner, SITES, 'bulk');
  const singles = await insertSites(db, single, SINGLE, 'single');
  await db.query('ANALYZE sites');

  // the single action, one site after the other
  const singleStart = performance.now();
  const { counts: singleCounts } = await recordStatements(async () => {
    for (const appId of singles)
      await changeSiteStatus(ctx, call, { uid: single, appId, Status: 'inactive' });
  });
  const singleRate = SINGLE / ((performance.now() - singleStart) / 1000);

  // the bulk job: its dry run, then its run
  const planStart = performance.now();
  const plan = await dryRun(ctx, call, {
    Action: 'site.deactivate',
    Uid: owner,
    Selection: { Kind: 'all', Status: 'active' },
  });
  const planMs = performance.now() - planStart;
  await runJob(ctx, call, plan.Data.Id);
  const runStart = performance.now();
  let ran = 0;
  const { counts: bulkCounts } = await recordStatements(async () => {
    while (ran < SITES) {
      const n = await runBulkJobs(ctx, { budgetMs: 60_000 });
      if (n === 0) break;
      ran += n;
    }
  });
  const runSeconds = (performance.now() - runStart) / 1000;
  const bulkRate = ran / runSeconds;
  const left = await db.query<{ n: string }>(
    "SELECT count(*) AS n FROM sites WHERE owner_uid = $1 AND status = 'active'",
    [owner],
  );
  if (ran !== SITES || Number(left.rows[0]!.n) !== 0)
    throw new Error(`the job ran ${ran} items, ${left.rows[0]!.n} sites still active`);
  console.log(
    `${name.padEnd(10)} bulk deactivation of ${SITES.toLocaleString('en-US')} sites: dry run ${planMs.toFixed(0)} ms; ` +
      `run ${runSeconds.toFixed(2)} s, ${bulkRate.toFixed(0)} items/s; single action one at a time ` +
      `(${SINGLE.toLocaleString('en-US')} sites): ${singleRate.toFixed(0)}/s; bulk ×${(bulkRate / singleRate).toFixed(2)} of single`,
  );
  // Counted, not timed: the same on a busy machine.
  console.log(
    `${''.padEnd(10)} an item: bulk ${perItem(bulkCounts, ran)}; single ${perItem(singleCounts, SINGLE)}`,
  );
}

/** Statements, transactions and commits an item, from a recorded run. */
const perItem = (c: StatementCounts, n: number) =>
  `${(c.statements / n).toFixed(2)} statements (${(c.writes / n).toFixed(2)} writes), ` +
  `${(c.transactions / n).toFixed(2)} transactions, ${(c.commits / n).toFixed(2)} commits`;

export async function benchBulk(): Promise<void> {
  await onBothEngines('bulk', process.env.BENCH_BULK_ENGINES, run);
}
