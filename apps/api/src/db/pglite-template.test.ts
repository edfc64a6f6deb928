import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { openPgliteDir } from './db.ts';
import { loadMigrations, migrate } from './migrate.ts';
import { ensurePgliteTemplate, existingPgliteTemplate, pgliteTemplateDir } from './pglite-template.ts';
import { pgliteTemplateName, pgliteVersion } from './pglite-template-key.mjs';

// PGlite only: the PostgreSQL leg of the suite would just run the same initdb again.
describe.skipIf(inject('testDb') === 'postgres')(
  'the PGlite template (a migrated cluster new data directories are copied from)',
  () => {
    it('is named after the PGlite version and the migration files', () => {
      const name = pgliteTemplateName();
      expect(name).toMatch(new RegExp(`^pglite-${pgliteVersion().replace(/\./g, '\\.')}-[0-9a-f]{16}$`));
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-migrations-'));
      try {
        for (const m of loadMigrations()) {
          fs.writeFileSync(path.join(dir, `${String(m.version).padStart(4, '0')}-${m.name}.sql`), m.sql);
        }
        expect(pgliteTemplateName(dir)).toBe(name);
        fs.appendFileSync(path.join(dir, fs.readdirSync(dir).sort().at(-1)!), '\n-- changed\n');
        expect(pgliteTemplateName(dir)).not.toBe(name);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('is made once; an empty data directory then starts migrated from it, an existing one is left alone', async () => {
      const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-template-'));
      try {
        expect(existingPgliteTemplate(cache)).toBeUndefined();
        fs.mkdirSync(path.join(cache, 'pglite-0.0.0-stale'));
        const made = await ensurePgliteTemplate(cache);
        expect(made).toEqual({ dir: pgliteTemplateDir(cache), made: true });
        expect(existingPgliteTemplate(cache)).toBe(made.dir);
        expect(fs.readdirSync(cache)).toEqual([path.basename(made.dir)]); // the stale one is gone
        expect(await ensurePgliteTemplate(cache)).toEqual({ dir: made.dir, made: false });

        const dataDir = path.join(cache, 'data', 'pglite');
        const db = await openPgliteDir(dataDir, { template: () => existingPgliteTemplate(cache) });
        try {
          expect(db.fromTemplate).toBe(true);
          expect(await migrate(db)).toEqual([]); // already migrated
          await db.query("INSERT INTO app_meta (key, value) VALUES ('mine', '1')");
        } finally {
          await db.close();
        }
        // The template itself is untouched, and reopening the directory keeps its data.
        const reopened = await openPgliteDir(dataDir, { template: () => existingPgliteTemplate(cache) });
        try {
          expect(reopened.fromTemplate).toBe(false);
          const r = await reopened.query("SELECT value FROM app_meta WHERE key = 'mine'");
          expect(r.rows).toEqual([{ value: '1' }]);
        } finally {
          await reopened.close();
        }
        const tpl = await openPgliteDir(path.join(cache, 'copy'), { template: () => made.dir });
        try {
          expect((await tpl.query("SELECT 1 FROM app_meta WHERE key = 'mine'")).rows).toEqual([]);
        } finally {
          await tpl.close();
        }
      } finally {
        fs.rmSync(cache, { recursive: true, force: true });
      }
    }, 120_000);
  },
);
