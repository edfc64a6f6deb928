/**
 * Statement budgets: every endpoint's valid call (MATRIX), as a principal it answers 2xx (the few
 * without a valid call in MATRIX: its call as the first principal not refused), runs at
 * most the statements and write commits its budget in the contract allows
 * (endpoint-budgets.ts), authentication included, and the budget is no looser than the
 * call needs (a few statements of slack, no spare commit), so that a regression fails here, by
 * count and not by time. Both engines run the same statements, so one budget holds for both.
 */
import fs from 'node:fs';
import { ENDPOINT_BUDGETS } from '@sac/contract/endpoint-budgets';
import { ENDPOINT_LIST, type EndpointId } from '@sac/contract/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';
import { type RecordedCalls, recordedCalls } from './recorded-calls.ts';

/**
 * How many statements a budget may hold above what its call runs before it counts as loose. Three:
 * on PostgreSQL each staff notification a call publishes is a pg_notify statement (PGlite's bus is
 * in process), and a customer's request notifies up to three more than on PGlite.
 */
const SLACK = 3;

let t: TestApp;
let calls: RecordedCalls;
const recorded: Record<string, { statements: number; commits: number }> = {};
beforeAll(async () => {
  t = await createTestApp();
  calls = await recordedCalls(t);
});
afterAll(async () => {
  // BUDGETS_OUT=file writes what each call ran, for retuning the budgets.
  if (process.env.BUDGETS_OUT) fs.writeFileSync(process.env.BUDGETS_OUT, JSON.stringify(recorded, null, 1));
  await t.close();
}, 180_000);

describe('statement budgets', () => {
  it.each(ENDPOINT_LIST.map((e) => [`${e.method} ${e.path}`, e.id as EndpointId] as const))(
    '%s keeps to its budget',
    async (_name, id) => {
      const budget = ENDPOINT_BUDGETS[id];
      const { expected, status, body, counts } = await calls.call(id);
      expect(status, body).toBe(expected);
      recorded[id] = { statements: counts.statements, commits: counts.commits };
      const ran = `${id} ran ${counts.statements} statements, ${counts.commits} commits`;
      expect(counts.statements, ran).toBeLessThanOrEqual(budget.statements);
      expect(counts.commits, ran).toBeLessThanOrEqual(budget.commits);
      expect(budget.statements, `${ran}: its budget is loose`).toBeLessThanOrEqual(counts.statements + SLACK);
      expect(budget.commits, `${ran}: its budget is loose`).toBeLessThanOrEqual(counts.commits);
    },
  );
});
