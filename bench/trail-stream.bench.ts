import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { AuditEvent } from '@sac/contract/audit';
import type { Db } from '../apps/api/src/db/db.ts';
import { migrate } from '../apps/api/src/db/migrate.ts';
import { systemClock } from '../apps/api/src/lib/clock.ts';
import { createMetrics } from '../apps/api/src/lib/metrics.ts';
import { readAfter } from '../apps/api/src/modules/audit/trail-stream.repo.ts';
import {
  httpCollectorSink,
  octetFrame,
  syslogMessage,
  syslogSink,
  trailStreamer,
} from '../apps/api/src/modules/audit/trail-stream.service.ts';
import { startRsyslog } from '../apps/api/test/rsyslog-receiver.ts';
import { insertTrailEvents, onBothEngines } from './support.ts';
import { benchCommitToDelivery } from './trail-stream-latency.ts';

/**
 * Issue 34 item 3: how fast the staff trail reaches a SIEM. BENCH_TRAIL_ROWS (default 50,000)
 * trail rows are streamed by the trail-stream job's own code (trailStreamer: read a batch, send,
 * store the cursor) to a real rsyslogd over TCP and to a local HTTP collector; the figure is rows
 * a second until the receiver holds the last one. Its floor, in the same run: a bare client
 * sending the same rows, already read and formatted, over one socket (syslog) or in POSTs of the
 * same batch size (HTTP), to the same receiver. Then the delay from a commit to its delivery
 * (trail-stream-latency.ts). BENCH_TRAIL_DATABASE names the PostgreSQL database it makes afresh
 * (default sac_bench_trail_stream), for runs side by side on one server.
 */
const ROWS = Number(process.env.BENCH_TRAIL_ROWS ?? 50_000);

/** Every row in the stream's order, read once: what the floor sends. */
async function allEvents(db: Db): Promise<AuditEvent[]> {
  const out: AuditEvent[] = [];
  let cursor = { txid: '0', id: '0' };
  for (;;) {
    const batch = await readAfter(db, cursor, 5_000);
    if (batch.length === 0) return out;
    for (const b of batch) out.push(b.event);
    cursor = batch.at(-1)!.cursor;
  }
}

async function until(done: () => boolean): Promise<void> {
  const end = Date.now() + 10 * 60_000;
  while (!done()) {
    if (Date.now() > end) throw new Error('the receiver did not get every row within 10 minutes');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function run(name: string, db: Db): Promise<void> {
  await migrate(db);
  await insertTrailEvents(db, 1, ROWS, "now() - interval '1 day'");
  const events = await allEvents(db);
  const lastId = events.at(-1)!.Id;
  const ctx = { db, clock: systemClock, metrics: createMetrics(db) };

  // syslog: the stream, then the floor, each to its own rsyslogd
  const rs = await startRsyslog();
  const rsFloor = await startRsyslog();
  let received = 0;
  try {
    const started = performance.now();
    const streamer = trailStreamer(ctx, [syslogSink(new URL(`tcp://127.0.0.1:${rs.port}`))]);
    for (;;) {
      await streamer.run();
      const lines = rs.lines();
      received = lines.length;
      if (lines.at(-1)?.includes(`id="${lastId}"`)) break;
    }
    const seconds = (performance.now() - started) / 1000;
    streamer.close();
    const floorStart = performance.now();
    const s = net.connect(rsFloor.port, '127.0.0.1');
    await new Promise((r) => s.once('connect', r));
    for (let i = 0; i < events.length; i += 500)
      await new Promise<void>((r) =>
        s.write(
          events
            .slice(i, i + 500)
            .map((e) => octetFrame(syslogMessage(e)))
            .join(''),
          () => r(),
        ),
      );
    await until(() => rsFloor.lines().at(-1)?.includes(`id="${lastId}"`) ?? false);
    const floorSeconds = (performance.now() - floorStart) / 1000;
    s.destroy();
    const rate = received / seconds;
    const floor = events.length / floorSeconds;
    console.log(
      `${name.padEnd(10)} syslog  ${received.toLocaleString('en-US')} rows in ${seconds.toFixed(2)} s: ${rate.toFixed(0)} rows/s; ` +
        `bare socket to rsyslog ${floor.toFixed(0)} rows/s: ×${(rate / floor).toFixed(2)} of the floor`,
    );
  } finally {
    await rs.close();
    await rsFloor.close();
  }

  // HTTP collector: the stream, then the floor (bare POSTs of 500 rows)
  let got = 0;
  let last = '';
  const collector = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const lines = body.split('\n');
      got += lines.length;
      last = lines.at(-1) ?? '';
      res.writeHead(200).end('{"code":0}');
    });
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  const url = new URL(
    `http://127.0.0.1:${(collector.address() as AddressInfo).port}/services/collector/event`,
  );
  try {
    await db.query('DELETE FROM trail_stream_cursors');
    const started = performance.now();
    const streamer = trailStreamer(ctx, [httpCollectorSink(url, 'bench')]);
    while (!last.includes(`"Id":"${lastId}"`)) await streamer.run();
    const seconds = (performance.now() - started) / 1000;
    const rate = got / seconds;
    got = 0;
    last = '';
    const floorSink = httpCollectorSink(url, 'bench');
    const floorStart = performance.now();
    for (let i = 0; i < events.length; i += 500) await floorSink.send(events.slice(i, i + 500));
    const floorSeconds = (performance.now() - floorStart) / 1000;
    const floor = events.length / floorSeconds;
    console.log(
      `${name.padEnd(10)} HTTP    ${events.length.toLocaleString('en-US')} rows in ${seconds.toFixed(2)} s: ${rate.toFixed(0)} rows/s; ` +
        `bare POSTs of the same batches ${floor.toFixed(0)} rows/s: ×${(rate / floor).toFixed(2)} of the floor`,
    );
  } finally {
    collector.close();
  }
  await benchCommitToDelivery(name, db, ctx.metrics);
}

export async function benchTrailStream(): Promise<void> {
  await onBothEngines('trail-stream', process.env.BENCH_TRAIL_ENGINES, run, process.env.BENCH_TRAIL_DATABASE);
}
