import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig, retiredSettingsSet } from './config.ts';
import { dropOrphanedLeases, migrateConfigured, openConfiguredDbOrExit } from './db/open.ts';
import { consoleOrigin } from './lib/console-url.ts';
import { humanLogStream } from './lib/human-log.ts';
import { privateUmask } from './lib/private-data-dir.ts';
import { describeRedis, redisCircuit } from './lib/redis.ts';
import { isPrivatePath, normalisedPath } from './lib/request-path.ts';
import { countStaff } from './modules/auth/staff.service.ts';
import { WARM_UP_MAX_QUERIES, warmUpSearch } from './modules/customers/search-warm-up.ts';
import { rememberConsoleOrigin } from './ops/console-origin.ts';
import { startJobs } from './ops/jobs.ts';
import { periodicJobs } from './ops/periodic.ts';
import { finishStart } from './ops/start-steps.ts';
import { lowerHelperThreads } from './ops/thread-priority.ts';
import { seedDemoData } from './seed/seed.ts';

// Before any file is made: DATA_DIR's database, key, outbox and records are this user's only
// (openConfiguredDb also makes what is already there 0700/0600).
privateUmask();
const config = loadConfig();
const db = await openConfiguredDbOrExit(config);
// The start's steps wait for a store that answers late (a loaded host) instead of failing the
// start; once it is done, calls are held to their budget (STORE_CALL_BUDGET_MS).
let started = false;
const heldToBudget = () => started;
db.circuit?.holdWhile(heldToBudget);
const { applied, warning: trailOwner } = await migrateConfigured(config, db);
await dropOrphanedLeases(db);
// A new PGlite directory copied from the migrated template (scripts/start.mjs) was migrated by the copy.
const migratedTo =
  applied.at(-1) ??
  (db.fromTemplate
    ? (await db.query<{ v: number }>('SELECT max(version) AS v FROM schema_migrations')).rows[0]?.v
    : undefined);
// Demo data only where it was asked for (DEMO_DATA) or on the embedded database by default: a
// production database never gets demo staff.
const seed = async () =>
  config.demoData
    ? seedDemoData(db, { dataDir: config.dataDir, demoPassword: config.demoPassword, config })
    : undefined;
// Two instances starting at once on an empty PostgreSQL database both try to create the demo
// staff; the loser's transaction fails on a unique key and it finds them there on a second look.
// Demo data goes in once the server already serves the console (it is most of a first start):
// API calls wait for it, so a sign-in never races it. A failure still stops the start.
let startSeeding = () => {};
const seeding = new Promise<void>((resolve) => {
  startSeeding = resolve;
}).then(() =>
  seed().catch((err: { code?: string }) => {
    if (err.code === '23505') return seed();
    throw err;
  }),
);
seeding.catch(() => {}); // awaited after listen; this only keeps an early failure from going unhandled
let seeded = false;
// At a terminal, one short line per request and event (LOG_FORMAT=json keeps the JSON lines).
const { app, ctx } = await buildApp({
  config,
  db,
  ...(config.logFormat === 'human' ? { logStream: humanLogStream(process.stdout) } : {}),
});
// Without SMTP, mail is written as files to DATA_DIR/outbox: made now, so it is there to look in.
if (!config.smtpUrl) fs.mkdirSync(path.join(config.dataDir, 'outbox'), { recursive: true });
if (trailOwner) app.log.warn(trailOwner);
if (ctx.redis) redisCircuit(ctx.redis)?.holdWhile(heldToBudget);
ctx.ops.starting = true; // until finishStart is done: /readyz says 'starting'
app.addHook('onRequest', async (req) => {
  if (!seeded && isPrivatePath(normalisedPath(req.url))) await seeding;
});

const jobs = startJobs({
  jobs: periodicJobs(ctx),
  leases: ctx.leases,
  holder: ctx.ops.instanceId,
  log: app.log,
  onOutcome: (job, outcome) => ctx.metrics.jobRuns.inc({ job, outcome }),
});
// Mail that its instance did not send at once (a failure to retry, or left by a crash) goes out
// from whichever instance looks first (mail/outbox.ts).
ctx.mailer.poll(config.mailPollMs);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
/** Resolves true when `p` settles in time, false when `ms` passed first. */
const within = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), sleep(ms).then(() => false)]);

/**
 * SIGTERM (or SIGINT): /readyz turns 503 at once so load balancers stop sending traffic; after
 * SHUTDOWN_DRAIN_SECONDS the server stops accepting connections and waits for the requests under
 * way (at most SHUTDOWN_TIMEOUT_SECONDS); periodic jobs stop, queued mail is delivered, Redis and
 * the database are closed, and the process exits 0 (1 when requests were cut short).
 */
let closing = false;
async function shutdown(signal: string) {
  if (closing) {
    if (signal === 'SIGINT') process.exit(1); // a second Ctrl-C does not wait
    return;
  }
  closing = true;
  ctx.ops.draining = true;
  app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down: draining');
  const stoppingJobs = jobs.stop();
  if (config.shutdownDrainMs > 0) await sleep(config.shutdownDrainMs);
  const finished = await within(app.close(), config.shutdownTimeoutMs);
  if (!finished)
    app.log.warn({ timeoutMs: config.shutdownTimeoutMs }, 'requests still under way at the shutdown timeout');
  // After a timeout the requests still under way hold database connections: do not wait for them.
  const grace = finished ? 5000 : 500;
  await within(stoppingJobs, grace);
  await within(ctx.mailer.flush(), 10_000);
  if (ctx.redis && !finished) ctx.redis.disconnect();
  await within(db.close(), grace);
  app.log.info({}, 'shut down');
  process.exit(finished ? 0 : 1);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

// The address people open: the same words in the listening line and in the banner.
const url = `http://${config.host === '0.0.0.0' || config.host === '::' || config.host === '127.0.0.1' ? 'localhost' : config.host}:${config.port}`;
try {
  await app.listen({
    port: config.port,
    host: config.host,
    listenTextResolver: () => `Server listening at ${url}`,
  });
} catch (e) {
  // One line an operator can act on, not a stack trace.
  const code = (e as { code?: string }).code;
  if (code !== 'EADDRINUSE' && code !== 'EACCES') throw e;
  console.error(
    code === 'EADDRINUSE'
      ? `Port ${config.port} on ${config.host} is already in use: stop what listens there, or set PORT to another port (PORT=3002 npm start).`
      : `Port ${config.port} on ${config.host} may not be opened by this user: set PORT to a port above 1023.`,
  );
  process.exit(1);
}
const answeringMs = performance.now();
// hashing and other helper threads yield the cores to the event loop (thread-priority.ts)
await lowerHelperThreads(config.helperThreadNice);
const { seeded: demo, warm } = await finishStart(ctx.ops, {
  seed: async () => {
    startSeeding();
    // A shutdown during the first seeding closes the database under it: shutdown() then ends the process.
    const made = await seeding.catch((err: unknown) =>
      closing ? new Promise<never>(() => {}) : Promise.reject(err),
    );
    seeded = true;
    return made;
  },
  // PGlite compiles its engine's code as it first runs and optimizes what runs hot: a fresh
  // process answered one search in ten 5-10 times slower than a warm one. A few hundred
  // milliseconds of searches, once the server answers, make the searches of the first users
  // (who sign in first) as fast as later ones (search-warm-up.ts).
  warmUp: async () =>
    db.kind === 'pglite' && config.searchWarmUpMs > 0
      ? warmUpSearch(db, {
          budgetMs: config.searchWarmUpMs,
          maxQueries: WARM_UP_MAX_QUERIES,
          stopped: () => closing,
        }).catch((err: unknown) => {
          // only a speed-up: a failure must not stop the start
          if (!closing) app.log.warn({ err }, 'search warm-up stopped');
          return undefined;
        })
      : undefined,
});
// `npm run create-admin` in another shell builds its link on this origin (ops/start-steps.ts).
await rememberConsoleOrigin(db, consoleOrigin(config)).catch((err: unknown) =>
  app.log.warn({ err }, 'the console origin could not be written for create-admin'),
);
const trust = config.trustProxy;
const lines = [
  '',
  `  Super Admin Console is running at ${url}`,
  `  API reference: ${url}/docs`,
  `  Database: ${db.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/pglite`}${migratedTo !== undefined ? ` (migrated to ${migratedTo})` : ''}`,
  `  Redis: ${config.redisUrl ? describeRedis(config.redisUrl) : 'not used (sign-in limits and job leases in the database)'}`,
  `  X-Forwarded-For trusted from: ${trust === true ? 'every peer' : trust === false ? 'no peer' : trust.join(', ')}`,
  `  Mail: ${ctx.mailer.description}`,
  demo
    ? `  Demo sign-ins (password ${demo.password}):\n${demo.emails.map((e) => `    ${e}`).join('\n')}${demo.sites ? `\n  Demo sites' API keys and secrets: ${config.dataDir}/demo-sign-in.json` : ''}`
    : (await countStaff(db)) === 0
      ? `  No staff account yet${config.demoData ? '' : ' (no demo data: DEMO_DATA=1 asks for it)'}. Create the first admin:\n    npm run create-admin -- you@example.com`
      : config.demoData
        ? '  Demo sign-ins: not created (the database already had staff).'
        : '  Demo data: off.',
  ...retiredSettingsSet().map((line) => `  Warning: ${line}`),
  // performance.now() counts from the process's start, imports and all: what an operator waits.
  `  Ready in ${Math.round(performance.now())} ms (answering from ${Math.round(answeringMs)} ms${warm ? `; ${warm.queries} warm-up searches: ${Math.round(warm.ms)} ms` : ''})`,
  '',
];
started = true;
console.log(lines.join('\n'));
