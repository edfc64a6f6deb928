import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { databaseLeases } from '../../lib/leases.ts';
import { startJobs } from '../../ops/jobs.ts';
import { httpCollectorSink } from './trail-sinks.ts';
import { cursorOf } from './trail-stream.repo.ts';
import { onTrailCommitted, trailStreamer, trailStreamJob } from './trail-stream.service.ts';

/**
 * The stream is woken by the commit of trail rows (migration 0071's NOTIFY, heard in process on
 * PGlite and on the listening connection on PostgreSQL), not only by its poll; it reads the next
 * batch while it sends one, and stores a batch's cursor only once that batch was sent.
 */

let t: TestApp;
let collector: http.Server;
let url: URL;
/** The ids the collector took, in order of arrival. */
const got: string[] = [];
/** The answer to the n-th request (1-based) when set; 200 otherwise. */
let statusOf: (n: number) => number = () => 200;
let requests = 0;
const quiet = { warn() {} };
const hour = 3_600_000;

async function writeRows(n: number, q: { query: TestApp['db']['query'] } = t.db): Promise<string[]> {
  const r = await q.query<{ id: string }>(
    `INSERT INTO activity_log (at, actor_email, action, details)
     SELECT now(), 'writer@example.com', 'test.wake', jsonb_build_object('n', g)
     FROM generate_series(1, $1::int) g RETURNING id::text`,
    [n],
  );
  return r.rows.map((x) => x.id);
}

async function until(done: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The HTTP sink's cursor moved to the end of the trail: only rows written later are sent. */
async function cursorAtEnd(): Promise<void> {
  await t.db.query(`DELETE FROM trail_stream_cursors WHERE sink = 'http'`);
  await t.db.query(
    `INSERT INTO trail_stream_cursors (sink, txid, last_id)
     SELECT 'http', COALESCE(max(txid), 0), COALESCE(max(id), 0) FROM activity_log`,
  );
}

beforeAll(async () => {
  collector = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const status = statusOf(++requests);
      if (status === 200)
        for (const l of body.split('\n')) got.push((JSON.parse(l) as { event: { Id: string } }).event.Id);
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  url = new URL(`http://127.0.0.1:${(collector.address() as AddressInfo).port}/services/collector`);
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
  collector?.close();
});

describe('the trail stream woken by commits', () => {
  it('hears each commit that adds trail rows once, and no rollback or other write', async () => {
    let heard = 0;
    const off = onTrailCommitted(t.ctx, () => heard++);
    try {
      // until the LISTEN a first listener starts is in place
      await until(async () => {
        await writeRows(1);
        await new Promise((r) => setTimeout(r, 50));
        return heard >= 1;
      }, 'a first commit heard');
      await new Promise((r) => setTimeout(r, 100));
      const before = heard;
      await t.db.transaction(async (tx) => {
        await writeRows(2, tx);
        await writeRows(3, tx);
      });
      await until(() => heard > before, 'a transaction of two inserts heard');
      await expect(
        t.db.transaction(async (tx) => {
          await writeRows(1, tx);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await t.db.query(`UPDATE trail_stream_cursors SET updated_at = now()`);
      await new Promise((r) => setTimeout(r, 300));
      expect(heard).toBe(before + 1);
    } finally {
      off();
    }
    const after = heard;
    await writeRows(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(heard, 'an unsubscribed listener hears nothing').toBe(after);
  });

  it('sends a committed row at once, with the poll an hour away', async () => {
    await cursorAtEnd();
    const job = trailStreamJob(t.ctx, [httpCollectorSink(url)], hour);
    const jobs = startJobs({
      jobs: [job],
      leases: databaseLeases(t.db, t.clock),
      holder: 'wake',
      log: quiet,
    });
    try {
      for (let i = 0; i < 3; i++) {
        const [id] = await writeRows(1);
        await until(() => got.includes(id!), `row ${id} sent`);
      }
    } finally {
      await jobs.stop();
      job.close();
    }
  });

  it('reads the next batch while sending one, and stores a cursor only once its batch was sent', async () => {
    await cursorAtEnd();
    const start = await cursorOf(t.db, 'http');
    const ids = await writeRows(1_200);
    requests = 0;
    statusOf = (n) => (n === 2 ? 503 : 200); // the second batch fails: it had been read already
    const streamer = trailStreamer(t.ctx, [httpCollectorSink(url)]);
    await expect(streamer.run()).rejects.toThrow(/answered 503/);
    expect(start.id).not.toBe(ids[0]);
    expect((await cursorOf(t.db, 'http')).id, 'the cursor stops at the batch sent').toBe(ids[499]);
    got.length = 0;
    statusOf = () => 200;
    await streamer.run();
    expect(got).toEqual(ids.slice(500));
  });

  it('a read ahead that fails while a batch is sent ends the run with that error, never the process', async () => {
    await cursorAtEnd();
    await writeRows(600);
    let reads = 0;
    // the database answers the first batch, then fails the read made ahead while it is sent
    const db = new Proxy(t.db, {
      get(target, key, receiver) {
        if (key !== 'query') return Reflect.get(target, key, receiver);
        return async (text: string, params?: unknown[]) => {
          if (text.includes('"activity_log"') && ++reads > 1) throw new Error('pool wait timed out');
          return target.query(text, params as never);
        };
      },
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const slowSink = {
        ...httpCollectorSink(url),
        send: () => new Promise<void>((r) => setTimeout(r, 200)),
      };
      const streamer = trailStreamer({ ...t.ctx, db }, [slowSink]);
      await expect(streamer.run()).rejects.toThrow(/pool wait timed out/);
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe.runIf(inject('testDb') === 'postgres')('the trail stream woken on PostgreSQL', () => {
  it('listens again when its connection is cut, and wakes its listeners then', async () => {
    let heard = 0;
    const off = onTrailCommitted(t.ctx, () => heard++);
    try {
      await writeRows(1);
      await until(() => heard >= 1, 'a commit heard');
      const cut = await t.db.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'LISTEN sac_trail_committed%'`,
      );
      expect(cut.rows[0]!.n).toBe(1);
      const before = heard;
      await until(() => heard > before, 'the listeners woken once listening again');
      const again = heard;
      await writeRows(1);
      await until(() => heard > again, 'a commit heard on the new connection');
    } finally {
      off();
    }
  });

  it('reads again soon rows kept back behind an older transaction still running', async () => {
    await cursorAtEnd();
    const job = trailStreamJob(t.ctx, [httpCollectorSink(url)], hour);
    const jobs = startJobs({
      jobs: [job],
      leases: databaseLeases(t.db, t.clock),
      holder: 'held',
      log: quiet,
    });
    const older = new pg.Client({ connectionString: t.db.connectionString });
    await older.connect();
    try {
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()'); // an id older than the row's: the horizon stays below it
      const [id] = await writeRows(1);
      await new Promise((r) => setTimeout(r, 300));
      expect(got).not.toContain(id);
      await older.query('COMMIT'); // writes no trail row: no notification
      await until(() => got.includes(id!), `row ${id} sent once the older transaction ended`, 5_000);
    } finally {
      await older.end();
      await jobs.stop();
      job.close();
    }
  });
});
