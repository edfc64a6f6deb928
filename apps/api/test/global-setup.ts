import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPgliteMemory, openPostgres } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { testDatabaseUrl, withDatabase } from './postgres-url.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testDb: 'pglite' | 'postgres';
    pgliteTemplate: string;
    pgTemplate: string;
    pgUrl: string;
  }
}

/**
 * Migrates once into a template; every test file then starts from a copy of it (PGlite: the
 * dumped data directory; PostgreSQL: CREATE DATABASE … TEMPLATE), which costs milliseconds.
 *
 * @public vitest loads this default export by path (globalSetup in vitest.config.ts).
 */
export default async function setup(project: TestProject) {
  const kind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  project.provide('testDb', kind);
  if (kind === 'pglite') {
    const db = await openPgliteMemory();
    await migrate(db);
    const file = path.join(os.tmpdir(), `sac-pglite-template-${process.pid}.tar`);
    const blob = await db.dumpDataDir!();
    fs.writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
    await db.close();
    project.provide('pgliteTemplate', file);
    project.provide('pgTemplate', '');
    project.provide('pgUrl', '');
    return () => fs.rmSync(file, { force: true });
  }
  const url = testDatabaseUrl();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const template = `sac_tpl_${process.pid}`;
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const db = openPostgres(withDatabase(url, template), 1);
  await migrate(db);
  await db.close();
  project.provide('pgliteTemplate', '');
  project.provide('pgTemplate', template);
  project.provide('pgUrl', url);
  return async () => {
    const left = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $2 OR datname = $1',
      [template, `sac\\_t\\_${process.pid}\\_%`],
    );
    for (const r of left.rows) await admin.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`);
    await admin.end();
  };
}
