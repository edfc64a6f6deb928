import {
  type Compilable,
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RawBuilder,
  sql,
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

/**
 * A timestamp column as its ISO-8601 UTC text, as Date#toISOString writes it (microseconds cut to
 * milliseconds), made by the database: cheaper than a Date parsed and written back for every row.
 * `col` is the caller's fixed text (a column or alias), never a value.
 */
export const isoTextOf = (col: string): string =>
  `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
export const isoText = (col: string) => sql.raw<string>(isoTextOf(col));

interface RunOptions {
  /** Run as a named prepared statement on PostgreSQL (a hot lookup by key; see prepared()). */
  prepared?: boolean;
}

async function run<O>(q: Queryable, statement: Compilable<O>, opts?: RunOptions): Promise<O[]> {
  const c = statement.compile();
  const text = opts?.prepared ? prepared(c.sql) : c.sql;
  return (await q.query<O>(text, c.parameters as unknown[])).rows;
}

/**
 * A statement written whole in `sql`, compiled by the builder so that it runs through the runners
 * below: for what the builder cannot say (a search's ordered index walks, a batch of writes as
 * CTEs over unnest).
 */
export const statement = <T>(s: RawBuilder<T>): Compilable<T> => ({ compile: () => s.compile(qb) });

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

/**
 * A statement whose text never depends on its arguments (a lookup or a small write by key), built
 * and compiled once: a later call only puts its arguments in place, and the statement runs named
 * (see prepared()). Building and compiling with Kysely cost more than a key lookup itself. `build`
 * must use its arguments as values only, never to choose columns or clauses nor changed: the first
 * call builds it again with the real arguments and throws if the text or a parameter differs.
 */
export function preparedStatement<A extends unknown[], O>(
  build: (...args: A) => Compilable<O>,
): (...args: A) => Compilable<O> {
  let made: { query: CompiledQuery<O>; slots: Array<number | undefined> } | undefined;
  return (...args: A) => {
    if (!made) {
      const marks = args.map((_, i) => `\u0000argument ${i}\u0000`) as A;
      const query = build(...marks).compile();
      const slots = query.parameters.map((p) => {
        const i = marks.indexOf(p);
        return i >= 0 ? i : undefined;
      });
      const real = build(...args).compile();
      const placed = placeArguments(query.parameters, slots, args);
      if (real.sql !== query.sql || real.parameters.some((p, i) => !Object.is(p, placed[i])))
        throw new Error(`preparedStatement: an argument is used other than as a value in: ${query.sql}`);
      made = { query: { ...query, sql: prepared(query.sql) }, slots };
    }
    const { query, slots } = made;
    const parameters = placeArguments(query.parameters, slots, args);
    return { compile: () => ({ ...query, parameters }) };
  };
}

const placeArguments = (
  parameters: readonly unknown[],
  slots: ReadonlyArray<number | undefined>,
  args: readonly unknown[],
): unknown[] => slots.map((slot, i) => (slot === undefined ? parameters[i] : args[slot]));
