import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseTrustProxy, retiredSettingsSet } from '../src/config.ts';
import { createTestApp, PASSWORD, type TestApp } from './harness.ts';

/** The value of one sample of the Prometheus text, or undefined when it is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const want = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (want) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('liveness, readiness and metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.addStaff('ops@example.com', ['Admin']);
  });
  afterAll(() => t.close());

  it('answers /livez with the security headers, no session or ajax marker needed', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/livez' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ok' });
    expect(r.headers['content-security-policy']).toContain("default-src 'self'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('answers /readyz 200 while the database answers, 503 while starting, draining or when a query fails', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
    expect(ok.headers['x-frame-options']).toBe('DENY');

    const spy = vi.spyOn(t.ctx.db, 'query').mockRejectedValueOnce(new Error('connection refused'));
    const down = await t.app.inject({ method: 'GET', url: '/readyz' });
    spy.mockRestore();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'not ready', checks: { database: 'failed' } });

    t.ctx.ops.starting = true;
    const starting = await t.app.inject({ method: 'GET', url: '/readyz' });
    t.ctx.ops.starting = false;
    expect(starting.statusCode).toBe(503);
    expect(starting.json()).toEqual({ status: 'starting', checks: { database: 'ok' } });

    t.ctx.ops.draining = true;
    const draining = await t.app.inject({ method: 'GET', url: '/readyz' });
    t.ctx.ops.draining = false;
    expect(draining.statusCode).toBe(503);
    expect(draining.json().status).toBe('draining');
    // liveness does not follow readiness: the process is still up
    expect((await t.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
  });

  it('counts and times requests by route pattern and status, in Prometheus text', async () => {
    await t.login('ops@example.com');
    await t.call('login', { body: { email: 'ops@example.com', password: 'Wrong#123' } });
    const r = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/plain');
    expect(r.headers['content-security-policy']).toContain("default-src 'self'");
    const text = r.body;
    const login = { method: 'POST', route: '/admin/login' };
    expect(sample(text, 'sac_http_requests_total', { ...login, status_code: '200' })).toBe(1);
    expect(sample(text, 'sac_http_requests_total', { ...login, status_code: '401' })).toBe(1);
    expect(sample(text, 'sac_http_request_duration_seconds_count', { ...login, status_code: '200' })).toBe(1);
    expect(sample(text, 'sac_http_request_duration_seconds_bucket', { ...login, le: '+Inf' })).toBe(1);
    expect(sample(text, 'sac_db_queries_total', { engine: t.db.kind, outcome: 'ok' })).toBeGreaterThan(0);
    expect(sample(text, 'sac_db_query_duration_seconds_count', { engine: t.db.kind })).toBeGreaterThan(0);
    expect(sample(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    if (t.db.kind === 'postgres') {
      expect(sample(text, 'sac_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(sample(text, 'sac_db_pool_connections', { state: 'waiting' })).toBe(0);
    } else {
      expect(text).not.toContain('sac_db_pool_connections');
    }
  });

  it('never labels a request by its raw URL: ids and secrets in paths or queries stay out', async () => {
    await t.callLoose('searchCustomer', { query: { apisecret: 'secret-abc123' } });
    await t.app.inject({ method: 'GET', url: '/no/such/page-xyz' });
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).not.toContain('secret-abc123');
    expect(text).not.toContain('page-xyz');
    expect(
      sample(text, 'sac_http_requests_total', { route: '/admin/searchcustomer', status_code: '401' }),
    ).toBe(1);
  });

  it('counts server errors', async () => {
    const session = await t.login('ops@example.com');
    const spy = vi.spyOn(t.ctx.db, 'query').mockRejectedValueOnce(new Error('boom'));
    const r = await t.call('session', { session });
    spy.mockRestore();
    expect(r.status).toBe(500);
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(
      sample(text, 'sac_http_request_errors_total', { route: '/admin/session', status_code: '500' }),
    ).toBe(1);
  });

  it('without METRICS_TOKEN, serves /metrics only to a direct peer on this machine', async () => {
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(403);
    expect(remote.json().ErrorCode).toBe(902);
    expect(remote.body).not.toContain('sac_http');
    // a proxy on this machine forwarding an outside request is not a local reader
    const proxied = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.statusCode).toBe(403);
    const v6 = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' });
    expect(v6.statusCode).toBe(200);
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ metricsToken: 'scrape-token-1' });
  });
  afterAll(() => t.close());

  it('needs the bearer token, from anywhere, and loopback alone is not enough', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(403);
    expect(none.headers['www-authenticate']).toContain('Bearer');
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-token-2' },
    });
    expect(wrong.statusCode).toBe(403);
    const right = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.9',
      headers: { authorization: 'Bearer scrape-token-1' },
    });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('sac_http_requests_total');
  });
});

describe('retired settings', () => {
  it('names a setting no longer read, with what to set instead, and nothing when none is set', () => {
    expect(retiredSettingsSet({})).toEqual([]);
    expect(retiredSettingsSet({ REDIS_COMMAND_TIMEOUT_MS: '500' })).toEqual([
      'REDIS_COMMAND_TIMEOUT_MS is no longer read: STORE_CALL_BUDGET_MS bounds how long a call waits for Redis, and STORE_CHECK_TIMEOUT_MS when it is taken for gone.',
    ]);
  });
});

describe('TRUST_PROXY', () => {
  it('parses to nothing trusted by default, every peer for true, else a checked list', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('10.0.0.1, 10.1.0.0/16,::1,fd00::/8,loopback')).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy('proxy.example.com')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy('yes')).toThrow(/TRUST_PROXY/);
  });

  describe('the client address of the per-address sign-in limit', () => {
    let t: TestApp;
    const PROXY = '10.0.0.1';
    beforeAll(async () => {
      t = await createTestApp({ trustProxy: [PROXY, '10.2.0.0/16'], loginAddressDailyFailures: 2 });
      await t.addStaff('xff@example.com', ['Support']);
    });
    afterAll(() => t.close());

    const fail = (remoteAddress: string, xff?: string) =>
      t.call('login', {
        remoteAddress,
        body: { email: 'nobody@example.com', password: 'Wrong#123' },
        ...(xff ? { headers: { 'x-forwarded-for': xff } } : {}),
      });

    it('is the peer when the peer is not a configured proxy, whatever X-Forwarded-For says', async () => {
      expect((await fail('198.51.100.7', '192.0.2.1')).status).toBe(401);
      expect((await fail('198.51.100.7', '192.0.2.2')).status).toBe(401);
      // a new spoofed address each time does not buy new attempts
      const third = await fail('198.51.100.7', '192.0.2.3');
      expect(third.status).toBe(429);
      expect(third.error.ErrorCode).toBe(904);
      const rows = await t.db.query<{ address: string }>('SELECT address FROM login_failures_by_address');
      expect(rows.rows.map((r) => r.address)).toEqual(['198.51.100.7']);
    });

    it('is the forwarded client when the peer is a configured proxy (address or CIDR)', async () => {
      expect((await fail(PROXY, '192.0.2.50')).status).toBe(401);
      expect((await fail('10.2.3.4', '192.0.2.50')).status).toBe(401);
      expect((await fail(PROXY, '192.0.2.50')).status).toBe(429);
      // another client behind the same proxy is not limited, nor is the proxy itself
      expect((await fail(PROXY, '192.0.2.51')).status).toBe(401);
      const ok = await t.call('login', {
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': '192.0.2.52' },
        body: { email: 'xff@example.com', password: PASSWORD },
      });
      expect(ok.status).toBe(200);
      const audit = await t.db.query<{ client_address: string }>(
        "SELECT client_address FROM activity_log WHERE action = 'login.success'",
      );
      expect(audit.rows.map((r) => r.client_address)).toEqual(['192.0.2.52']);
    });
  });
});
