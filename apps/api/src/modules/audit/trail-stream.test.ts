import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { AuditEvent } from '@sac/contract/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { RSYSLOGD, startRsyslog } from '../../../test/rsyslog-receiver.ts';
import { loadConfig } from '../../config.ts';
import { httpCollectorSink, octetFrame, syslogMessage, syslogSink } from './trail-sinks.ts';
import { trailStreamer } from './trail-stream.service.ts';

let t: TestApp;
let rsyslog: Awaited<ReturnType<typeof startRsyslog>>;
let collector: http.Server;
let collectorUrl: URL;
/** What the collector took: each request's headers and JSON lines. */
const posts: Array<{ auth: string | undefined; events: Array<{ event: AuditEvent; source: string }> }> = [];
/** The status the collector answers (503: down). */
let collectorStatus = 200;
let auditor: { xtoken: string; xsign: string };

/** Writes `n` trail rows, as the API's writers do; answers their ids. */
async function writeRows(n: number, action = 'test.row'): Promise<string[]> {
  const r = await t.db.query<{ id: string }>(
    `INSERT INTO activity_log (at, actor_email, action, details)
     SELECT now(), 'writer@example.com', $1, jsonb_build_object('n', g, 'text', 'quote " and ] and \\ back')
     FROM generate_series(1, $2::int) g RETURNING id::text`,
    [action, n],
  );
  return r.rows.map((x) => x.id);
}

/** The trail ids rsyslog wrote, in the order it received them (each message's structured data). */
const syslogIds = () => rsyslog.lines().map((l) => /\[sac@32473 id="(\d+)"/.exec(l)?.[1]);

beforeAll(async () => {
  expect(fs.existsSync(RSYSLOGD), 'rsyslog is installed (npm test installs it)').toBe(true);
  rsyslog = await startRsyslog();
  collector = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (collectorStatus === 200)
        posts.push({
          auth: req.headers.authorization,
          events: body.split('\n').map((l) => JSON.parse(l)),
        });
      res.writeHead(collectorStatus).end(collectorStatus === 200 ? '{"text":"Success","code":0}' : '');
    });
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  collectorUrl = new URL(
    `http://127.0.0.1:${(collector.address() as AddressInfo).port}/services/collector/event`,
  );
  t = await createTestApp({
    trailStream: {
      syslogUrl: new URL(`tcp://127.0.0.1:${rsyslog.port}`),
      syslogCaFile: undefined,
      httpUrl: collectorUrl,
      httpToken: 'hec-token',
      everyMs: 1000,
    },
  });
  await t.addStaff('auditor@example.com', ['Auditor']);
  auditor = await t.login('auditor@example.com');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await rsyslog?.close();
  collector?.close();
});

const sinks = () => [
  syslogSink(new URL(`tcp://127.0.0.1:${rsyslog.port}`)),
  httpCollectorSink(collectorUrl, 'hec-token'),
];

describe('the staff trail streamed to a SIEM', () => {
  it('takes sinks an operator can trust: syslog over tcp or tls, a collector over https (http only on this machine)', () => {
    const c = (env: Record<string, string>) => loadConfig(env).trailStream;
    expect(c({ TRAIL_SYSLOG_URL: 'tls://siem.example:6514' }).syslogUrl?.host).toBe('siem.example:6514');
    expect(() => c({ TRAIL_SYSLOG_URL: 'udp://siem.example:514' })).toThrow(/TRAIL_SYSLOG_URL must be a tcp/);
    expect(c({ TRAIL_HTTP_URL: 'https://hec.example/services/collector' }).httpUrl?.protocol).toBe('https:');
    expect(c({ TRAIL_HTTP_URL: 'http://127.0.0.1:8088/x' }).httpUrl?.port).toBe('8088');
    expect(() => c({ TRAIL_HTTP_URL: 'http://hec.example/x' })).toThrow(/must be https/);
  });

  it('frames each row as RFC 5424 with octet counting, its id and actor as structured data', () => {
    const e: AuditEvent = {
      Id: '7',
      At: '2026-11-29T10:00:00.000Z',
      ActorUid: null,
      ActorEmail: 'a"b]c@example.com',
      Action: 'team.roles changed',
      TargetType: null,
      TargetId: null,
      CustomerUid: null,
      AppId: null,
      ClientAddress: null,
      RequestId: null,
      ImpersonationRequestId: null,
      Details: { é: 'ü' },
    };
    const m = syslogMessage(e, 'host one');
    expect(m).toBe(
      `<109>1 2026-11-29T10:00:00.000Z host_one super-admin-console ${process.pid} team.roles_changed [sac@32473 id="7" actor="a\\"b\\]c@example.com"] ${JSON.stringify(e)}`,
    );
    expect(octetFrame('é')).toBe('2 é');
  });

  it('sends every row, in order, to rsyslog and to the HTTP collector, and says so to the Auditor', async () => {
    const ids = await writeRows(1_200);
    const streamer = trailStreamer(t.ctx, sinks());
    const httpIds = () => posts.flatMap((p) => p.events.map((e) => e.event.Id));
    await runUntil(streamer, () => syslogIds().includes(ids.at(-1)) && httpIds().includes(ids.at(-1)!));
    const received = syslogIds();
    expect(received.slice(-1_200)).toEqual(ids);
    const line = rsyslog.lines().at(-1)!;
    expect(line).toMatch(
      /^<109>1 \S+Z \S+ super-admin-console \d+ test\.row \[sac@32473 id="\d+" actor="writer@example.com"\] \{/,
    );
    const event = JSON.parse(line.slice(line.indexOf('] ') + 2)) as AuditEvent;
    expect(event).toMatchObject({ Id: ids.at(-1), Action: 'test.row', ActorEmail: 'writer@example.com' });
    expect(event.Details).toMatchObject({ n: 1_200, text: 'quote " and ] and \\ back' });

    const http = posts.flatMap((p) => p.events);
    expect(http.map((e) => e.event.Id).slice(-1_200)).toEqual(ids);
    expect(posts.every((p) => p.auth === 'Splunk hec-token')).toBe(true);
    expect(http[0]).toMatchObject({ source: 'super-admin-console', sourcetype: '_json' });

    const status = await t.call('auditStream', { session: auditor });
    expect(status.status, status.raw.body).toBe(200);
    expect(status.body.Sinks.map((s) => [s.Sink, s.PendingRows, s.LagSeconds, s.LastError])).toEqual([
      ['syslog', 0, 0, null],
      ['http', 0, 0, null],
    ]);
    expect(status.body.Sinks[0]!.Target).toBe(`tcp://127.0.0.1:${rsyslog.port}`);
    expect(status.body.Sinks[1]!.SentRows).toBeGreaterThanOrEqual(1_200);
    streamer.close();
  });

  it('loses nothing when the receivers are cut for a while, and an instance that starts again goes on from the stored cursor', async () => {
    const streamer = trailStreamer(t.ctx, sinks());
    const before = await writeRows(5);
    await runUntil(streamer, () => syslogIds().includes(before.at(-1)));

    await rsyslog.stop();
    collectorStatus = 503;
    const during = await writeRows(40);
    await streamer.run().catch(() => undefined);
    await streamer.run().catch(() => undefined);
    const down = await t.call('auditStream', { session: auditor });
    expect(down.body.Sinks.find((s) => s.Sink === 'http')).toMatchObject({
      PendingRows: 40,
      LastError: 'the collector answered 503',
    });

    await rsyslog.start();
    collectorStatus = 200;
    // another process takes over: only the stored cursor carries over
    streamer.close();
    const next = trailStreamer(t.ctx, sinks());
    await next.run().catch(() => undefined);
    await next.run();
    const after = await writeRows(3);
    const httpSent = () => new Set(posts.flatMap((p) => p.events.map((e) => e.event.Id)));
    await runUntil(next, () => syslogIds().includes(after.at(-1)) && httpSent().has(after.at(-1)!));
    const got = new Set(syslogIds());
    for (const id of [...during, ...after]) expect(got.has(id), `row ${id} reached rsyslog`).toBe(true);
    const httpIds = new Set(posts.flatMap((p) => p.events.map((e) => e.event.Id)));
    for (const id of [...during, ...after])
      expect(httpIds.has(id), `row ${id} reached the collector`).toBe(true);
    const up = await t.call('auditStream', { session: auditor });
    expect(up.body.Sinks.map((s) => [s.PendingRows, s.LastError])).toEqual([
      [0, null],
      [0, null],
    ]);
    next.close();
  }, 60_000);

  it('tells the job runner (which logs it) when a sink starts failing or fails anew, not every second', async () => {
    const streamer = trailStreamer(t.ctx, [httpCollectorSink(collectorUrl, 'hec-token')]);
    /** Runs until a run rejects (a new row may wait behind transactions open elsewhere); its message. */
    const firstFailure = async () => {
      const end = Date.now() + 20_000;
      for (;;) {
        const m = await streamer.run().then(
          () => undefined,
          (e: Error) => e.message,
        );
        if (m) return m;
        if (Date.now() > end) throw new Error('no run failed');
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await streamer.run();
    collectorStatus = 503;
    await writeRows(1);
    expect(await firstFailure()).toBe('the collector answered 503');
    await expect(streamer.run()).resolves.toBeUndefined();
    collectorStatus = 500;
    expect(await firstFailure()).toBe('the collector answered 500');
    collectorStatus = 200;
    await streamer.run();
    streamer.close();
  });

  it('sends again what it wrote just before a syslog receiver dropped the connection unread', async () => {
    // a receiver that, while `cutting`, closes each connection on its first bytes without reading them
    let cutting = true;
    const got: string[] = [];
    const server = net.createServer((s) => {
      let buf = '';
      s.on('data', (d) => {
        if (cutting) return void s.destroy();
        buf += d.toString('utf8');
        for (let m = /^(\d+) /.exec(buf); m; m = /^(\d+) /.exec(buf)) {
          const len = Number(m[1]);
          const start = m[0].length;
          if (Buffer.byteLength(buf.slice(start)) < len) break;
          const msg = Buffer.from(buf.slice(start)).subarray(0, len).toString('utf8');
          got.push(/id="(\d+)"/.exec(msg)![1]!);
          buf = Buffer.from(buf.slice(start)).subarray(len).toString('utf8');
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const sink = syslogSink(new URL(`tcp://127.0.0.1:${(server.address() as AddressInfo).port}`));
    const streamer = trailStreamer(t.ctx, [sink]);
    await streamer.run();
    const lost = await writeRows(3);
    // handed over, then dropped by the receiver unread
    await runUntil(streamer, () => sink.droppedSince!(0));
    await new Promise((r) => setTimeout(r, 100));
    cutting = false;
    await runUntil(streamer, () => lost.every((id) => got.includes(id)));
    streamer.close();
    server.close();
  });

  it('never passes over a row whose transaction commits after a later row (PostgreSQL)', async () => {
    if (t.db.kind !== 'postgres') return;
    const streamer = trailStreamer(t.ctx, [httpCollectorSink(collectorUrl, 'hec-token')]);
    await streamer.run();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let slowId = '';
    const slow = t.db.transaction(async (tx) => {
      const r = await tx.query<{ id: string }>(
        "INSERT INTO activity_log (at, action) VALUES (now(), 'test.slow') RETURNING id::text",
      );
      slowId = r.rows[0]!.id;
      await held;
    });
    await until(() => slowId !== '');
    const [fastId] = await writeRows(1, 'test.fast');
    await streamer.run();
    const sent = () => posts.flatMap((p) => p.events.map((e) => e.event.Id));
    expect(Number(fastId)).toBeGreaterThan(Number(slowId));
    // the later row waits behind the transaction still open
    expect(sent()).not.toContain(fastId);
    release();
    await slow;
    await runUntil(streamer, () => sent().includes(fastId!));
    expect(sent().slice(-2)).toEqual([slowId, fastId]);
    streamer.close();
  });
});

/**
 * Runs the stream until `done` holds: on PostgreSQL a row waits while any transaction older than
 * its own is open anywhere on the server (other tests' databases included).
 */
async function runUntil(
  streamer: { run(): Promise<void> },
  done: () => boolean,
  timeoutMs = 20_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    await streamer.run().catch(() => undefined);
    if (done()) return;
    if (Date.now() > end) throw new Error('not within the time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function until(done: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error('not within the time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
