import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSigningSecret, signatureHeader } from '../webhooks/webhook-signing.ts';
import { VERIFY_SNIPPET } from './webhooks-page.ts';

/**
 * The snippet the webhooks page shows, run as it is (written to a module file and imported): it
 * accepts deliveries signed by the API's own signing code and by the Standard Webhooks reference
 * library, and refuses a tampered body, a wrong secret and a timestamp too far from now.
 */

type Verify = (rawBody: string | Buffer, headers: Record<string, string>, secret: string) => unknown;
let verifyWebhook: Verify;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-webhook-snippet-'));
  const file = path.join(dir, 'verify.mjs');
  fs.writeFileSync(file, VERIFY_SNIPPET);
  ({ verifyWebhook } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
    verifyWebhook: Verify;
  });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const body = JSON.stringify({
  type: 'site.created',
  timestamp: '2026-01-15T09:30:00.000Z',
  data: { Id: '4711', Action: 'site.create', Details: { name: 'Café ✓' } },
});
const now = () => Math.floor(Date.now() / 1000);

/** A delivery's headers, signed by the API's code with these secrets. */
function signedByApi(secrets: string[], timestamp = now(), raw = body) {
  return {
    'webhook-id': 'evt_4711',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, 'evt_4711', timestamp, raw),
  };
}

/** The same, signed by the reference library. */
function signedByLibrary(secret: string, at = new Date()) {
  return {
    'webhook-id': 'evt_4711',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign('evt_4711', at, body),
  };
}

describe('the verification snippet of /docs/webhooks', () => {
  const secret = newSigningSecret();

  it("accepts a delivery signed by the API's signing code, as a string or a Buffer", () => {
    expect(verifyWebhook(body, signedByApi([secret]), secret)).toEqual(JSON.parse(body));
    expect(verifyWebhook(Buffer.from(body), signedByApi([secret]), secret)).toEqual(JSON.parse(body));
  });

  it('accepts a delivery signed by the Standard Webhooks reference library', () => {
    expect(verifyWebhook(body, signedByLibrary(secret), secret)).toEqual(JSON.parse(body));
    // and the library accepts what the API signs, so the two agree
    expect(new Webhook(secret).verify(body, signedByApi([secret]))).toEqual(JSON.parse(body));
  });

  it("accepts either secret during a rotation's overlap (two signatures)", () => {
    const old = newSigningSecret();
    const headers = signedByApi([secret, old]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWebhook(body, headers, secret)).toEqual(JSON.parse(body));
    expect(verifyWebhook(body, headers, old)).toEqual(JSON.parse(body));
  });

  it('refuses a tampered body', () => {
    const tampered = body.replace('site.create"', 'site.delete"');
    expect(() => verifyWebhook(tampered, signedByApi([secret]), secret)).toThrow(/No webhook signature/);
    expect(() => verifyWebhook(tampered, signedByLibrary(secret), secret)).toThrow(/No webhook signature/);
  });

  it('refuses a wrong secret', () => {
    const other = newSigningSecret();
    expect(() => verifyWebhook(body, signedByApi([secret]), other)).toThrow(/No webhook signature/);
    expect(() => verifyWebhook(body, signedByLibrary(secret), other)).toThrow(/No webhook signature/);
  });

  it('refuses a timestamp more than 5 minutes from now, either way, even when well signed', () => {
    expect(() => verifyWebhook(body, signedByApi([secret], now() - 301), secret)).toThrow(/too far/);
    expect(() => verifyWebhook(body, signedByApi([secret], now() + 301), secret)).toThrow(/too far/);
    const old = new Date(Date.now() - 10 * 60_000);
    expect(() => verifyWebhook(body, signedByLibrary(secret, old), secret)).toThrow(/too far/);
    expect(verifyWebhook(body, signedByApi([secret], now() - 240), secret)).toEqual(JSON.parse(body));
  });

  it('refuses missing headers, another id, and signatures of another version', () => {
    const headers = signedByApi([secret]);
    expect(() => verifyWebhook(body, { ...headers, 'webhook-signature': '' }, secret)).toThrow();
    const { 'webhook-id': _id, ...noId } = headers;
    expect(() => verifyWebhook(body, noId as never, secret)).toThrow(/missing/);
    expect(() => verifyWebhook(body, { ...headers, 'webhook-id': 'evt_4712' }, secret)).toThrow();
    const v2 = headers['webhook-signature'].replace('v1,', 'v2,');
    expect(() => verifyWebhook(body, { ...headers, 'webhook-signature': v2 }, secret)).toThrow();
  });
});
