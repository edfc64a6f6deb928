import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDb } from '../../../test/harness.ts';
import { authChanged, type Db, openPostgres } from '../../db/db.ts';
import { hashPassword } from '../../lib/password-hash.ts';
import { recordAccountFailure, recordAccountSuccess } from './login-throttle.ts';
import { createSession, createSignInSession, useSession } from './sessions.repo.ts';
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

describe(`sessions kept between calls (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it("are kept across other staff's sign-ins, and dropped when a change to the staff member is announced", async () => {
    const fresh = await freshDb();
    const db = fresh.db;
    try {
      await eventually(async () => db.authGeneration?.() !== undefined);
      const now = new Date();
      const staff = async (name: string) => {
        const uid = randomUUID();
        const passwordHash = await hashPassword('Secret#123');
        await insertStaff(db, {
          uid,
          email: `${uid}@example.com`,
          fullName: name,
          passwordHash,
          roles: ['Admin'],
          at: now,
        });
        return { uid, passwordHash };
      };
      const kept = await staff('Kept Session');
      const other = await staff('Signing In');
      const s = await createSession(db, { uid: kept.uid, at: now, clientAddress: null, userAgent: null });
      expect((await useSession(db, s.xtoken, s.xsign, now, policy))?.full_name).toBe('Kept Session');

      // what a sign-in writes: a wrong password, a right one, a new session; counted from once the
      // notifications of the writes above have come back (late on a loaded machine, each a change)
      let before = db.authGeneration!();
      for (let settled = false; onPostgres && !settled; ) {
        await new Promise((r) => setTimeout(r, 300));
        settled = db.authGeneration!() === before;
        before = db.authGeneration!();
      }
      await recordAccountFailure(db, other.uid, now);
      await recordAccountSuccess(db, other.uid, now);
      const signedIn = await createSignInSession(
        db,
        { uid: other.uid, at: now, clientAddress: null, userAgent: null },
        other.passwordHash,
      );
      expect(signedIn).toBeDefined();
      if (onPostgres) await new Promise((r) => setTimeout(r, 300)); // a notification would be here by now
      expect(db.authGeneration!()).toBe(before);

      await db.query('UPDATE staff SET full_name = $2 WHERE uid = $1', [kept.uid, 'Renamed']);
      authChanged(db);
      expect(db.authGeneration!()).not.toBe(before);
      expect((await useSession(db, s.xtoken, s.xsign, now, policy))?.full_name).toBe('Renamed');
    } finally {
      await fresh.drop();
    }
  });
});
