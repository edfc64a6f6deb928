import { describe, expect, inject, it } from 'vitest';
import { testDatabaseUrl } from '../../test/postgres-url.ts';
import { openPostgres } from './postgres-db.ts';

describe.skipIf(inject('testDb') !== 'postgres')('the PostgreSQL pool', () => {
  it('keeps an idle connection past node-postgres’ own ten seconds, so a pause costs no new one', async () => {
    const db = openPostgres(testDatabaseUrl(), 1);
    try {
      const backend = async () =>
        (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const before = await backend();
      await new Promise((r) => setTimeout(r, 10_500));
      expect(await backend()).toBe(before);
    } finally {
      await db.close();
    }
  }, 20_000);
});
