import fs from 'node:fs';
import os from 'node:os';
import type { EndpointId } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import { JSON_LIMIT_MESSAGES, PATTERN_MAX_CHARS, SAMPLE_MAX_CHARS } from '@sac/contract/json-limits';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATTERN_MAX_CHARS as ENGINE_PATTERN_MAX_CHARS } from '../src/user-input/safe-pattern.mjs';
import { UserInputSandbox } from '../src/user-input/user-input-sandbox.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { createTestApp, type TestApp } from './harness.ts';

// Users' schemas, samples and patterns: whatever they hold, the server answers at once, with a 400
// that says what is wrong, and every other caller (here: /livez) is served meanwhile.

type S = { xtoken: string; xsign: string };
let t: TestApp;
let support: S;
let uid: string;
let appId: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('support@example.com', ['Support']);
  await t.addStaff('admin@example.com', ['Admin']);
  support = await t.login('support@example.com');
  uid = await insertCustomer(t.db, { first: 'Eve', last: 'Il', email: 'eve@hostile.example' });
  appId = (await insertSite(t.db, { owner: uid, name: 'eve-site' })).appId;
});
afterAll(() => t.close());

const q = () => ({ uid, appId: String(appId) });
const call = (session: S, id: EndpointId, body: Record<string, unknown>) =>
  t.callLoose(id, { session, query: q(), body });
const validate = (Schema: unknown, Sample: string) =>
  call(support, 'customObjectValidate', {
    Schema: typeof Schema === 'string' ? Schema : JSON.stringify(Schema),
    Sample,
  });

/** Runs `slow` and, while it is in flight, /livez; answers both and whether /livez came back first. */
async function liveMeanwhile<T>(slow: Promise<T>) {
  let slowDone = false;
  const tracked = slow.then((r) => {
    slowDone = true;
    return r;
  });
  const live = await t.app.inject({ method: 'GET', url: '/livez' });
  const livezFirst = !slowDone;
  return { result: await tracked, live, livezFirst };
}

const fieldMessages = (body: { FieldErrors?: Array<{ Message: string }> }) =>
  (body.FieldErrors ?? []).map((f) => f.Message);

describe('catastrophic patterns run on a linear-time engine', () => {
  it('text PostgreSQL cannot store (a lone surrogate, a NUL) is a 400 naming the field, and nothing is written', async () => {
    const admin = await t.login('admin@example.com');
    const before = await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM customers');
    const body = await t.callLoose('createCustomer', {
      session: admin,
      body: {
        firstname: 'Ada\ud800',
        lastname: 'L',
        email: 'ada@surrogate.example',
        appname: 'surrogate-site',
      },
    });
    expect(body.status).toBe(400);
    expect(body.error.Description).toBe('Text must be valid Unicode: it holds a lone surrogate.');
    expect(body.error.FieldErrors?.[0]?.Field).toBe('firstname');
    const nul = await t.callLoose('createCustomer', {
      session: admin,
      body: {
        firstname: 'Ada\u0000',
        lastname: 'L',
        email: 'ada@surrogate.example',
        appname: 'surrogate-site',
      },
    });
    expect(nul.error.Description).toBe('Text must not contain the NUL character.');
    const after = await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM customers');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it("'^(a+)+$' against 40 a's and a '!' answers at once as a mismatch, and /livez is served meanwhile", async () => {
    // With a backtracking engine this sample takes 2^40 steps: days.
    const { result, live, livezFirst } = await liveMeanwhile(
      validate({ type: 'string', pattern: '^(a+)+$' }, JSON.stringify(`${'a'.repeat(40)}!`)),
    );
    expect(live.statusCode).toBe(200);
    expect(livezFirst).toBe(true);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      Valid: false,
      Errors: [{ Path: '/', Message: expect.stringMatching(/pattern/) }],
    });
    const ok = await validate({ type: 'string', pattern: '^(a+)+$' }, JSON.stringify('a'.repeat(40)));
    expect(ok.body).toEqual({ Valid: true, Errors: [] });
  });

  it.runIf(os.platform() === 'linux')(
    "runs below the priority of libuv's pool, where sign-ins' hashes run",
    async () => {
      await validate({ type: 'string', pattern: '^a+$' }, '"a"');
      // the sandbox's thread, as the sandbox itself reads it for its budget
      const tid = (t.ctx.sandbox as unknown as { worker?: { tid?: number } }).worker?.tid;
      expect(tid).toBeDefined();
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      expect(nice).toBeGreaterThan(t.ctx.config.helperThreadNice);
    },
  );

  it('patternProperties run on the same engine', async () => {
    const r = await validate(
      { type: 'object', patternProperties: { '^(x+x+)+y$': { type: 'number' } } },
      JSON.stringify({ [`${'x'.repeat(60)}y`]: 'text', ['x'.repeat(60)]: 1 }),
    );
    expect(r.body).toMatchObject({ Valid: false, Errors: [{ Path: `/${'x'.repeat(60)}y` }] });
  });

  it.each([
    ['a lookahead', '^(?=.*\\d).+$', 'unsupported Perl syntax'],
    ['a backreference', '^(a)\\1$', 'invalid escape'],
  ])('a schema with %s is refused when saved, saying why', async (_what, pattern, reason) => {
    const schema = JSON.stringify({ type: 'object', properties: { code: { type: 'string', pattern } } });
    const saved = await call(support, 'customObjectCreate', {
      Id: 'codes',
      Name: 'Codes',
      SizeMB: '1',
      Schema: schema,
    });
    // Support may read but not write: the Admin's save is the one refused for the pattern.
    expect(saved.status).toBe(403);
    const admin = await t.login('admin@example.com');
    const r = await call(admin, 'customObjectCreate', {
      Id: 'codes',
      Name: 'Codes',
      SizeMB: '1',
      Schema: schema,
    });
    expect(r.status).toBe(400);
    const message = fieldMessages(r.error)[0]!;
    expect(message).toContain(reason);
    expect(message).toContain('linear-time engine');
    const check = await validate(schema, '{"code":"1"}');
    expect(check.body).toMatchObject({ Valid: false, Errors: [{ Path: '(schema)' }] });
  });

  it('a data source rule is matched on the safe engine, and one it cannot run is refused', async () => {
    const admin = await t.login('admin@example.com');
    const evil = await liveMeanwhile(
      call(admin, 'addDataSource', {
        Name: 'codes',
        Rules: '^(a+)+$',
        Items: [{ Value: `${'a'.repeat(40)}!`, Text: 'Evil' }],
      }),
    );
    expect(evil.livezFirst).toBe(true);
    expect(evil.result.status).toBe(400);
    expect(fieldMessages(evil.result.error)).toEqual([
      `These items do not match the rule: ${'a'.repeat(40)}!.`,
    ]);

    const backref = await call(admin, 'addDataSource', {
      Name: 'codes',
      Rules: '^(a)\\1$',
      Items: [{ Value: 'aa', Text: 'AA' }],
    });
    expect(backref.status).toBe(400);
    expect(fieldMessages(backref.error)[0]).toContain('linear-time engine');
  });

  it("a field's custom_validation pattern must compile on the safe engine", async () => {
    const admin = await t.login('admin@example.com');
    const r = await call(admin, 'addCustomField', {
      Name: 'pin',
      Display: 'PIN',
      Type: 'string',
      Rules: 'required|custom_validation[^(?!0000)\\d{4}$###Not 0000]',
    });
    expect(r.status).toBe(400);
    expect(fieldMessages(r.error)[0]).toContain('linear-time engine');
    const defaults = await call(admin, 'saveDefaultFields', {
      Fields: [{ Name: 'FirstName', Enabled: true, Rules: 'custom_validation[(\\w)\\1###No doubles]' }],
    });
    expect(defaults.status).toBe(400);
    const fine = await call(admin, 'addCustomField', {
      Name: 'pin',
      Display: 'PIN',
      Type: 'string',
      Rules: 'required|custom_validation[^\\d{4}$###Four digits]',
    });
    expect(fine.status).toBe(200);
  });
});

describe('depth and size are bounded before anything parses', () => {
  it('the safe engine and the contract agree on the longest pattern (the engine is plain JavaScript)', () => {
    expect(ENGINE_PATTERN_MAX_CHARS).toBe(PATTERN_MAX_CHARS);
  });

  it('a sample nested 10,000 deep answers 400 saying so, not 500', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const r = await validate({ type: 'array' }, deep);
    expect(r.status).toBe(400);
    expect(fieldMessages(r.error)).toEqual([JSON_LIMIT_MESSAGES.sampleTooDeep]);
  });

  it('a deep schema answers 400 saying so, never a stack overflow', async () => {
    const n = 1000;
    const schema = `${'{"type":"object","properties":{"a":'.repeat(n)}{"type":"string"}${'}}'.repeat(n)}`;
    const r = await validate(schema, '{}');
    expect(r.status).toBe(400);
    expect(r.raw.body).not.toMatch(/call stack/i);
    expect(fieldMessages(r.error)).toEqual([JSON_LIMIT_MESSAGES.schemaTooDeep]);
  });

  it('brackets inside strings are not nesting', async () => {
    const r = await validate({ type: 'string' }, JSON.stringify('['.repeat(1000)));
    expect(r.body).toEqual({ Valid: true, Errors: [] });
  });

  it('too long a sample or schema answers 400 saying so', async () => {
    const long = await validate({ type: 'string' }, JSON.stringify('x'.repeat(SAMPLE_MAX_CHARS)));
    expect(fieldMessages(long.error)).toEqual([JSON_LIMIT_MESSAGES.sampleTooLong]);
    const schema = JSON.stringify({ type: 'string', description: 'x'.repeat(70_000) });
    const big = await validate(schema, '"x"');
    expect(fieldMessages(big.error)).toEqual([JSON_LIMIT_MESSAGES.schemaTooLong]);
  });
});

describe('the sandbox: a time budget for what no bound can price', () => {
  // uniqueItems compares every pair of items: ~9,000 distinct arrays are 40 million comparisons.
  const items = Array.from({ length: 9_000 }, (_, i) => [i]);
  const costly = {
    schema: JSON.stringify({ type: 'array', uniqueItems: true }),
    sample: JSON.stringify(items),
  };

  it('stops a check over its budget with 971, serves others meanwhile, and answers the next check', async () => {
    const sandbox = new UserInputSandbox({ budgetMs: 150, maxWaiting: 2, nice: 0 });
    try {
      const started = Date.now();
      let ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      const over = await sandbox.run('validate', costly).catch((e) => e);
      clearInterval(timer);
      expect(over).toMatchObject({ code: ERRORS.userInputTooCostly.code, status: 400 });
      expect(Date.now() - started).toBeLessThan(5_000);
      // The event loop kept turning while the worker counted.
      expect(ticks).toBeGreaterThan(3);
      expect(sandbox.stoppedTasks).toBe(1);
      await expect(sandbox.run('validate', { schema: '{"type":"number"}', sample: '1' })).resolves.toEqual({
        valid: true,
        errors: [],
      });
    } finally {
      await sandbox.close();
    }
  });

  it("counts a check's budget from when the loaded worker takes it, not from the worker's start-up", async () => {
    // Loading a worker (a thread, Ajv, the pattern engine) takes longer than this budget; a trivial
    // check on a fresh worker, first or after one was stopped, must still be answered.
    const sandbox = new UserInputSandbox({ budgetMs: 60, maxWaiting: 2, nice: 0 });
    try {
      await expect(sandbox.run('match', { pattern: 'a', values: ['a', 'b'] })).resolves.toEqual({
        unmatched: ['b'],
      });
      await expect(sandbox.run('validate', costly)).rejects.toMatchObject({
        code: ERRORS.userInputTooCostly.code,
      });
      await expect(sandbox.run('match', { pattern: 'b', values: ['a'] })).resolves.toEqual({
        unmatched: ['a'],
      });
    } finally {
      await sandbox.close();
    }
  });

  it('answers 972 at once when more checks wait than it queues', async () => {
    const sandbox = new UserInputSandbox({ budgetMs: 300, maxWaiting: 1, nice: 0 });
    try {
      const runs = [1, 2, 3].map(() => sandbox.run('validate', costly).catch((e) => e));
      const [, , third] = await Promise.all(runs);
      expect(third).toMatchObject({ code: ERRORS.checkerBusy.code, status: 503 });
    } finally {
      await sandbox.close();
    }
  });

  it('through the API: 400 with 971 and its text, within the configured budget', async () => {
    const tight = await createTestApp({ userInputBudgetMs: 100 });
    try {
      await tight.addStaff('support@example.com', ['Support']);
      const session = await tight.login('support@example.com');
      const owner = await insertCustomer(tight.db, {
        first: 'Eve',
        last: 'Il',
        email: 'eve@hostile.example',
      });
      const site = (await insertSite(tight.db, { owner, name: 'eve-site' })).appId;
      const r = await tight.call('customObjectValidate', {
        session,
        query: { uid: owner, appId: String(site) },
        body: { Schema: costly.schema, Sample: costly.sample },
      });
      expect(r.status).toBe(400);
      expect(r.error).toMatchObject({
        ErrorCode: ERRORS.userInputTooCostly.code,
        Description: ERRORS.userInputTooCostly.text,
      });
    } finally {
      await tight.close();
    }
  });
});
