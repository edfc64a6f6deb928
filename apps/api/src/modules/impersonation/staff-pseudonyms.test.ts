import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../../test/harness.ts';
import type { Db } from '../../db/db.ts';
import { fieldCrypto } from '../../lib/field-crypto.ts';
import { insertStaff } from '../auth/staff.repo.ts';
import { staffLabeller } from './staff-pseudonyms.ts';

let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ db, drop } = await freshDb());
  for (const [email, roles] of [
    ['sa@example.com', ['Admin', 'SuperAdmin']],
    ['sup@example.com', ['Support']],
  ] as const)
    await insertStaff(db, {
      uid: randomUUID(),
      email,
      fullName: 'x',
      passwordHash: 'x',
      roles: [...roles],
      at: new Date(),
    });
});
afterAll(() => drop());

const key = (b: number) => fieldCrypto(Buffer.alloc(32, b));

describe('staff on the site-access page', () => {
  it('are their most senior role and a pseudonym that is stable under one key and differs under another', async () => {
    const mac = (k: ReturnType<typeof key>) => (d: string) => k.mac('site-access-staff', d);
    const emails = ['SA@example.com', 'sup@example.com', 'gone@example.com'];
    const a = await staffLabeller(db, mac(key(1)), emails, 'pseudonym');
    const b = await staffLabeller(db, mac(key(2)), emails, 'pseudonym');
    expect(a('sa@example.com')).toMatch(/^SuperAdmin [0-9A-Z]{6}$/);
    expect(a('SA@EXAMPLE.COM')).toBe(a('sa@example.com'));
    expect(a('sup@example.com')).toMatch(/^Support [0-9A-Z]{6}$/);
    expect(a('gone@example.com')).toMatch(/^Staff [0-9A-Z]{6}$/);
    expect(a('sup@example.com')).not.toBe(a('sa@example.com')?.replace('SuperAdmin', 'Support'));
    expect(b('sa@example.com')).not.toBe(a('sa@example.com'));
    expect(a(null)).toBeNull();
  });

  it('are their email when the provider configures names', async () => {
    const label = await staffLabeller(db, () => Buffer.alloc(32), ['sa@example.com'], 'email');
    expect(label('sa@example.com')).toBe('sa@example.com');
  });
});
