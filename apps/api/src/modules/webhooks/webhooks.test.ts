import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildOpenApiDocument } from '@sac/contract/openapi';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { deliverAll } from '../../../test/webhook-fanout.ts';
import { pruneWebhookLog } from './webhook-delivery.service.ts';

/**
 * Webhooks against a real receiver on loopback: signatures checked by the Standard Webhooks
 * reference library (an implementation independent of ours), retries on an injected clock, the
 * automatic pause, redelivery, rotation with overlap, and the address rules at subscription and
 * at delivery.
 */

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
}

let t: TestApp;
let receiver: http.Server;
let base: string;
const received: Received[] = [];
/** What the receiver answers next on a path (200 once its list is empty). */
let answers: Record<string, number[]> = {};
let superAdmin: { xtoken: string; xsign: string };

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body, path: req.url ?? '' });
      res.writeHead(answers[req.url ?? '']?.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await createTestApp();
  await t.addStaff('root@example.com', ['SuperAdmin']);
  superAdmin = await t.login('root@example.com');
}, 60_000);
afterAll(async () => {
  await t?.close();
  receiver?.close();
});
beforeEach(async () => {
  received.length = 0;
  answers = {};
  // a test that moves the clock by hours outlives its session
  superAdmin = await t.login('root@example.com');
});

async function subscribe(path: string, types: string[]) {
  const r = await t.call('webhookCreate', {
    session: superAdmin,
    body: { Url: `${base}${path}`, EventTypes: types as ['site.created'] },
  });
  expect(r.status, JSON.stringify(r.raw.json())).toBe(200);
  return { id: r.body.Data.Id, secret: r.body.Secret };
}

/** A customer with a site, made through the API: trail rows customer.create (and site.create). */
async function createCustomer() {
  const r = await t.call('createCustomer', {
    session: superAdmin,
    body: {
      firstname: 'Hook',
      lastname: 'Test',
      email: `hook-${Math.random().toString(36).slice(2)}@customer.example`,
      appname: `hook-${Math.random().toString(36).slice(2, 10)}`,
    },
  } as never);
  expect(r.status).toBe(200);
}

const onPath = (path: string) => received.filter((r) => r.path === path);

/**
 * The reference library's check of a delivery, at the time it was signed (the library refuses a
 * timestamp five minutes from its own clock, and the test's clock is not the machine's).
 */
function verify(secret: string, r: Received) {
  const headers = {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  };
  const spy = vi.spyOn(Date, 'now').mockReturnValue(Number(headers['webhook-timestamp']) * 1000);
  try {
    return new Webhook(secret).verify(r.body, headers) as { type: string; data: Record<string, unknown> };
  } finally {
    spy.mockRestore();
  }
}

/** The errors of a body against the OpenAPI document's schema of this event type (null: it conforms). */
function documentErrors(type: string, body: string) {
  const hooks = buildOpenApiDocument().webhooks as Record<
    string,
    { post: { requestBody: { content: { 'application/json': { schema: object } } } } }
  >;
  const schema = hooks[type]?.post.requestBody.content['application/json'].schema;
  if (!schema) return [`no entry ${type}`];
  const validate = new Ajv2020({ allErrors: true }).compile(schema);
  return validate(JSON.parse(body)) ? null : validate.errors;
}

describe('webhooks', () => {
  it('delivers an event committed with its change, signed as Standard Webhooks says', async () => {
    const { id, secret } = await subscribe('/signed', ['customer.created']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await createCustomer();
    await deliverAll(t.ctx);
    const got = onPath('/signed');
    expect(got).toHaveLength(1);
    const h = got[0]!.headers;
    // the reference implementation verifies id, timestamp and signature over the exact body
    const verified = verify(secret, got[0]!);
    expect(verified.type).toBe('customer.created');
    expect(verified.data.Action).toBe('customer.create');
    expect(verified.data.ActorEmail).toBe('root@example.com');
    expect(String(h['webhook-id'])).toMatch(/^evt_\d+$/);
    // the body is what the OpenAPI document's webhooks section says for its type, and no other's
    expect(documentErrors('customer.created', got[0]!.body)).toBeNull();
    expect(documentErrors('site.created', got[0]!.body)).not.toBeNull();
    // a tampered body fails the same check
    expect(() =>
      verify(secret, { ...got[0]!, body: got[0]!.body.replace('customer.create"', 'customer.delete"') }),
    ).toThrow();
    // nothing is sent twice; the log shows the delivery with its answer
    await deliverAll(t.ctx);
    expect(onPath('/signed')).toHaveLength(1);
    const log = await t.call('webhookDeliveries', { session: superAdmin, query: { id: String(id) } });
    expect(log.body.Data[0]).toMatchObject({ EventType: 'customer.created', State: 'delivered' });
    expect(log.body.Data[0]!.Attempts[0]).toMatchObject({ Code: 200, Error: null });
    // the list counts the day's outcomes as numbers
    const listed = await t.call('webhookList', { session: superAdmin });
    expect(listed.body.Data.find((s) => s.Id === id)).toMatchObject({
      Delivered24h: 1,
      Failed24h: 0,
      Pending: 0,
    });
    await t.call('webhookDelete', { session: superAdmin, body: { Id: id } });
    // the log of a subscription that is gone is a 404, on the first page and on a later one
    for (const query of [{ id: String(id) }, { id: String(id), before: '5' }]) {
      const gone = await t.callLoose('webhookDeliveries', { session: superAdmin, query });
      expect(gone.status).toBe(404);
    }
  });

  it('sends only the types subscribed to, and nothing of what came before the subscription', async () => {
    await createCustomer();
    await deliverAll(t.ctx);
    const { id } = await subscribe('/sites-only', ['site.status_changed']);
    await createCustomer();
    await deliverAll(t.ctx);
    expect(onPath('/sites-only')).toHaveLength(0);
    await t.call('webhookDelete', { session: superAdmin, body: { Id: id } });
  });

  it('retries with backoff on the clock, records every attempt, and pauses a subscription failing too long', async () => {
    const { id } = await subscribe('/failing', ['customer.created']);
    answers = { '/failing': [500, 503] };
    await createCustomer();
    await deliverAll(t.ctx);
    expect(onPath('/failing')).toHaveLength(1);
    // not due again before its backoff
    await deliverAll(t.ctx);
    expect(onPath('/failing')).toHaveLength(1);
    t.clock.advance(6_000);
    await deliverAll(t.ctx);
    expect(onPath('/failing')).toHaveLength(2);
    t.clock.advance(40_000);
    await deliverAll(t.ctx);
    expect(onPath('/failing')).toHaveLength(3);
    const log = await t.call('webhookDeliveries', { session: superAdmin, query: { id: String(id) } });
    expect(log.body.Data[0]!.State).toBe('delivered');
    expect(log.body.Data[0]!.Attempts.map((a) => a.Code)).toEqual([500, 503, 200]);
    // the same id every attempt: a receiver that keeps ids takes it once
    expect(new Set(onPath('/failing').map((r) => r.headers['webhook-id'])).size).toBe(1);

    // now it fails for good: a day of retries, then paused after WEBHOOK_PAUSE_AFTER_HOURS (24)
    answers = { '/failing': Array(100).fill(500) };
    await createCustomer();
    for (let i = 0; i < 30; i++) {
      await deliverAll(t.ctx);
      t.clock.advance(3_600_000);
    }
    superAdmin = await t.login('root@example.com');
    const list = await t.call('webhookList', { session: superAdmin });
    const sub = list.body.Data.find((s) => s.Id === id)!;
    expect(sub).toMatchObject({ State: 'paused', PausedReason: 'failing' });
    const failed = await t.call('webhookDeliveries', {
      session: superAdmin,
      query: { id: String(id), state: 'failed' },
    });
    expect(failed.body.Data).toHaveLength(1);
    const tries = failed.body.Data[0]!.Attempts;
    expect(tries.length).toBeGreaterThanOrEqual(8);
    // the gaps between attempts grow
    const gaps = tries.slice(1).map((a, i) => Date.parse(a.At) - Date.parse(tries[i]!.At));
    expect(gaps[gaps.length - 1]!).toBeGreaterThan(gaps[0]!);
    // the pause is in the trail (by the console), and its maker is told
    const trail = await t.db.query<{ actor_email: string | null; details: { reason: string } }>(
      "SELECT actor_email, details FROM activity_log WHERE action = 'webhook.pause' AND target_id = $1",
      [String(id)],
    );
    expect(trail.rows).toEqual([
      expect.objectContaining({ actor_email: null, details: expect.objectContaining({ reason: 'failing' }) }),
    ]);
    const told = await t.db.query("SELECT 1 FROM staff_notifications WHERE kind = 'webhook-paused'");
    expect(told.rows).toHaveLength(1);

    // paused: events are kept, not sent; a test still goes out; resumed, what is under a day old goes
    answers = {};
    const sentBefore = onPath('/failing').length;
    await createCustomer();
    await deliverAll(t.ctx);
    expect(onPath('/failing')).toHaveLength(sentBefore);
    const test = await t.call('webhookTest', { session: superAdmin, body: { Id: id } });
    expect(test.status).toBe(200);
    await deliverAll(t.ctx);
    expect(onPath('/failing').at(-1)!.body).toContain('"type":"webhook.test"');
    expect(documentErrors('webhook.test', onPath('/failing').at(-1)!.body)).toBeNull();
    // redelivery is refused while paused
    const refused = await t.call('webhookRedeliver', {
      session: superAdmin,
      body: { Id: id, DeliveryId: failed.body.Data[0]!.Id },
    });
    expect(refused.status).toBe(409);
    expect(refused.error.ErrorCode).toBe(1162);
  });

  it('redelivers one event with the same webhook-id, signed anew', async () => {
    const { id, secret } = await subscribe('/again', ['customer.created']);
    await createCustomer();
    await deliverAll(t.ctx);
    const log = await t.call('webhookDeliveries', { session: superAdmin, query: { id: String(id) } });
    const first = log.body.Data[0]!;
    t.clock.advance(60_000);
    const r = await t.call('webhookRedeliver', {
      session: superAdmin,
      body: { Id: id, DeliveryId: first.Id },
    });
    expect(r.status).toBe(200);
    await deliverAll(t.ctx);
    const got = onPath('/again');
    expect(got).toHaveLength(2);
    expect(got[1]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
    expect(got[1]!.body).toBe(got[0]!.body);
    expect(got[1]!.headers['webhook-timestamp']).not.toBe(got[0]!.headers['webhook-timestamp']);
    verify(secret, got[1]!);
    const after = await t.call('webhookDeliveries', { session: superAdmin, query: { id: String(id) } });
    expect(after.body.Data[0]).toMatchObject({ RedeliveryOf: first.Id, State: 'delivered' });
    // a delivery of another subscription is not this one's
    const other = await t.call('webhookRedeliver', {
      session: superAdmin,
      body: { Id: id, DeliveryId: 999_999 },
    });
    expect(other.status).toBe(404);
  });

  it('holds tests and redeliveries to WEBHOOK_MANUAL_PER_HOUR a subscription, counted atomically', async () => {
    const { id } = await subscribe('/per-hour', ['customer.created']);
    await createCustomer();
    await deliverAll(t.ctx);
    const log = await t.call('webhookDeliveries', { session: superAdmin, query: { id: String(id) } });
    const one = { Id: id, DeliveryId: log.body.Data[0]!.Id };
    // 40 at once, tests and redeliveries mixed: 30 pass, the others are refused, none queued past it
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2
          ? t.call('webhookTest', { session: superAdmin, body: { Id: id } })
          : t.call('webhookRedeliver', { session: superAdmin, body: one }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(30);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, a.error.ErrorCode])).toEqual(Array(10).fill([429, 1164]));
    // another subscription is not held by this one's count; an hour on, this one may again
    const other = await subscribe('/per-hour-other', ['customer.created']);
    expect((await t.call('webhookTest', { session: superAdmin, body: { Id: other.id } })).status).toBe(200);
    t.clock.advance(3_600_000);
    superAdmin = await t.login('root@example.com');
    expect((await t.call('webhookTest', { session: superAdmin, body: { Id: id } })).status).toBe(200);
  });

  it('rotates the secret with an overlap: both sign until it ends, then the new one alone', async () => {
    const { id, secret: old } = await subscribe('/rotate', ['customer.created']);
    const r = await t.call('webhookRotateSecret', { session: superAdmin, body: { Id: id, OverlapHours: 2 } });
    expect(r.status).toBe(200);
    const fresh = r.body.Secret;
    expect(fresh).not.toBe(old);
    await createCustomer();
    await deliverAll(t.ctx);
    const h = onPath('/rotate')[0]!;
    const sig = String(h.headers['webhook-signature']);
    expect(sig.split(' ')).toHaveLength(2);
    // a receiver with either secret accepts it
    verify(old, h);
    verify(fresh, h);
    t.clock.advance(3 * 3_600_000);
    superAdmin = await t.login('root@example.com');
    await createCustomer();
    await deliverAll(t.ctx);
    const later = onPath('/rotate')[1]!;
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
    verify(fresh, later);
    expect(() => verify(old, later)).toThrow();
  });

  it('pauses and resumes by hand, each in the trail', async () => {
    const { id } = await subscribe('/manual', ['customer.created']);
    const p = await t.call('webhookPause', { session: superAdmin, body: { Id: id } });
    expect(p.body.Data).toMatchObject({
      State: 'paused',
      PausedReason: 'manual',
      PausedBy: 'root@example.com',
    });
    expect((await t.call('webhookPause', { session: superAdmin, body: { Id: id } })).status).toBe(409);
    await createCustomer();
    await deliverAll(t.ctx);
    expect(onPath('/manual')).toHaveLength(0);
    const r = await t.call('webhookResume', { session: superAdmin, body: { Id: id } });
    expect(r.body.Data.State).toBe('active');
    await deliverAll(t.ctx);
    expect(onPath('/manual')).toHaveLength(1);
    const trail = await t.db.query<{ action: string }>(
      "SELECT action FROM activity_log WHERE target_type = 'webhook' AND target_id = $1 ORDER BY id",
      [String(id)],
    );
    expect(trail.rows.map((x) => x.action)).toEqual(['webhook.create', 'webhook.pause', 'webhook.resume']);
    // the trail (read by auditors, streamed to a SIEM) keeps the endpoint without a secret its path may hold
    const secretPath = await subscribe('/manual/T0001/B0002/s3cr3tToken?key=abc', ['customer.created']);
    const made = await t.db.query<{ details: { url: string } }>(
      "SELECT details FROM activity_log WHERE action = 'webhook.create' AND target_id = $1",
      [String(secretPath.id)],
    );
    expect(made.rows[0]!.details.url).toBe(`${base}/manual/…?…`);
    await t.call('webhookDelete', { session: superAdmin, body: { Id: secretPath.id } });
    // an event kept through a pause longer than its day of retries fails, and is not sent late
    await t.call('webhookPause', { session: superAdmin, body: { Id: id } });
    await createCustomer();
    await deliverAll(t.ctx);
    t.clock.advance(25 * 3_600_000);
    superAdmin = await t.login('root@example.com');
    await t.call('webhookResume', { session: superAdmin, body: { Id: id } });
    await deliverAll(t.ctx);
    expect(onPath('/manual')).toHaveLength(1);
    const log = await t.call('webhookDeliveries', { session: superAdmin, query: { id: String(id) } });
    expect(log.body.Data[0]).toMatchObject({ State: 'failed' });
    expect(log.body.Data[0]!.Attempts[0]!.Error).toMatch(/more than 24 hours old/);
    // ...which says nothing of the endpoint: a quiet day after, it is not paused as failing
    t.clock.advance(24 * 3_600_000 + 60_000);
    await deliverAll(t.ctx);
    superAdmin = await t.login('root@example.com');
    const after = await t.call('webhookList', { session: superAdmin });
    expect(after.body.Data.find((x) => x.Id === id)).toMatchObject({ State: 'active', FailingSince: null });
  });

  it("the hourly tidy fails a long pause's queue unsent and prunes the log past its days, pending rows ahead or not", async () => {
    const { id } = await subscribe('/tidy', ['customer.created']);
    await t.call('webhookPause', { session: superAdmin, body: { Id: id } });
    await createCustomer();
    await createCustomer();
    await deliverAll(t.ctx);
    const states = async () =>
      (
        await t.db.query<{ state: string }>(
          'SELECT state FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY id',
          [id],
        )
      ).rows.map((r) => r.state);
    expect(await states()).toEqual(['pending', 'pending']);
    // within the day of retries the queue waits for the resume
    await pruneWebhookLog(t.ctx);
    expect(await states()).toEqual(['pending', 'pending']);
    t.clock.advance(25 * 3_600_000);
    await pruneWebhookLog(t.ctx);
    expect(await states()).toEqual(['failed', 'failed']);
    expect(onPath('/tidy')).toHaveLength(0);
    superAdmin = await t.login('root@example.com');
    const listed = await t.call('webhookList', { session: superAdmin });
    expect(listed.body.Data.find((x) => x.Id === id)).toMatchObject({ State: 'paused', FailingSince: null });
    // past the log's days every row goes, however many pending rows of another subscription wait
    t.clock.advance(31 * 86_400_000);
    await pruneWebhookLog(t.ctx);
    expect(await states()).toEqual([]);
  });

  it('edits with If-Match, and refuses a stale version', async () => {
    const { id } = await subscribe('/edit', ['customer.created']);
    const list = await t.call('webhookList', { session: superAdmin });
    const v = list.body.Data.find((s) => s.Id === id)!.Version;
    const body = { Id: id, Url: `${base}/edited`, EventTypes: ['site.created' as const], Description: 'Ops' };
    const ok = await t.call('webhookUpdate', {
      session: superAdmin,
      body,
      headers: { 'if-match': `"${v}"` },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.Data).toMatchObject({
      Url: `${base}/edited`,
      EventTypes: ['site.created'],
      Description: 'Ops',
    });
    const stale = await t.call('webhookUpdate', {
      session: superAdmin,
      body,
      headers: { 'if-match': `"${v}"` },
    });
    expect(stale.status).toBe(412);
  });

  it('refuses bad input with a clear error and keeps nothing', async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const r = await t.callLoose('webhookCreate', { session: superAdmin, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.raw.json())).toContain(field);
      return r;
    };
    await bad({ Url: 'ftp://example.com/x', EventTypes: ['site.created'] }, 'https://');
    await bad({ Url: 'https://u:p@example.com/x', EventTypes: ['site.created'] }, 'user name');
    await bad({ Url: 'https://example.com/x#f', EventTypes: ['site.created'] }, 'fragment');
    await bad({ Url: `${base}/x`, EventTypes: [] }, 'at least one event type');
    await bad({ Url: `${base}/x`, EventTypes: ['site.exploded'] }, 'no such event type');
    await bad({ Url: `https://${'a'.repeat(2000)}.example/`, EventTypes: ['site.created'] }, 'at most 2000');
    const none = await t.db.query("SELECT 1 FROM webhook_subscriptions WHERE url LIKE '%/x%'");
    expect(none.rows).toHaveLength(0);
  });
});

describe('webhook addresses', () => {
  let strict: TestApp;
  let root: { xtoken: string; xsign: string };
  beforeAll(async () => {
    strict = await createTestApp({ webhooks: { ...t.config.webhooks, allowPrivate: false } });
    await strict.addStaff('strict@example.com', ['SuperAdmin']);
    root = await strict.login('strict@example.com');
  }, 60_000);
  afterAll(() => strict?.close());

  it('refuses loopback, private, link-local and metadata addresses, and plain http, unless the operator allows them', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.1.2.3/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[fd00::1]/hook',
      'https://100.64.0.1/hook',
      'http://example.com/hook',
    ]) {
      const r = await strict.callLoose('webhookCreate', {
        session: root,
        body: { Url: url, EventTypes: ['site.created'] },
      });
      expect(r.status, url).toBe(400);
      expect(r.error.ErrorCode, url).toBe(1160);
    }
  });

  it('checks the address again at delivery: an endpoint that now resolves inside is refused and logged', async () => {
    // made while private addresses were allowed (another instance, an older setting), sent now
    const made = await strict.db.query<{ id: string }>(
      `INSERT INTO webhook_subscriptions (url, event_types, secret, created_at)
       VALUES ($1, '{customer.created}', $2, now()) RETURNING id::text`,
      [`http://localhost:${new URL(base).port}/rebind`, strict.ctx.crypto.encrypt('whsec_AAAA')],
    );
    const r = await strict.call('webhookTest', { session: root, body: { Id: Number(made.rows[0]!.id) } });
    expect(r.status).toBe(200);
    await deliverAll(strict.ctx);
    expect(onPath('/rebind')).toHaveLength(0);
    const log = await strict.call('webhookDeliveries', { session: root, query: { id: made.rows[0]!.id } });
    expect(log.body.Data[0]!.Attempts[0]!.Error).toMatch(/loopback, private or link-local/);
    expect(log.body.Data[0]!.State).toBe('pending');
  });
});
