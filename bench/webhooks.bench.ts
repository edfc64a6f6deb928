import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../apps/api/src/app-context.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import type { Db } from '../apps/api/src/db/db.ts';
import { migrate } from '../apps/api/src/db/migrate.ts';
import { systemClock } from '../apps/api/src/lib/clock.ts';
import { fieldCrypto } from '../apps/api/src/lib/field-crypto.ts';
import { createMetrics } from '../apps/api/src/lib/metrics.ts';
import { onTrailCommitted } from '../apps/api/src/modules/audit/trail-stream.service.ts';
import {
  deliverWebhooks,
  signatureHeader,
} from '../apps/api/src/modules/webhooks/webhook-delivery.service.ts';
import { onBothEngines } from './support.ts';

/**
 * Issue 34 item 1: how fast webhook deliveries go out, and how long from a commit to its delivery.
 * BENCH_WEBHOOK_EVENTS (default 5,000) trail rows of an event type are fanned out, signed and
 * posted by the webhook job's own code (deliverWebhooks) to a local receiver; the figure is
 * deliveries a second until the receiver holds them all. Its floor, in the same run: a bare client
 * posting the same bodies with the same headers, as many at once, over keep-alive connections, to
 * the same receiver. Then the delay from a commit of one trail row to its arrival, with the job
 * run as the API runs it (every WEBHOOK_SEND_SECONDS, and woken by a commit where the API is).
 */
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5_000);
const LATENCY_SAMPLES = Number(process.env.BENCH_WEBHOOK_LATENCY_SAMPLES ?? 100);
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function insertEvents(db: Db, n: number): Promise<void> {
  await db.query(
    `INSERT INTO activity_log (at, actor_email, action, target_type, target_id, details)
     SELECT now(), 'bench@example.com', 'customer.create', 'customer', gen_random_uuid()::text,
            jsonb_build_object('n', n, 'email', 'c' || n || '@customer.example')
       FROM generate_series(1, $1::int) n`,
    [n],
  );
}

/** The floor: the same bodies, signed, 32 at once over keep-alive connections; answers posts a second. */
async function floorRate(url: string, bodies: string[]): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const floorStart = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const i = next++;
      const body = bodies[i]!;
      const id = `evt_floor_${i}`;
      const ts = Math.floor(Date.now() / 1000);
      await new Promise<void>((resolve, reject) => {
        const req = http.request(
          url,
          {
            method: 'POST',
            agent,
            headers: {
              'content-type': 'application/json',
              'webhook-id': id,
              'webhook-timestamp': String(ts),
              'webhook-signature': signatureHeader([SECRET], id, ts, body),
            },
          },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  const rate = bodies.length / ((performance.now() - floorStart) / 1000);
  agent.destroy();
  return rate;
}

async function run(name: string, db: Db): Promise<void> {
  await migrate(db);
  const config = loadConfig({});
  const ctx = {
    db,
    clock: systemClock,
    metrics: createMetrics(db),
    crypto: fieldCrypto(randomBytes(32)),
    config: { ...config, webhooks: { ...config.webhooks, allowPrivate: true } },
  } as unknown as AppContext;
  const arrivals = new Map<string, number>();
  let got = 0;
  const bodies: string[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got++;
      arrivals.set(String(req.headers['webhook-id']), performance.now());
      if (bodies.length < EVENTS) bodies.push(body);
      res.writeHead(204).end();
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    await db.query(
      `INSERT INTO webhook_subscriptions (url, event_types, secret, created_at) VALUES ($1, '{customer.created}', $2, now())`,
      [url, ctx.crypto.encrypt(SECRET)],
    );
    await insertEvents(db, EVENTS);
    const started = performance.now();
    while (got < EVENTS) await deliverWebhooks(ctx);
    const seconds = (performance.now() - started) / 1000;
    const rate = EVENTS / seconds;

    const floor = await floorRate(url, bodies);
    console.log(
      `${name.padEnd(10)} ${EVENTS.toLocaleString('en-US')} deliveries in ${seconds.toFixed(2)} s: ${rate.toFixed(0)}/s; ` +
        `bare client, same bodies and headers, 32 at once: ${floor.toFixed(0)}/s: ×${(rate / floor).toFixed(2)} of the floor`,
    );

    // commit to delivery: one event at a time, at random moments, the job run as the API runs it:
    // every WEBHOOK_SEND_SECONDS, and at once when trail rows commit (one more run if busy)
    const delays: number[] = [];
    let running = false;
    let again = false;
    const kick = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      do {
        again = false;
        await deliverWebhooks(ctx);
      } while (again);
      running = false;
    };
    const unsubscribe = onTrailCommitted(ctx, () => void kick());
    const timer = setInterval(() => void kick(), config.webhooks.everyMs);
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      await new Promise((r) => setTimeout(r, Math.random() * 200));
      const r = await db.query<{ id: string }>(
        `INSERT INTO activity_log (at, actor_email, action, target_type, target_id, details)
         VALUES (now(), 'bench@example.com', 'customer.create', 'customer', 'x', '{}') RETURNING id::text`,
      );
      const committed = performance.now();
      const id = `evt_${r.rows[0]!.id}`;
      while (!arrivals.has(id)) await new Promise((res) => setTimeout(res, 1));
      delays.push(arrivals.get(id)! - committed);
    }
    clearInterval(timer);
    unsubscribe();
    while (running) await new Promise((res) => setTimeout(res, 10));
    console.log(
      `${name.padEnd(10)} commit to delivery (${LATENCY_SAMPLES} events, woken by the commit, poll every ${config.webhooks.everyMs} ms): ` +
        `p50 ${pct(delays, 50).toFixed(0)} ms, p95 ${pct(delays, 95).toFixed(0)} ms, max ${Math.max(...delays).toFixed(0)} ms`,
    );
  } finally {
    receiver.closeAllConnections();
    receiver.close();
  }
}

export async function benchWebhooks(): Promise<void> {
  await onBothEngines('webhooks', process.env.BENCH_WEBHOOK_ENGINES, run);
}
