/**
 * A sign-in in two writes (modules/auth/sign-in.repo.ts): one statement before the hash (the
 * account read under its row's lock, the address's count, the attempt admitted, the factors) and
 * one change after it (the account's counts, the session or the ticket, the address's count
 * taken back) with its trail row. Both take the account's row before the address's: attempts of
 * several accounts from one address, sent together, never deadlock (500), and the address's count
 * of the day ends at exactly the attempts refused as wrong (a busy one, never checked, is not).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ADDRESS = '198.51.100.23';
const signIn = async (email: string, password: string) =>
  (await t.call('login', { body: { email, password }, remoteAddress: ADDRESS })).raw;

async function addressFailures(): Promise<number> {
  const r = await t.db.query<{ failures: number }>(
    'SELECT failures FROM login_failures_by_address WHERE address = $1',
    [ADDRESS],
  );
  return r.rows[0]?.failures ?? 0;
}

describe('sign-ins of several accounts from one address, sent together', () => {
  it('never fail with a server error, and the address counts exactly the attempts refused as wrong', async () => {
    const emails = ['one@example.com', 'two@example.com', 'three@example.com'];
    for (const email of emails) await t.addStaff(email, ['Support']);
    const attempts = emails.flatMap((email) => [
      ...Array.from({ length: 8 }, () => [email, PASSWORD] as const),
      [email, 'Wrong#123'] as const,
    ]);
    attempts.push(['nobody@example.com', PASSWORD]);
    const answers = [];
    // a few rounds: the rows are taken in one order or the other only as the timing falls
    for (let round = 0; round < 4; round++)
      answers.push(...(await Promise.all(attempts.map(([email, password]) => signIn(email, password)))));
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c >= 500)).toEqual([]);
    // each answer is one the contract names: in, wrong, or busy (other attempts being checked)
    for (const c of codes) expect([200, 401, 429]).toContain(c);
    expect(codes.filter((c) => c === 200).length).toBeGreaterThanOrEqual(emails.length);
    // every 429 here is busy (984), never the address's limit
    for (const r of answers.filter((x) => x.statusCode === 429)) expect(r.json().ErrorCode).toBe(984);
    // a right password and a busy one (no password checked) take their counts back; a wrong
    // password and an unknown email keep theirs
    expect(await addressFailures()).toBe(codes.filter((c) => c === 401).length);
    // and no attempt is left in flight
    const r = await t.db.query<{ n: number }>(
      'SELECT coalesce(sum(sign_ins_in_flight), 0)::int AS n FROM staff WHERE email = ANY($1)',
      [emails],
    );
    expect(r.rows[0]!.n).toBe(0);
  });
});
