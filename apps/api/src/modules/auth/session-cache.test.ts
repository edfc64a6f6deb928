import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDb } from '../../../test/harness.ts';
import { type Db, openPostgres } from '../../db/db.ts';
import { hashPassword } from './password-hash.ts';
import { createSession, useSession } from './sessions.repo.ts';
import { insertStaff } from './staff.repo.ts';

// Two instances on one PostgreSQL database: each keeps live sessions between calls, and a write
// made through the other must reach it (migration 0020's notifications).
const onPostgres = inject('testDb') === 'postgres';
const policy = { idleMs: 15 * 60_000, absoluteMs: 12 * 3_600_000 };

let a: Db;
let b: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  if (!onPostgres) return;
  const fresh = await freshDb();
  a = fresh.db;
  b = openPostgres(fresh.url!, 2);
  drop = async () => {
    await b.close();
    await fresh.drop();
  };
});
afterAll(() => drop?.());

/** Polls until `check` holds: the notification crosses a connection after the other commit. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('never happened');
}

describe.runIf(onPostgres)('sessions kept between calls, two instances', () => {
  it('an instance refuses a session that the other instance ended, and sees a role change made there', async () => {
    await eventually(async () => a.authGeneration?.() !== undefined && b.authGeneration?.() !== undefined);
    const uid = randomUUID();
    const now = new Date();
    await insertStaff(a, {
      uid,
      email: `${uid}@example.com`,
      fullName: 'Cache Test',
      passwordHash: await hashPassword('Secret#123'),
      roles: ['Admin'],
      at: now,
    });
    const s = await createSession(a, { uid, at: now, clientAddress: null, userAgent: null });
    expect((await useSession(a, s.xtoken, s.xsign, now, policy))?.roles).toEqual(['Admin']);
    expect((await useSession(a, s.xtoken, s.xsign, now, policy))?.roles).toEqual(['Admin']);

    await b.query('UPDATE staff_roles SET role = $2 WHERE uid = $1', [uid, 'Support']);
    await eventually(
      async () => (await useSession(a, s.xtoken, s.xsign, now, policy))?.roles[0] === 'Support',
    );

    await b.query("UPDATE staff_sessions SET revoked_at = now(), revoked_reason = 'test' WHERE uid = $1", [
      uid,
    ]);
    await eventually(async () => (await useSession(a, s.xtoken, s.xsign, now, policy)) === undefined);
  });
});
