import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import {
  isStoreUnavailable,
  STORE_TIMEOUTS,
  StoreCircuit,
  type StoreTimeouts,
  within,
} from '../lib/store-circuit.ts';
import { acquireDirLock } from './dir-lock.ts';
import { statementHook, type TxMark } from './statement-log.ts';

// int8 and numeric as JS numbers where they fit is what every caller here wants.
pg.types.setTypeParser(20, (v) => Number(v));

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
 * How long a snapshot may wait between two statements (for a client reading its export slowly)
 * before PostgreSQL ends it: a stalled download does not hold a connection, and the old row
 * versions it sees, for ever.
 */
export const SNAPSHOT_IDLE_LIMIT = '5min';

export const PGLITE_EXTENSIONS = { pg_trgm };

const PREPARED = new Map<string, string>();
/**
 * Marks a hot statement whose plan does not depend on its parameters (a lookup by key): on
 * PostgreSQL it runs as a named prepared statement, parsed and planned once per connection
 * instead of on every call. Search statements stay unnamed: their best plan depends on the term.
 */
export function prepared(sql: string): string {
  if (!PREPARED.has(sql)) PREPARED.set(sql, `sac_${PREPARED.size + 1}`);
  return sql;
}

/** node-postgres' query config: named when the statement was marked prepared and has parameters. */
const pgQuery = (sql: string, params?: unknown[]) => {
  const name = params?.length ? PREPARED.get(sql) : undefined;
  return name ? { name, text: sql, values: params } : { text: sql, values: params };
};

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

/** `q` with authChanged() counting through `bump`; `touched` tells a transaction to count again at commit. */
function countingAuthChanges(
  q: Queryable,
  bump: () => void,
  committed?: Array<() => void>,
): Queryable & { readonly touched: boolean } {
  let touched = false;
  return {
    afterCommit: (fn) => {
      if (committed) committed.push(fn);
      else fn();
    },
    get touched() {
      return touched;
    },
    query: (sql, params) => q.query(sql, params),
    // A script (a migration) may change anything.
    exec: async (sql) => {
      try {
        await q.exec(sql);
      } finally {
        touched = true;
        bump();
      }
    },
    authChanged: () => {
      touched = true;
      bump();
    },
  };
}

/** A transaction whose auth changes are counted when made and again after the commit. */
async function countedTransaction<T>(
  begin: (run: (tx: Queryable) => Promise<T>, mark: TxMark | undefined) => Promise<T>,
  fn: (tx: Queryable) => Promise<T>,
  bump: () => void,
): Promise<T> {
  let counted: ReturnType<typeof countingAuthChanges> | undefined;
  const committed: Array<() => void> = [];
  let out: T;
  // Statement recording (statement-log.ts): unset in production.
  const sink = statementHook.sink;
  const mark = sink?.begin();
  try {
    out = await begin((tx) => {
      committed.length = 0; // a retried body starts again
      counted = countingAuthChanges(tx, bump, committed);
      return fn(counted);
    }, mark);
    if (mark) sink?.end(mark, true);
  } catch (e) {
    if (mark) sink?.end(mark, false);
    throw e;
  } finally {
    if (counted?.touched) bump();
  }
  for (const f of committed) f();
  return out;
}

/** PGlite or one of its transactions (`tx`, for statement recording) as a Queryable. */
const pgliteRunner = (q: Pick<PGlite, 'query' | 'exec'>, tx?: TxMark): Queryable => ({
  query: async <T>(sql: string, params?: unknown[]) => {
    statementHook.sink?.statement(sql, tx);
    return { rows: (await q.query<T>(sql, params)).rows };
  },
  exec: async (sql) => {
    statementHook.sink?.statement(sql, tx);
    await q.exec(sql);
  },
});

export function wrapPglite(pglite: PGlite, onClose?: () => void): Db {
  let generation = 0;
  const bump = () => {
    generation++;
  };
  const counted = countingAuthChanges(pgliteRunner(pglite), bump);
  return {
    kind: 'pglite',
    authGeneration: () => generation,
    query: counted.query,
    exec: counted.exec,
    authChanged: counted.authChanged,
    transaction: (fn) =>
      countedTransaction((run, mark) => pglite.transaction((tx) => run(pgliteRunner(tx, mark))), fn, bump),
    dumpDataDir: () => pglite.dumpDataDir('none'),
    close: async () => {
      await pglite.close();
      onClose?.();
    },
  };
}

/**
 * Settings of every connection. A scan of a large table starts where the last one of it stopped
 * (synchronized scans, on by default): a query that stops early without an order (LIMIT) then
 * answers other rows each time it runs, as a site-name search listed other owners at 1M sites.
 */
const SESSION_SETTINGS = 'SET synchronize_seqscans = off';

/** PGlite in `dir`, guarded by a lock so two processes never open one directory. */
export async function openPgliteDir(
  dir: string,
  opts: { template?: () => string | undefined } = {},
): Promise<Db> {
  fs.mkdirSync(dir, { recursive: true });
  const release = acquireDirLock(path.join(dir, '..', `${path.basename(dir)}.lock`));
  try {
    // A new directory starts as a copy of the template (a migrated, closed cluster), if given:
    // copied aside and renamed into place, so a failed copy never leaves half a cluster.
    let fromTemplate = false;
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
      const template = opts.template?.();
      if (template) {
        const partial = `${dir}.copying-${process.pid}`;
        fs.rmSync(partial, { recursive: true, force: true });
        fs.cpSync(template, partial, { recursive: true });
        fs.rmSync(dir, { recursive: true, force: true });
        fs.renameSync(partial, dir);
        fromTemplate = true;
      }
    }
    const pglite = await PGlite.create({ dataDir: dir, extensions: PGLITE_EXTENSIONS });
    await pglite.exec(SESSION_SETTINGS);
    return { ...wrapPglite(pglite, release), fromTemplate };
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
  await pglite.exec(SESSION_SETTINGS);
  return wrapPglite(pglite);
}

/**
 * The auth-change channel of a PostgreSQL database: one connection LISTENing to the notifications
 * of migration 0020, reconnecting when it drops. While it is down there is no generation.
 */
function authChanges(connectionString: string, connectMs: number) {
  let generation = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | undefined;
  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString, connectionTimeoutMillis: connectMs });
    client = c;
    const lost = () => {
      if (client !== c) return;
      listening = false;
      generation++;
      client = undefined;
      c.end().catch(() => {});
      if (!closed) setTimeout(() => void connect(), 1000).unref();
    };
    c.on('error', lost);
    c.on('end', lost);
    c.on('notification', () => {
      generation++;
    });
    try {
      await c.connect();
      await c.query('LISTEN sac_auth_changed');
      generation++;
      listening = !closed;
    } catch {
      lost();
    }
  };
  void connect();
  return {
    generation: (): number | undefined => (listening ? generation : undefined),
    /** A write of this process: it counts at once, before its notification comes back. */
    bump: () => {
      generation++;
    },
    close: async () => {
      closed = true;
      listening = false;
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}

/** A pg client (in the transaction `tx`, for statement recording) as a Queryable; statements marked prepared() run named. */
const pgRunner = (q: pg.PoolClient, tx?: TxMark): Queryable => ({
  query: async <T>(sql: string, params?: unknown[]) => {
    statementHook.sink?.statement(sql, tx);
    return { rows: (await q.query(pgQuery(sql, params))).rows as T[] };
  },
  exec: async (sql) => {
    statementHook.sink?.statement(sql, tx);
    await q.query(sql);
  },
});

/**
 * How long a statement may wait for a pooled connection while every one is taken before it fails
 * ('timeout exceeded when trying to connect'; the API answers 503 with Retry-After). Making a new
 * connection has a bound of its own, `connectMs` (STORE_CONNECT_TIMEOUT_MS).
 */
export const POOL_WAIT_MS = 10_000;

/** node-postgres' connection, to end one at once (its socket) when the server stopped answering. */
const destroyConnection = (client: pg.ClientBase) =>
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();

/**
 * A connection of its own to the server, kept open, on which the circuit checks that the server
 * answers (`SELECT 1` within checkTimeoutMs): quick even on a loaded host, where a new connection
 * (a process) may take hundreds of milliseconds. Made again, within connectMs, when it was lost
 * or failed a check.
 */
function checkConnection(connectionString: string, timeouts: StoreTimeouts) {
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;
  const drop = (c: pg.Client) => {
    if (client === c) client = undefined;
    c.end().catch(() => {});
    destroyConnection(c);
  };
  const connection = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    if (closed) return Promise.reject(new Error('Cannot use a pool after calling end'));
    connecting ??= (async () => {
      const c = new pg.Client({ connectionString, connectionTimeoutMillis: timeouts.connectMs });
      c.on('error', () => drop(c));
      c.on('end', () => drop(c));
      try {
        await within(c.connect(), timeouts.connectMs, 'PostgreSQL check connection');
      } catch (e) {
        drop(c);
        throw e;
      }
      if (closed) {
        drop(c);
        throw new Error('Cannot use a pool after calling end');
      }
      client = c;
      return c;
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };
  return {
    async answers(): Promise<void> {
      const c = await connection();
      try {
        await within(c.query('SELECT 1'), timeouts.checkTimeoutMs, 'PostgreSQL check');
      } catch (e) {
        drop(c);
        throw e;
      }
    },
    close() {
      closed = true;
      if (client) drop(client);
    },
  };
}

export function openPostgres(
  connectionString: string,
  max = 10,
  poolWaitMs = POOL_WAIT_MS,
  timeouts: StoreTimeouts = STORE_TIMEOUTS,
): Db {
  // A new connection (TCP, start-up, sign-in) fails after connectMs: a server that drops packets
  // would otherwise hold it until the pool's wait ends. A call waits for it only its budget.
  class Client extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: timeouts.connectMs });
    }
  }
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: poolWaitMs, Client });
  const auth = authChanges(connectionString, timeouts.connectMs);
  // Whether the server answers, on the check connection: what an open circuit probes, and what a
  // wait left unanswered for statementCheckMs calls for (a slow statement, or a dead server).
  const check = checkConnection(connectionString, timeouts);
  const circuit = new StoreCircuit('database', { ...timeouts, checkAfterMs: timeouts.statementCheckMs }, () =>
    check.answers(),
  );
  // Made at once: calls are held to their budget once it answered (a start waits for the server).
  circuit.verify();
  // Every connection of the pool, to end them all when the circuit opens: the statements waiting
  // on them fail at once (503), and none that went silent is used again.
  const clients = new Set<pg.PoolClient>();
  pool.on('connect', (c) => {
    clients.add(c);
    circuit.heard();
    // A connection lost while checked out (the pool listens only to idle ones) fails its next
    // statement; its 'error' must not end the process.
    c.on('error', (e) => circuit.failed(e));
  });
  pool.on('remove', (c) => void clients.delete(c));
  circuit.on('open', () => {
    for (const c of clients) destroyConnection(c);
  });
  // Each statement waits through the circuit: at most its budget while the server is silent
  // (the connection then ended, so the statement never runs later), on while the server answers.
  const watched = (client: pg.PoolClient) => {
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as { query: unknown }).query = (...a: unknown[]) => {
      // A callback or a submittable (a cursor) is not a promise to wait for.
      if (
        typeof a[a.length - 1] === 'function' ||
        typeof (a[0] as { submit?: unknown })?.submit === 'function'
      )
        return query(...a);
      return circuit.wait(
        () => {
          const out = query(...a) as Promise<unknown>;
          out.then(
            () => circuit.heard(),
            (e: unknown) => {
              if (!isStoreUnavailable(e)) circuit.heard();
            },
          );
          return out;
        },
        () => destroyConnection(client),
      );
    };
  };
  // A connection from the pool, or a 503 at once while the circuit is open, when it opens during
  // the wait, or when the server stays silent for the call's budget (the connection, if it comes,
  // goes back to the pool).
  const connect = async (): Promise<pg.PoolClient> => {
    let pending: Promise<pg.PoolClient> | undefined;
    try {
      const client = await circuit.wait(
        () => {
          pending = pool.connect();
          return pending;
        },
        () =>
          pending?.then(
            (c) => c.release(),
            () => {},
          ),
      );
      circuit.succeeded();
      return client;
    } catch (e) {
      circuit.failed(e);
      throw e;
    }
  };
  // A pooled connection, SESSION_SETTINGS sent on its first use: in the pool's 'connect' event
  // they would race the first statement on the same client (pg warns of that, and pg 9 refuses).
  const configured = new WeakSet<pg.PoolClient>();
  const checkout = async () => {
    const client = await connect();
    if (!configured.has(client)) {
      watched(client);
      try {
        await client.query(SESSION_SETTINGS);
      } catch (e) {
        client.release(e as Error);
        throw e;
      }
      configured.add(client);
    }
    return client;
  };
  // As pool.query does: the client back after the statement, dropped when the statement failed.
  const once = async <T>(use: (q: Queryable) => Promise<T>): Promise<T> => {
    const client = await checkout();
    try {
      const out = await use(pgRunner(client));
      client.release();
      return out;
    } catch (e) {
      client.release(e as Error);
      throw e;
    }
  };
  const pooled: Queryable = {
    query: (sql, params) => once((q) => q.query(sql, params)),
    exec: (sql) => once((q) => q.exec(sql)),
  };
  const counted = countingAuthChanges(pooled, auth.bump);
  // An idle connection the server ends (restart, failover, DROP DATABASE … FORCE) is dropped from
  // the pool and the next query opens another; without a listener the error would crash the process.
  pool.on('error', (err) => {
    circuit.failed(err);
    if ((err as { code?: string }).code !== '57P01')
      console.warn(`PostgreSQL connection lost: ${err.message}`);
  });
  return {
    kind: 'postgres',
    connectionString,
    circuit,
    authGeneration: auth.generation,
    query: counted.query,
    exec: counted.exec,
    authChanged: counted.authChanged,
    transaction: (fn) =>
      countedTransaction(
        async (run, mark) => {
          const client = await checkout();
          try {
            await client.query('BEGIN');
            const out = await run(pgRunner(client, mark));
            await client.query('COMMIT');
            return out;
          } catch (e) {
            await client.query('ROLLBACK').catch(() => {});
            throw e;
          } finally {
            client.release();
          }
        },
        fn,
        auth.bump,
      ),
    async readSnapshot() {
      const client = await checkout();
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        await client.query(`SET LOCAL idle_in_transaction_session_timeout = '${SNAPSHOT_IDLE_LIMIT}'`);
      } catch (e) {
        client.release(e as Error);
        throw e;
      }
      let ended = false;
      const sink = statementHook.sink;
      const mark = sink?.begin();
      return {
        q: pgRunner(client, mark),
        end() {
          if (ended) return;
          ended = true;
          if (mark) sink?.end(mark, true);
          // Nothing was written: COMMIT only ends the transaction. A connection that fails it
          // (ended by the idle limit) is dropped from the pool, not reused.
          client.query('COMMIT').then(
            () => client.release(),
            (e: Error) => client.release(e),
          );
        },
      };
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    close: async () => {
      circuit.stop();
      check.close();
      await auth.close();
      await pool.end();
    },
  };
}

/** Whether a write failed on a unique index (PostgreSQL 23505), optionally a named one. */
export function isUniqueViolation(e: unknown, constraint?: string): boolean {
  if ((e as { code?: string }).code !== '23505') return false;
  if (constraint === undefined) return true;
  return String((e as { constraint?: string }).constraint ?? (e as Error).message).includes(constraint);
}
