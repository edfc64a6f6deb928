import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '../apps/api/src/db/db.ts';
import { systemClock } from '../apps/api/src/lib/clock.ts';
import { databaseLeases } from '../apps/api/src/lib/leases.ts';
import type { createMetrics } from '../apps/api/src/lib/metrics.ts';
import { httpCollectorSink, trailStreamJob } from '../apps/api/src/modules/audit/trail-stream.service.ts';

/**
 * Issue 34 item 3: the delay from the commit of a trail row to its delivery. The trail-stream job
 * runs as the server runs it (startJobs: its lease, its poll every TRAIL_STREAM_SECONDS, and the
 * wake-up on a commit), sending to a local HTTP collector; BENCH_TRAIL_COMMITS single-row
 * commits (default 60) follow each other at random gaps of 30–250 ms, so that they land anywhere
 * between two polls. Each delay runs from just before the INSERT (an autocommit statement) to the
 * collector's reading of the request that holds the row.
 */
const COMMITS = Number(process.env.BENCH_TRAIL_COMMITS ?? 60);

/**
 * The job as ops/jobs.ts runs it (bench/ may not reach ops/): the lease taken before each run, a
 * run every `everyMs`, one at once when woken, and one more after a run that a wake-up came during.
 */
function runAsTheServerDoes(
  job: {
    name: string;
    everyMs: number;
    run(woken?: boolean): Promise<unknown>;
    wakeOn?(wake: () => void): () => void;
  },
  leases: ReturnType<typeof databaseLeases>,
) {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const tick = (woken: boolean) => {
    if (stopped) return;
    if (running) {
      again ||= woken;
      return;
    }
    running = (async () => {
      try {
        if (await leases.acquire(job.name, 'bench', 60_000)) await job.run(woken);
      } catch (err) {
        console.log('trail-stream run failed', err);
      }
    })().then(() => {
      running = undefined;
      if (again) {
        again = false;
        tick(true);
      }
    });
  };
  const timer = setInterval(() => tick(false), job.everyMs);
  const off = job.wakeOn?.(() => tick(true));
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      off?.();
      await running;
    },
  };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

export async function benchCommitToDelivery(
  name: string,
  db: Db,
  metrics: ReturnType<typeof createMetrics>,
): Promise<void> {
  const arrived = new Map<string, number>();
  const collector = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const at = performance.now();
      for (const line of body.split('\n')) {
        const id = (JSON.parse(line) as { event: { Id: string } }).event.Id;
        if (!arrived.has(id)) arrived.set(id, at);
      }
      res.writeHead(200).end('{"code":0}');
    });
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  const url = new URL(`http://127.0.0.1:${(collector.address() as AddressInfo).port}/services/collector`);
  const ctx = { db, clock: systemClock, metrics };
  // the sink's cursor starts at the end of the trail: only the rows committed here are sent
  await db.query('DELETE FROM trail_stream_cursors');
  await db.query(
    `INSERT INTO trail_stream_cursors (sink, txid, last_id)
     SELECT 'http', COALESCE(max(txid), 0), COALESCE(max(id), 0) FROM activity_log`,
  );
  const job = trailStreamJob(ctx, [httpCollectorSink(url)], 1_000);
  const runner = runAsTheServerDoes(job, databaseLeases(db, systemClock));
  const started = new Map<string, number>();
  try {
    // commits at their own pace, not waiting for deliveries: they fall anywhere between two polls
    for (let i = 0; i < COMMITS; i++) {
      await new Promise((r) => setTimeout(r, 30 + Math.random() * 220));
      const at = performance.now();
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO activity_log (at, actor_email, action) VALUES (now(), 'bench@example.com', 'login.success')
         RETURNING id::text AS id`,
      );
      started.set(rows[0]!.id, at);
    }
    const end = Date.now() + 10_000;
    while ([...started.keys()].some((id) => !arrived.has(id))) {
      if (Date.now() > end) throw new Error('rows not delivered within 10 s');
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    await runner.stop();
    job.close();
    collector.close();
  }
  const delays = [...started].map(([id, at]) => arrived.get(id)! - at).sort((a, b) => a - b);
  console.log(
    `${name.padEnd(10)} commit to delivery (HTTP collector, ${COMMITS} commits): ` +
      `p50 ${quantile(delays, 0.5).toFixed(1)} ms, p95 ${quantile(delays, 0.95).toFixed(1)} ms, ` +
      `max ${delays.at(-1)!.toFixed(1)} ms`,
  );
}
