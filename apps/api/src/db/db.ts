import type { StoreCircuit } from '../lib/store-circuit.ts';

export { prepared } from './connection-common.ts';
export { openPgliteDir, openPgliteMemory, PGLITE_EXTENSIONS, wrapPglite } from './pglite-db.ts';
export { openPostgres, POOL_WAIT_MS, SNAPSHOT_IDLE_LIMIT } from './postgres-db.ts';

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** See authChanged(): the last statement changed what a kept session holds. */
  authChanged?(): void;
  /** See afterCommit(). */
  afterCommit?(fn: () => void): void;
}

/** One SQL dialect over two engines: PGlite in a directory (or memory), or a PostgreSQL server. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; it commits when fn resolves and rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PGlite only: true when this open made the directory as a copy of the migrated template. */
  readonly fromTemplate?: boolean;
  /** PGlite only: the data directory as a tarball, to start other databases from (test template). */
  dumpDataDir?(): Promise<Blob>;
  /**
   * A number that changes after every write that can end a session or change what it may do
   * (sessions, staff, roles): what was read under an unchanged number is still true. PGlite
   * belongs to this one process, which sees every such write. On PostgreSQL, other instances'
   * writes arrive as notifications (migration 0020); undefined while that channel is down, and
   * then nothing may be kept.
   */
  authGeneration?(): number | undefined;
  /**
   * PostgreSQL only: a connection of its own in a REPEATABLE READ READ ONLY transaction, held until
   * `end`, so that every statement through it reads the database as of its first one.
   */
  readSnapshot?(): Promise<Snapshot>;
  /**
   * Calls `fn` after each commit that notified `channel` (pg_notify, from a trigger: migration
   * 0071), whichever instance committed it, and whenever notifications may have been missed (the
   * listening connection made again); answers the unsubscribe. PostgreSQL: on the connection that
   * listens for auth changes; PGlite: in this process, the only one writing to it.
   */
  onNotification?(channel: string, fn: () => void): () => void;
  /** PostgreSQL only: where it is, for a connection of one's own (LISTEN). */
  readonly connectionString?: string;
  /** PostgreSQL only: the connection pool's connections (for /metrics). */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /** PostgreSQL only: open while the server is unreachable (/readyz reports it). */
  readonly circuit?: StoreCircuit;
}

/** Statements that read one state of the database; `end` (idempotent) gives the connection back. */
export interface Snapshot {
  q: Queryable;
  end(): void;
}

/**
 * A reader for a read spread over many statements (an export in batches) that must not list a row
 * twice or miss one when rows change between its statements: a snapshot on PostgreSQL. PGlite has
 * one connection, which every request shares: a transaction held open on it would stop them all
 * while a client reads slowly, so there the statements read the database as it is at each one.
 */
export async function consistentReader(db: Db): Promise<Snapshot> {
  if (db.readSnapshot) return db.readSnapshot();
  return { q: db, end: () => {} };
}

/**
 * Tells the database handle that the statement just run changed what a kept session holds (a
 * session ended, a staff member's roles, name or existence, a role's permissions): sessions read
 * before it are read again. The code that writes such a change calls this right after the write;
 * inside a transaction it counts at once and again at the commit, since a read between the write
 * and the commit saw the old rows. Other instances learn of it from the database (migration 0020).
 */
export function authChanged(q: Queryable): void {
  q.authChanged?.();
}

/**
 * Runs `fn` once what was just written is committed: at once outside a transaction, after the
 * commit inside one (never when it rolls back). For telling others of a write (the staff
 * notifications' bus): they must not look before the write is there to see.
 */
export function afterCommit(q: Queryable, fn: () => void): void {
  if (q.afterCommit) q.afterCommit(fn);
  else fn();
}
/** `q`, calling `sent` before each statement sent through query(): what a piece of work costs in statements. */
export function countingStatements(q: Queryable, sent: () => void): Queryable {
  return {
    query: ((sql: string, params?: unknown[]) => {
      sent();
      return q.query(sql, params);
    }) as Queryable['query'],
    exec: (sql) => q.exec(sql),
  };
}

/** Whether a write failed on a unique index (PostgreSQL 23505), optionally a named one. */
export function isUniqueViolation(e: unknown, constraint?: string): boolean {
  if ((e as { code?: string }).code !== '23505') return false;
  if (constraint === undefined) return true;
  return String((e as { constraint?: string }).constraint ?? (e as Error).message).includes(constraint);
}
