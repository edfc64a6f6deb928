import { PREVIEW_MAX_ITERATIONS, previewIterationsMessage } from '@sac/contract/encryption-settings';
import { ERRORS } from '@sac/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordHashesStarted } from '../src/lib/password-hash.ts';
import { forgotPassword } from '../src/modules/auth/auth.service.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { CONSOLE_ORIGIN, createTestApp, PASSWORD, type TestApp } from './harness.ts';

// Expensive work is admitted only after the cheap checks, and what a caller may ask of the
// hashing preview is bounded: anonymous and read-only callers cannot starve sign-ins.

type S = { xtoken: string; xsign: string };
let t: TestApp;
let support: S;
let uid: string;
let appId: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('support@example.com', ['Support']);
  support = await t.login('support@example.com');
  uid = await insertCustomer(t.db, { first: 'Pat', last: 'Kdf', email: 'pat@preview.example' });
  appId = (await insertSite(t.db, { owner: uid, name: 'pat-site' })).appId;
});
afterAll(() => t.close());

describe('reset password', () => {
  it('40 bogus tokens at once hash no password, answer 905, and a sign-in meanwhile succeeds', async () => {
    const before = passwordHashesStarted();
    const resets = Array.from({ length: 40 }, (_, i) =>
      t.call('resetPassword', {
        body: { password: 'Brand#New1', resettoken: `bogus-${i}` },
      }),
    );
    const signIn = t.call('login', {
      body: { email: 'support@example.com', password: PASSWORD },
    });
    const answers = await Promise.all(resets);
    expect(new Set(answers.map((r) => r.error.ErrorCode))).toEqual(new Set([ERRORS.invalidResetToken.code]));
    expect((await signIn).status).toBe(200);
    expect(passwordHashesStarted()).toBe(before);
  });
});

describe('forgot password', () => {
  /** Database statements run so far, read synchronously (prom-client keeps a counter's values in hashMap). */
  const statements = () =>
    Object.values(
      (t.ctx.metrics.dbQueries as unknown as { hashMap: Record<string, { value: number }> }).hashMap,
    )
      .map((v) => v.value)
      .reduce((a, b) => a + b, 0);

  it('does the same work before answering for a known and an unknown email; the mail follows the answer', async () => {
    const caller = { session: undefined, clientAddress: '192.0.2.80', userAgent: null };
    const url = `${CONSOLE_ORIGIN}/login`;
    const cost = async (email: string) => {
      const before = statements();
      const answer = await forgotPassword(t.ctx, caller, { email, url });
      return { answer, statements: statements() - before };
    };
    const unknown = await cost('nobody-here@example.com');
    const known = await cost('support@example.com');
    expect(known).toEqual(unknown);
    await t.ctx.mailer.flush();
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('support@example.com') && m.subject.includes('Reset'),
    );
    expect(mail.text).toContain(`${CONSOLE_ORIGIN}/login?vtype=`);
  });
});

describe('hashing preview', () => {
  const preview = (EncryptionType: string, Iterations: number) =>
    t.callLoose('encryptionPreview', {
      session: support,
      query: { uid, appId: String(appId) },
      body: {
        data: { EncryptionType, HashEncoding: 'hex', SaltEncoding: 'utf8', Salt: 'pepper', Iterations },
        Sample: 'Secret#1',
      },
    });

  it('refuses more PBKDF2 iterations than its cap, at once, saying so under Iterations', async () => {
    const r = await preview('PBKDF2-SHA512', 10_000_000);
    expect(r.status).toBe(400);
    expect(r.error.FieldErrors).toContainEqual({
      Field: 'data.Iterations',
      Message: previewIterationsMessage('PBKDF2-SHA512'),
    });
  });

  it('computes a preview at the cap', async () => {
    const r = await preview('PBKDF2-SHA256', PREVIEW_MAX_ITERATIONS['PBKDF2-SHA256']);
    expect(r.status).toBe(200);
    expect(r.body.Data.Stored).toMatch(/^[0-9a-f]{64}$/);
  });

  it('runs one preview at a time with two waiting: more at once answer 973 at once; a sign-in meanwhile succeeds', async () => {
    // The order the answers come in: the two beyond the queue are refused before any preview ends.
    const order: number[] = [];
    const all = Array.from({ length: 5 }, () =>
      preview('PBKDF2-SHA512', PREVIEW_MAX_ITERATIONS['PBKDF2-SHA512']).then((r) => {
        order.push(r.status);
        return r;
      }),
    );
    const signIn = await t.call('login', {
      body: { email: 'support@example.com', password: PASSWORD },
    });
    expect(signIn.status).toBe(200);
    const answers = await Promise.all(all);
    // The three admitted run one at a time below the sign-ins' priority, each within its budget of
    // CPU however busy the host (its wall time may run longer).
    expect(order).toEqual([503, 503, 200, 200, 200]);
    for (const busy of answers.filter((r) => r.status === 503)) {
      expect(busy.error.ErrorCode).toBe(ERRORS.previewBusy.code);
      expect(busy.headers['retry-after']).toBe('1');
    }
  });

  it('while the queue is full, refuses a preview before it looks anything up', async () => {
    const ask = () =>
      t.callLoose('encryptionPreview', {
        session: support,
        query: { uid, appId: String(appId + 1_000_000) },
        body: {
          data: {
            EncryptionType: 'PBKDF2-SHA512',
            HashEncoding: 'hex',
            SaltEncoding: 'utf8',
            Salt: 'pepper',
            Iterations: 1000,
          },
          Sample: 'Secret#1',
        },
      });
    const admitted = Array.from({ length: 3 }, () =>
      preview('PBKDF2-SHA512', PREVIEW_MAX_ITERATIONS['PBKDF2-SHA512']),
    );
    let done = false;
    const all = Promise.all(admitted).finally(() => {
      done = true;
    });
    // a site that does not exist, asked until the three are in (one running, two waiting): then
    // refused as busy, so its lookup never ran (before that it is refused as a missing site)
    let refused = await ask();
    while (refused.status !== 503 && !done) {
      await new Promise((r) => setTimeout(r, 10));
      refused = await ask();
    }
    expect(refused.status).toBe(503);
    expect(refused.error.ErrorCode).toBe(ERRORS.previewBusy.code);
    expect((await all).map((r) => r.status)).toEqual([200, 200, 200]);
  });
});
