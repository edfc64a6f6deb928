import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, fakeConsoleBuild, type TestApp } from '../../test/harness.ts';
import { COMPRESS_MIN_BYTES } from './compression.ts';

let t: TestApp;
let web: ReturnType<typeof fakeConsoleBuild>;
// A console build as apps/web/scripts/precompress.mjs leaves it: each file with its .br and .gz.
const script = `export const words = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `word-${i % 50}`))};`;
const page = `<!doctype html><title>console</title>${'<link rel="modulepreload" href="/assets/x.js">'.repeat(40)}`;
beforeAll(async () => {
  web = fakeConsoleBuild();
  const write = (rel: string, body: string) => {
    const file = path.join(web.dir, rel);
    fs.writeFileSync(file, body);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body));
  };
  write('index.html', page);
  write('assets/index-abc123.js', script);
  t = await createTestApp({ webDistDir: web.dir });
});
afterAll(async () => {
  await t.close();
  web.remove();
});

const get = (url: string, encoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('the console is sent as it was compressed at build time', () => {
  it.each([
    ['br', zlib.brotliDecompressSync],
    ['gzip', zlib.gunzipSync],
  ] as const)('a hashed asset, %s, cached for good', async (encoding, decompress) => {
    const r = await get('/assets/index-abc123.js', `${encoding}`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe(encoding);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.headers.vary).toMatch(/accept-encoding/i);
    expect(r.rawPayload.length).toBeLessThan(script.length / 4);
    expect(decompress(r.rawPayload).toString()).toBe(script);
  });

  it('prefers brotli, and sends the file as it is to a client that accepts neither', async () => {
    expect((await get('/assets/index-abc123.js', 'gzip, deflate, br')).headers['content-encoding']).toBe(
      'br',
    );
    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('sends the page of every console route compressed, never cached without asking', async () => {
    for (const url of ['/', '/login', '/manage-customer/search-customer']) {
      const r = await get(url, 'br');
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-encoding']).toBe('br');
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(zlib.brotliDecompressSync(r.rawPayload).toString()).toBe(page);
    }
  });
});

describe('answers are compressed on the fly above a threshold', () => {
  it('compresses a large JSON answer for a client that accepts it', async () => {
    const r = await get('/docs/openapi.json', 'br');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    const json = zlib.brotliDecompressSync(r.rawPayload).toString();
    expect(JSON.parse(json)).toHaveProperty('openapi');
    expect(r.rawPayload.length).toBeLessThan(json.length / 5);
    const gz = await get('/docs/openapi.json', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toHaveProperty('openapi');
  });

  it(`leaves answers under ${COMPRESS_MIN_BYTES} bytes, and clients that accept nothing, alone`, async () => {
    const small = await get('/livez', 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toBeTruthy();
    const plain = await get('/docs/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toHaveProperty('openapi');
  });
});
