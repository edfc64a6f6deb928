// `npm run bench`: benchmarks that print figures. Never part of `npm test`.
import os from 'node:os';
import { benchApiLoad } from './api-load.bench.ts';
import { benchAuditTrail } from './audit-trail.bench.ts';
import { benchAuthLatency } from './auth-latency.bench.ts';
import { benchBulk } from './bulk.bench.ts';
import { benchDashboard } from './dashboard.bench.ts';
import { benchExports } from './exports.bench.ts';
import { benchHostileMix } from './hostile-mix.bench.ts';
import { benchImpersonationLists } from './impersonation-lists.bench.ts';
import { benchNotices } from './notices.bench.ts';
import { benchPageLoad } from './page-load.bench.ts';
import { benchSearch } from './search.bench.ts';
import { benchSeed } from './seed.bench.ts';
import { benchSignInBundle } from './sign-in-bundle.bench.ts';
import { benchStartup } from './startup.bench.ts';
import { benchStatement } from './statement.bench.ts';
import { benchTrailStream } from './trail-stream.bench.ts';
import { benchWebhooks } from './webhooks.bench.ts';

/** The machine's 1, 5 and 15 minute load averages over its cores: each table is read against them. */
const loadAverage = () =>
  `${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')} on ${os.availableParallelism()} cores`;

/** `npm run bench NAME`: that bench alone; `npm run bench NAME+`: that bench and every one after it. */
const only = process.argv[2]?.endsWith('+') ? undefined : process.argv[2];
const from = process.argv[2]?.endsWith('+') ? process.argv[2].slice(0, -1) : undefined;
const benches: Record<string, () => Promise<void>> = {
  startup: benchStartup,
  bundle: benchSignInBundle,
  'page-load': benchPageLoad,
  auth: benchAuthLatency,
  hostile: benchHostileMix,
  search: benchSearch,
  load: benchApiLoad,
  audit: benchAuditTrail,
  impersonation: benchImpersonationLists,
  dashboard: benchDashboard,
  notices: benchNotices,
  statement: benchStatement,
  seed: benchSeed,
  exports: benchExports,
  'trail-stream': benchTrailStream,
  webhooks: benchWebhooks,
  bulk: benchBulk,
};
// A bench that fails says so and the run goes on: one run of every bench is what is read.
const failed: string[] = [];
let reached = !from;
for (const [name, run] of Object.entries(benches)) {
  reached ||= name === from;
  if ((only && only !== name) || !reached) continue;
  console.log(`\n== ${name} ==  (load average ${loadAverage()})`);
  try {
    await run();
    console.log(`-- ${name} ended (load average ${loadAverage()})`);
  } catch (e) {
    failed.push(name);
    console.log(`-- ${name} FAILED (load average ${loadAverage()}): ${(e as Error).stack ?? e}`);
  }
}
if (failed.length) {
  console.log(`\nFailed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
