import { randomUUID } from 'node:crypto';
import type { EndpointId } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import { RECOVERY_CODE_COUNT } from '@sac/contract/mfa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, totpCodeAt, totpStepOf } from '../src/lib/totp.ts';
import { type Answer, CONSOLE_ORIGIN, createTestApp, PASSWORD, type TestApp } from './harness.ts';
import { softPasskey } from './soft-authenticator.ts';

/**
 * Writes on staff accounts decide under the lock of the account they change: a role change and a
 * deletion lock the target's staff row (after the SuperAdmin role lock), a SuperAdmin's act on a
 * colleague (ending their sessions, resetting their second factors) locks the actor's row and the
 * colleague's, and a change of one's own second factors locks one's own row. Each check (the
 * colleague's roles and the cool-down they call for, the actor still a SuperAdmin, the factors
 * left) reads the rows as they are under that lock. Raced here through the HTTP app, many rounds
 * each: afterwards the trail must tell one serial order that the answers agree with. Read before
 * the lock (as they were), a promotion or demotion committing in between went unseen.
 * On PostgreSQL the calls overlap in the database; on PGlite they interleave between statements
 * (a transaction runs whole), which was enough for a read made before the transaction to be stale.
 */
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 20);
type S = { xtoken: string; xsign: string };
type R = Answer<EndpointId>;

const ok = (r: R) => r.status === 200;
/** The refusal a client sees, which must be one of the contract's errors in its own words. */
const refusal = (r: R) => {
  const b = r.error;
  const seen = { status: r.status, code: b.ErrorCode };
  const known = Object.values(ERRORS).find((e) => e.code === seen.code);
  expect(known, r.raw.body).toMatchObject({ status: seen.status });
  return seen;
};
const race = <T extends Array<() => Promise<R>>>(...calls: T) =>
  Promise.all(calls.map((c) => c())) as Promise<{ [K in keyof T]: Awaited<ReturnType<T[K]>> }>;

let t: TestApp;
let founder: S; // SuperAdmin from the start: past any cool-down
let rising: S; // SuperAdmin promoted just now: within the cool-down all through
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('founder@example.com', ['SuperAdmin']);
  const risingUid = await t.addStaff('rising@example.com', ['Admin']);
  founder = await t.login('founder@example.com');
  expect((await setRoles(founder, risingUid, ['SuperAdmin'])).status).toBe(200);
  rising = await t.login('rising@example.com');
});
afterAll(() => t.close());

function setRoles(session: S, uid: string, role: string[]) {
  return t.call('teamUpdateRoles', { session, body: { role, uid, unAssignRoles: [] } });
}
const remove = (session: S, uid: string) => t.call('teamDelete', { session, body: { role: [], uid } });
const endSessions = (session: S, uid: string) => t.call('endStaffSessions', { session, body: { uid } });
const resetFactors = (session: S, uid: string) => t.call('staffFactorsReset', { session, body: { uid } });

/** A new staff member with `roles` and a live session; their uid and email. */
async function member(roles: string[]) {
  const email = `member-${++n}@example.com`;
  const uid = await t.addStaff(email, roles);
  await t.login(email);
  return { uid, email };
}

/** The trail's rows about one staff member (as target), in the order they were written. */
async function trailOf(uid: string) {
  const r = await t.db.query<{ id: string; action: string; actor_email: string }>(
    "SELECT id, action, actor_email FROM activity_log WHERE target_type = 'staff' AND target_id = $1 ORDER BY id",
    [uid],
  );
  return r.rows.map((x) => ({ ...x, id: Number(x.id) }));
}
const idOf = (rows: Awaited<ReturnType<typeof trailOf>>, action: string, actor: string) =>
  rows.find((x) => x.action === action && x.actor_email === actor)?.id;

const COLLEAGUE_ACTS = [
  ['ending their sessions', endSessions, 'session.end'],
  ['resetting their second factors', resetFactors, 'mfa.reset'],
] as const;

describe("a SuperAdmin's act on a colleague, racing a role change of the colleague", () => {
  it.each(COLLEAGUE_ACTS)(
    'within the cool-down, %s races their promotion: done before it, or refused (948) after it',
    async (_what, act, action) => {
      for (let i = 0; i < ROUNDS; i++) {
        const { uid } = await member(['Admin']);
        const [up, acted] = await race(
          () => setRoles(founder, uid, ['SuperAdmin']),
          () => act(rising, uid),
        );
        expect(up.status, up.raw.body).toBe(200);
        const trail = await trailOf(uid);
        const promoted = idOf(trail, 'team.roles', 'founder@example.com')!;
        if (ok(acted)) {
          // Done on an Admin: the promotion came after it, never before it.
          expect(idOf(trail, action, 'rising@example.com')!).toBeLessThan(promoted);
        } else {
          expect(refusal(acted)).toEqual({ status: 403, code: ERRORS.approverCoolingDown.code });
          expect(idOf(trail, action, 'rising@example.com')).toBeUndefined();
        }
      }
    },
  );

  it.each(COLLEAGUE_ACTS)(
    '%s races the actor’s own demotion: done while they were a SuperAdmin, or refused after it',
    async (_what, act, action) => {
      for (let i = 0; i < ROUNDS; i++) {
        const deputyEmail = `deputy-${++n}@example.com`;
        const deputyUid = await t.addStaff(deputyEmail, ['SuperAdmin']);
        const deputy = await t.login(deputyEmail);
        const { uid } = await member(['Support']);
        const [down, acted] = await race(
          () => setRoles(founder, deputyUid, ['Admin']),
          () => act(deputy, uid),
        );
        expect(down.status, down.raw.body).toBe(200);
        const demoted = idOf(await trailOf(deputyUid), 'team.roles', 'founder@example.com')!;
        const done = idOf(await trailOf(uid), action, deputyEmail);
        if (ok(acted)) {
          expect(done!).toBeLessThan(demoted);
        } else {
          // Signed out by the demotion (901), or found no SuperAdmin any more under the lock (902).
          expect([ERRORS.unauthenticated.code, ERRORS.forbidden.code]).toContain(refusal(acted).code);
          expect(done).toBeUndefined();
        }
      }
    },
  );
});

describe('a role change racing the deletion of its target', () => {
  it('the change lands before the deletion, or finds no one (404)', async () => {
    await t.addStaff('second@example.com', ['SuperAdmin']);
    const second = await t.login('second@example.com');
    for (let i = 0; i < ROUNDS; i++) {
      const { uid } = await member(['Support']);
      const [changed, removed] = await race(
        () => setRoles(founder, uid, ['Auditor']),
        () => remove(second, uid),
      );
      expect(removed.status, removed.raw.body).toBe(200);
      const trail = await trailOf(uid);
      const deleted = idOf(trail, 'team.delete', 'second@example.com')!;
      if (ok(changed)) expect(idOf(trail, 'team.roles', 'founder@example.com')!).toBeLessThan(deleted);
      else {
        expect(refusal(changed)).toEqual({ status: 404, code: ERRORS.notFound.code });
        expect(idOf(trail, 'team.roles', 'founder@example.com')).toBeUndefined();
      }
      expect((await t.db.query('SELECT 1 FROM staff WHERE uid = $1', [uid])).rows).toEqual([]);
    }
  });
});

describe("one's own second factors", () => {
  it('renewing the recovery codes races removing the only factor: no codes outlive the last factor', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { uid, email } = await member(['Support']);
      const session = await t.login(email);
      const key = await t.db.query<{ id: string }>(
        `INSERT INTO staff_passkeys (uid, credential_id, public_key, name, created_at)
         VALUES ($1, $2, '\\x00', 'Key', now()) RETURNING id`,
        [uid, randomUUID()],
      );
      const [renewed, removed] = await race(
        () => t.call('recoveryCodesRenew', { session, body: { password: PASSWORD } }),
        () =>
          t.call('passkeyRemove', {
            session,
            body: { Id: Number(key.rows[0]!.id), password: PASSWORD },
          }),
      );
      expect(removed.status, removed.raw.body).toBe(200);
      if (!ok(renewed)) expect(refusal(renewed)).toEqual({ status: 409, code: ERRORS.mfaConflict.code });
      const factors = await t.call('myFactors', { session });
      expect(factors.body).toMatchObject({ Totp: null, Passkeys: [], RecoveryCodesLeft: 0 });
      const trail = await t.db.query<{ action: string }>(
        "SELECT action FROM activity_log WHERE actor_uid = $1 AND action IN ('recovery.renew', 'mfa.remove') ORDER BY id",
        [uid],
      );
      // The renewal, when it was done, came before the removal (which took the codes with it).
      expect(trail.rows.map((x) => x.action)).toEqual(
        ok(renewed) ? ['recovery.renew', 'mfa.remove'] : ['mfa.remove'],
      );
    }
  });

  it('two first factors added at once: one of them brings the recovery codes, once', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { email } = await member(['Support']);
      const session = await t.login(email);
      const headers = { origin: CONSOLE_ORIGIN };
      const totp = await t.call('totpEnrolStart', { session, headers, body: { password: PASSWORD } });
      expect(totp.status, totp.raw.body).toBe(200);
      const options = await t.call('passkeyOptions', { session, headers, body: { password: PASSWORD } });
      expect(options.status, options.raw.body).toBe(200);
      const code = totpCodeAt(base32Decode(totp.body.Secret), totpStepOf(t.clock.now()));
      const response = softPasskey().register(options.body.Options, CONSOLE_ORIGIN);
      const answers = await race(
        () => t.call('totpEnrolConfirm', { session, headers, body: { Code: code } }),
        () => t.call('passkeyAdd', { session, headers, body: { Name: 'Key', Response: response } }),
      );
      for (const r of answers) expect(r.status, r.raw.body).toBe(200);
      // Codes handed out by the one added second would replace those shown by the other.
      const handed = answers.map((r) => r.body.RecoveryCodes).filter(Boolean);
      expect(handed).toHaveLength(1);
      expect(handed[0]).toHaveLength(RECOVERY_CODE_COUNT);
      const factors = await t.call('myFactors', { session });
      expect(factors.body).toMatchObject({ RecoveryCodesLeft: RECOVERY_CODE_COUNT });
      expect(factors.body.Passkeys).toHaveLength(1);
      expect(factors.body.Totp).not.toBeNull();
    }
  });
});
