import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { addressKey, parseCspReports, recordedPerClient, stripUrl } from './csp-report.ts';

let t: TestApp;
let file: string;
beforeAll(async () => {
  t = await createTestApp();
  file = path.join(t.config.dataDir, 'csp-violations.ndjson');
});
afterAll(async () => {
  await t.close();
});

const lines = (): Array<Record<string, unknown>> =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];

const legacy = {
  'csp-report': {
    'document-uri': 'http://console.test/login?vtype=reset&vtoken=SECRET-TOKEN#frag',
    referrer: '',
    'violated-directive': 'script-src-attr',
    'effective-directive': 'script-src-attr',
    'original-policy': "script-src 'self'",
    disposition: 'enforce',
    'blocked-uri': 'inline',
    'line-number': 3,
    'column-number': 7,
    'source-file': 'http://console.test/assets/app.js?v=SECRET2',
    'status-code': 200,
    'script-sample': 'window.__xss=1',
  },
};

describe('POST /csp-report', () => {
  it('takes a legacy report, answers 204 and records it without query strings', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify(legacy),
    });
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe('');
    const [v] = lines();
    expect(v).toMatchObject({
      documentUrl: 'http://console.test/login',
      blockedUrl: 'inline',
      directive: 'script-src-attr',
      sourceFile: 'http://console.test/assets/app.js',
      line: 3,
      column: 7,
      sample: 'window.__xss=1',
      disposition: 'enforce',
    });
    expect(fs.readFileSync(file, 'utf8')).not.toContain('SECRET');
  });

  it('takes a Reporting API batch and records each CSP violation in it', async () => {
    const before = lines().length;
    const r = await t.app.inject({
      method: 'POST',
      url: '/csp-report',
      headers: { 'content-type': 'application/reports+json' },
      payload: JSON.stringify([
        {
          type: 'csp-violation',
          age: 10,
          url: 'http://console.test/customers?q=1',
          body: {
            documentURL: 'http://console.test/customers?q=1',
            blockedURL: 'https://cdn.evil.example/x.js?k=SECRET',
            effectiveDirective: 'script-src-elem',
            disposition: 'enforce',
          },
        },
        { type: 'deprecation', body: { id: 'x' } },
        {
          type: 'csp-violation',
          url: 'http://console.test/a',
          body: { blockedURL: 'data:text/html;base64,SECRET', effectiveDirective: 'img-src' },
        },
      ]),
    });
    expect(r.statusCode).toBe(204);
    const added = lines().slice(before);
    expect(added.map((v) => [v.documentUrl, v.blockedUrl, v.directive])).toEqual([
      ['http://console.test/customers', 'https://cdn.evil.example/x.js', 'script-src-elem'],
      ['http://console.test/a', 'data:', 'img-src'],
    ]);
    expect(fs.readFileSync(file, 'utf8')).not.toContain('SECRET');
  });

  it('refuses what is not a report, with the envelope', async () => {
    const before = lines().length;
    const post = (contentType: string, payload: string) =>
      t.app.inject({ method: 'POST', url: '/csp-report', headers: { 'content-type': contentType }, payload });
    const broken = await post('application/csp-report', '{"csp-report":');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().ErrorCode).toBe(900);
    expect((await post('application/csp-report', '{"hello":1}')).statusCode).toBe(400);
    expect((await post('application/reports+json', '[{"type":"csp-violation"}]')).statusCode).toBe(400);
    expect((await post('text/html', '<p>')).statusCode).toBe(415);
    const huge = await post(
      'application/csp-report',
      JSON.stringify({ 'csp-report': { ...legacy['csp-report'], 'script-sample': 'x'.repeat(70_000) } }),
    );
    expect(huge.statusCode).toBeGreaterThanOrEqual(400);
    expect(huge.statusCode).toBeLessThan(500);
    expect(lines().length).toBe(before);
    expect((await t.app.inject({ method: 'GET', url: '/csp-report' })).statusCode).toBe(404);
  });

  it('accepts the report media types on this path only', async () => {
    const r = await t.inject({
      method: 'POST',
      url: '/admin/login',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({ email: 'a@example.com', password: 'x' }),
    });
    expect(r.statusCode).toBe(415);
  });

  it('limits the reports one client address may send, before reading their bodies', async () => {
    const send = (remoteAddress: string, payload = JSON.stringify(legacy)) =>
      t.app.inject({
        method: 'POST',
        url: '/csp-report',
        headers: { 'content-type': 'application/csp-report' },
        payload,
        remoteAddress,
      });
    const answers = await Promise.all(Array.from({ length: 25 }, () => send('198.51.100.7')));
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 204)).toHaveLength(20);
    expect(codes.filter((c) => c === 429)).toHaveLength(5);
    const refused = answers.find((r) => r.statusCode === 429)!;
    expect(refused.json()).toMatchObject({ ErrorCode: 953 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // over the budget even a malformed body is refused before it is read
    expect((await send('198.51.100.7', '{"csp-report":')).statusCode).toBe(429);
    // another address is not affected; IPv6 addresses of one /64 share a budget
    expect((await send('198.51.100.8')).statusCode).toBe(204);
    const v6 = await Promise.all(
      Array.from({ length: 21 }, (_, i) => send(`2001:db8:1:2::${(i + 1).toString(16)}`)),
    );
    expect(v6.filter((r) => r.statusCode === 429)).toHaveLength(1);
    expect((await send('2001:db8:1:3::1')).statusCode).toBe(204);
  });

  it("keeps at most 50 violations of one address in the record, so one address's flood leaves room for others", async () => {
    const batch = (n: number) =>
      JSON.stringify(
        Array.from({ length: n }, (_, i) => ({
          type: 'csp-violation',
          url: `http://console.test/flood-${i}`,
          body: { effectiveDirective: 'img-src', blockedURL: 'https://flood.example/x.png' },
        })),
      );
    const flood = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/csp-report',
        headers: { 'content-type': 'application/reports+json' },
        payload,
        remoteAddress: '203.0.113.9',
      });
    for (let i = 0; i < 5; i++) expect((await flood(batch(20))).statusCode).toBe(204);
    expect(lines().filter((l) => String(l.documentUrl).includes('/flood-'))).toHaveLength(50);
    const real = await t.app.inject({
      method: 'POST',
      url: '/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify(legacy),
      remoteAddress: '192.0.2.44',
    });
    expect(real.statusCode).toBe(204);
    expect(lines().at(-1)).toMatchObject({ documentUrl: 'http://console.test/login', client: '192.0.2.44' });
  });

  it('keeps the per-address quota across a restart, counting from the record', () => {
    const counts = recordedPerClient(
      [
        JSON.stringify({ client: 'a', directive: 'x' }),
        JSON.stringify({ client: 'a', directive: 'y' }),
        'not json',
        JSON.stringify({ directive: 'no client' }),
        JSON.stringify({ client: 'b' }),
      ].join('\n'),
    );
    expect([...counts]).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });

  it('stops growing the record at 1 MiB but still answers 204', async () => {
    fs.appendFileSync(file, `${'x'.repeat(1024 * 1024)}\n`);
    const size = fs.statSync(file).size;
    const r = await t.app.inject({
      method: 'POST',
      url: '/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify(legacy),
    });
    expect(r.statusCode).toBe(204);
    expect(fs.statSync(file).size).toBe(size);
  });
});

describe('report parsing', () => {
  it('keeps only origin and path of URLs, and the scheme of data: and blob: URLs', () => {
    expect(stripUrl('https://a.example:8443/p/q?token=1#x')).toBe('https://a.example:8443/p/q');
    expect(stripUrl('data:image/png;base64,AAAA')).toBe('data:');
    expect(stripUrl('inline')).toBe('inline');
    expect(stripUrl('eval')).toBe('eval');
    expect(stripUrl(42)).toBe('');
  });

  it('keys IPv4 addresses whole and IPv6 addresses by their /64', () => {
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('2001:db8:1:2::7')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('reads no more than 20 reports of one batch', () => {
    const one = { type: 'csp-violation', url: 'http://x.test/', body: { effectiveDirective: 'img-src' } };
    expect(parseCspReports(Array.from({ length: 50 }, () => one))).toHaveLength(20);
  });
});
