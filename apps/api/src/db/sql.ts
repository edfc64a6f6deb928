import {
  type Compilable,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import { prepared, type Queryable } from './db.ts';
import type { DB } from './schema.generated.ts';

/**
 * Statements typed by the schema (schema.generated.ts): Kysely as a statement builder only. It
 * compiles a statement to SQL text and parameters, and the project's own handles run it (PGlite or
 * the pool, a transaction of the write path, the statement log), so a renamed or dropped column
 * fails the typecheck while nothing about how statements run changes. `sql` from 'kysely' writes
 * what the builder has no words for, inside a typed statement.
 */
export const qb = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

interface RunOptions {
  /** Run as a named prepared statement on PostgreSQL (a hot lookup by key; see prepared()). */
  prepared?: boolean;
}

async function run<O>(q: Queryable, statement: Compilable<O>, opts?: RunOptions): Promise<O[]> {
  const c = statement.compile();
  const text = opts?.prepared ? prepared(c.sql) : c.sql;
  return (await q.query<O>(text, c.parameters as unknown[])).rows;
}

/** Every row the statement answers, typed by its select list (or RETURNING). */
export function rows<O>(q: Queryable, statement: Compilable<O>, opts?: RunOptions): Promise<O[]> {
  return run(q, statement, opts);
}

/** The first row the statement answers, or undefined. */
export async function firstRow<O>(
  q: Queryable,
  statement: Compilable<O>,
  opts?: RunOptions,
): Promise<O | undefined> {
  return (await run(q, statement, opts))[0];
}

/** Runs a statement whose rows nobody reads (a write without RETURNING). */
export async function execute(
  q: Queryable,
  statement: Compilable<unknown>,
  opts?: RunOptions,
): Promise<void> {
  await run(q, statement, opts);
}
