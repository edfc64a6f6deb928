import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer } from '../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { finishStart } from './start-steps.ts';

/** A step that runs until its test lets it end; `started` resolves once it runs. */
function heldStep<T>(value: T) {
  let release = () => {};
  let started = () => {};
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const run = () => {
    started();
    return new Promise<T>((resolve) => {
      release = () => resolve(value);
    });
  };
  return { run, running, release: () => release() };
}

describe('the steps of a start after listen', () => {
  let t: TestApp;
  let session: { xtoken: string; xsign: string };
  beforeAll(async () => {
    t = await createTestApp();
    await t.addStaff('support@example.com', ['Support']);
    session = await t.login('support@example.com');
    await insertCustomer(t.db, { first: 'Ada', last: 'Lovelace', email: 'ada@warm.example' });
  });
  afterAll(() => t.close());

  const readyz = async () => {
    const r = await t.app.inject({ method: 'GET', url: '/readyz' });
    return { code: r.statusCode, status: (r.json() as { status: string }).status };
  };

  it('says starting until the demo data and the warm-up are done, and answers searches meanwhile', async () => {
    const seed = heldStep('demo');
    const warmUp = heldStep({ queries: 3 });
    const done = finishStart(t.ctx.ops, { seed: seed.run, warmUp: warmUp.run });

    await seed.running;
    expect(await readyz()).toEqual({ code: 503, status: 'starting' });
    seed.release();

    // the demo data is in; the warm-up runs: still not ready for a load balancer's traffic…
    await warmUp.running;
    expect(await readyz()).toEqual({ code: 503, status: 'starting' });
    // …while the process is live and the API answers (the warm-up is only a speed-up)
    expect((await t.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    const found = await t.call('searchCustomer', { session, query: { customerName: 'Ada' } });
    expect(found.status).toBe(200);
    expect(found.body.Data[0]!.Email).toBe('ada@warm.example');

    warmUp.release();
    expect(await done).toEqual({ seeded: 'demo', warm: { queries: 3 } });
    expect(await readyz()).toEqual({ code: 200, status: 'ready' });
  });
});
