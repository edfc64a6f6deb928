import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { insertDeliveries } from './deliveries.repo.ts';
import { deliverWebhooks } from './webhook-delivery.service.ts';
import { PER_ENDPOINT_AT_ONCE } from './webhook-sender.ts';

/**
 * The sender's pool against real receivers on loopback: an endpoint that holds every request open
 * (until the test lets it answer) takes at most PER_ENDPOINT_AT_ONCE posts, and the deliveries of
 * another endpoint, queued behind its whole backlog, go out meanwhile.
 */

let t: TestApp;
let receiver: http.Server;
let base: string;
/** Requests the slow path holds open, answered 200 when released. */
const held: http.ServerResponse[] = [];
let holding = true;
let openAtOnce = 0;
let mostAtOnce = 0;
const got: Record<string, string[]> = { '/slow': [], '/fast': [], '/many': [] };
let superAdmin: { xtoken: string; xsign: string };

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      got[path]?.push(String(req.headers['webhook-id']));
      if (path === '/slow' && holding) {
        openAtOnce++;
        mostAtOnce = Math.max(mostAtOnce, openAtOnce);
        held.push(res);
        return;
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await createTestApp();
  await t.addStaff('root@example.com', ['SuperAdmin']);
  superAdmin = await t.login('root@example.com');
}, 60_000);
afterAll(async () => {
  for (const res of held) res.destroy();
  await t?.close();
  receiver?.close();
});

async function subscribe(path: string) {
  const r = await t.call('webhookCreate', {
    session: superAdmin,
    body: { Url: `${base}${path}`, EventTypes: ['customer.created'] },
  });
  expect(r.status, JSON.stringify(r.raw.json())).toBe(200);
  return String(r.body.Data.Id);
}

/** `n` deliveries queued for a subscription, due now. */
async function queue(subscriptionId: string, n: number, tag: string) {
  const at = t.clock.now();
  await insertDeliveries(
    t.db,
    Array.from({ length: n }, (_, i) => ({
      subscriptionId,
      eventId: `evt_${tag}_${i}`,
      eventType: 'customer.created',
      payload: JSON.stringify({ type: 'customer.created', timestamp: at.toISOString(), data: { i } }),
      occurredAt: at.toISOString(),
    })),
    at,
  );
}

async function until(done: () => boolean, what: string) {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(done(), what).toBe(true);
}

describe('the webhook sender', () => {
  it('keeps a hanging endpoint to its own few posts while another endpoint is served', async () => {
    const slow = await subscribe('/slow');
    const fast = await subscribe('/fast');
    // the slow endpoint's backlog first in due order, more than all the posts the pool makes at once
    await queue(slow, 40, 'slow');
    t.clock.advance(1000);
    await queue(fast, 10, 'fast');
    const run = deliverWebhooks(t.ctx);
    await until(() => got['/fast']!.length === 10, 'the fast endpoint had every delivery');
    await until(() => held.length === PER_ENDPOINT_AT_ONCE, 'the slow endpoint holds its share');
    expect(mostAtOnce).toBe(PER_ENDPOINT_AT_ONCE);
    // the slow endpoint answers: the rest of its backlog goes out, this run or the next ones
    holding = false;
    for (const res of held.splice(0)) {
      openAtOnce--;
      res.writeHead(200).end('ok');
    }
    await run;
    for (let i = 0; i < 20 && got['/slow']!.length < 40; i++) await deliverWebhooks(t.ctx);
    expect(new Set(got['/slow']).size).toBe(40);
    expect(got['/slow']).toHaveLength(40);
    expect(got['/fast']).toHaveLength(10);
    const states = await t.db.query<{ state: string; n: number }>(
      'SELECT state, count(*)::int AS n FROM webhook_deliveries GROUP BY state',
    );
    expect(states.rows).toEqual([{ state: 'delivered', n: 50 }]);
  }, 60_000);

  it('posts each delivery once when runs claim side by side (as two instances do)', async () => {
    const many = await subscribe('/many');
    await queue(many, 300, 'many');
    for (let i = 0; i < 20 && got['/many']!.length < 300; i++)
      await Promise.all([deliverWebhooks(t.ctx), deliverWebhooks(t.ctx), deliverWebhooks(t.ctx)]);
    expect(got['/many']).toHaveLength(300);
    expect(new Set(got['/many']).size).toBe(300);
    const attempts = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.subscription_id = $1`,
      [many],
    );
    expect(attempts.rows[0]!.n).toBe(300);
  }, 60_000);
});
