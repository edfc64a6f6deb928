import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { openPgliteDir } from '../src/db/db.ts';
import { backupEmbedded, pgliteDir, restoreEmbedded } from '../src/ops/backup.ts';
import { API_NODE } from './api-process.ts';

// The embedded database's backup; it does not involve PostgreSQL, so it runs in the PGlite leg.
describe.runIf(inject('testDb') === 'pglite')('backing up the embedded data directory', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-backup-test-'));
  const live = path.join(root, 'live');
  const restored = path.join(root, 'restored');
  const file = path.join(root, 'backup.tar.gz');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('copies the database to one file while no server holds it, and restores it elsewhere', async () => {
    const db = await openPgliteDir(pgliteDir(live));
    await db.exec(
      "CREATE TABLE probe (key text PRIMARY KEY, value text); INSERT INTO probe VALUES ('backup-probe', 'kept')",
    );
    // a server holds the directory: the backup is refused rather than copy a moving database
    await expect(backupEmbedded(live, file)).rejects.toThrow(/in use by another process/);
    await db.close();

    // the command line, as docs/operations.md tells
    const out = execFileSync(API_NODE, ['apps/api/src/ops/backup-cli.ts', 'backup', file], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: live },
      encoding: 'utf8',
    });
    expect(out).toContain('Backed up');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    await restoreEmbedded(file, restored);
    const copy = await openPgliteDir(pgliteDir(restored));
    const r = await copy.query<{ value: string }>("SELECT value FROM probe WHERE key = 'backup-probe'");
    expect(r.rows).toEqual([{ value: 'kept' }]);
    await copy.close();
    // a restore never overwrites a database
    await expect(restoreEmbedded(file, restored)).rejects.toThrow(/not empty/);
    // three embedded databases opened and a process started: 14 s alone, far more beside the suite
  }, 120_000);
});
