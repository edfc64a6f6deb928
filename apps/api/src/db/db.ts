import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { acquireDirLock } from './dir-lock.ts';

// int8 and numeric as JS numbers where they fit is what every caller here wants.
pg.types.setTypeParser(20, (v) => Number(v));

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** One SQL dialect over two engines: PGlite in a directory (or memory), or a PostgreSQL server. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; it commits when fn resolves and rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball, to start other databases from (test template). */
  dumpDataDir?(): Promise<Blob>;
}

export const PGLITE_EXTENSIONS = { pg_trgm };

export function wrapPglite(pglite: PGlite, onClose?: () => void): Db {
  return {
    kind: 'pglite',
    query: async <T>(sql: string, params?: unknown[]) => {
      const r = await pglite.query<T>(sql, params);
      return { rows: r.rows };
    },
    exec: async (sql) => {
      await pglite.exec(sql);
    },
    transaction: (fn) =>
      pglite.transaction((tx) =>
        fn({
          query: async <T>(sql: string, params?: unknown[]) => ({
            rows: (await tx.query<T>(sql, params)).rows,
          }),
          exec: async (sql) => {
            await tx.exec(sql);
          },
        }),
      ),
    dumpDataDir: () => pglite.dumpDataDir('none'),
    close: async () => {
      await pglite.close();
      onClose?.();
    },
  };
}

/** PGlite in `dir`, guarded by a lock so two processes never open one directory. */
export async function openPgliteDir(dir: string): Promise<Db> {
  fs.mkdirSync(dir, { recursive: true });
  const release = acquireDirLock(path.join(dir, '..', `${path.basename(dir)}.lock`));
  try {
    const pglite = await PGlite.create({ dataDir: dir, extensions: PGLITE_EXTENSIONS });
    return wrapPglite(pglite, release);
  } catch (e) {
    release();
    throw e;
  }
}

/** PGlite in memory, optionally starting from a dumped data directory (the test template). */
export async function openPgliteMemory(loadDataDir?: Blob): Promise<Db> {
  const pglite = await PGlite.create({
    extensions: PGLITE_EXTENSIONS,
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  return wrapPglite(pglite);
}

export function openPostgres(connectionString: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString, max });
  // An idle connection the server ends (restart, failover, DROP DATABASE … FORCE) is dropped from
  // the pool and the next query opens another; without a listener the error would crash the process.
  pool.on('error', (err) => {
    if ((err as { code?: string }).code !== '57P01')
      console.warn(`PostgreSQL connection lost: ${err.message}`);
  });
  return {
    kind: 'postgres',
    query: async <T>(sql: string, params?: unknown[]) => {
      const r = await pool.query(sql, params as unknown[]);
      return { rows: r.rows as T[] };
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn({
          query: async <T>(sql: string, params?: unknown[]) => ({
            rows: (await client.query(sql, params as unknown[])).rows as T[],
          }),
          exec: async (sql) => {
            await client.query(sql);
          },
        });
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
