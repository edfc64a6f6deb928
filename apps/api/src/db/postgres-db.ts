import pg from 'pg';
import {
  isStoreUnavailable,
  STORE_TIMEOUTS,
  StoreCircuit,
  type StoreTimeouts,
  within,
} from '../lib/store-circuit.ts';
import {
  channelListeners,
  countedTransaction,
  countingAuthChanges,
  preparedName,
  SESSION_SETTINGS,
} from './connection-common.ts';
import type { Db, Queryable } from './db.ts';
import { TEXT_ARRAY, TIMESTAMPTZ, textArrayParser, timestamptzParser } from './pg-text-parsers.ts';
import { statementHook, type TxMark } from './statement-log.ts';

// int8 and numeric as JS numbers where they fit is what every caller here wants.
pg.types.setTypeParser(20, (v) => Number(v));
// timestamptz and text[] read without a regular expression or a character array a value.
pg.types.setTypeParser(TIMESTAMPTZ, timestamptzParser(pg.types.getTypeParser(TIMESTAMPTZ, 'text')));
pg.types.setTypeParser(TEXT_ARRAY, textArrayParser(pg.types.getTypeParser(TEXT_ARRAY, 'text')));
/**
 * How long a snapshot may wait between two statements (for a client reading its export slowly)
 * before PostgreSQL ends it: a stalled download does not hold a connection, and the old row
 * versions it sees, for ever.
 */
export const SNAPSHOT_IDLE_LIMIT = '5min';

/** node-postgres' query config: named when the statement was marked prepared and has parameters. */
const pgQuery = (sql: string, params?: unknown[]) => {
  const name = params?.length ? preparedName(sql) : undefined;
  return name ? { name, text: sql, values: params } : { text: sql, values: params };
};

/** A channel's name as LISTEN takes it unquoted. */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * The notifications of a PostgreSQL database, on one connection of their own that reconnects a
 * second after it drops: the auth-change channel of migration 0020 (while it is down there is no
 * generation), and the channels listened to through listen() (migration 0071's trail commits),
 * whose listeners are also called each time the connection is made again, since what was notified
 * while it was down is lost.
 */
function notifications(connectionString: string, connectMs: number) {
  let generation = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | undefined;
  const channels = channelListeners((channel) => {
    if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
    // a connection still being made LISTENs to it once made (pg queues the statement)
    client?.query(`LISTEN ${channel}`).catch(() => {});
  });
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
    c.on('notification', (n) => {
      if (n.channel === 'sac_auth_changed') generation++;
      else channels.tell(n.channel);
    });
    try {
      await c.connect();
      await c.query('LISTEN sac_auth_changed');
      for (const channel of channels.channels()) await c.query(`LISTEN ${channel}`);
      generation++;
      listening = !closed;
      for (const channel of channels.channels()) channels.tell(channel);
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
    listen: channels.listen,
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

/**
 * Makes `client`'s statements wait through the circuit: at most their budget while the server is
 * silent (the connection then ended, so the statement never runs later), on while it answers.
 */
function watchThroughCircuit(client: pg.PoolClient, circuit: StoreCircuit): void {
  const query = client.query.bind(client) as (...a: unknown[]) => unknown;
  (client as { query: unknown }).query = (...a: unknown[]) => {
    // A callback or a submittable (a cursor) is not a promise to wait for.
    if (typeof a[a.length - 1] === 'function' || typeof (a[0] as { submit?: unknown })?.submit === 'function')
      return query(...a);
    return circuit.wait(
      () => {
        // node-postgres' callback, not its promise form (decisions.md): an answer, or an error of
        // the statement's own, is the server heard from
        return new Promise<unknown>((resolve, reject) =>
          query(...a, (err: Error | null, res: unknown) => {
            if (!err || !isStoreUnavailable(err)) circuit.heard();
            if (err) reject(err);
            else resolve(res);
          }),
        );
      },
      () => destroyConnection(client),
    );
  };
}

/**
 * How long an idle pooled connection is kept: ten minutes, as HikariCP keeps them, not pg-pool's
 * ten seconds. A new connection costs its start-up and sign-in, its settings, and on its first
 * statements the server's catalog caches and each prepared statement's parse and first plans: a
 * console used a click every 12 s answered a search in 7.7-15 ms and its dashboard in 26-57 ms
 * on new connections, 6-11 and 16-27 ms on kept ones (1M customers).
 */
export const POOL_IDLE_MS = 600_000;

/**
 * The connection pool behind its circuit: `checkout` hands out a connection (its statements
 * watched, SESSION_SETTINGS sent) or fails at once (503) while the server is taken for gone.
 */
function circuitPool(connectionString: string, max: number, poolWaitMs: number, timeouts: StoreTimeouts) {
  // A new connection (TCP, start-up, sign-in) fails after connectMs: a server that drops packets
  // would otherwise hold it until the pool's wait ends. A call waits for it only its budget.
  class Client extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: timeouts.connectMs });
    }
  }
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: poolWaitMs,
    Client,
    idleTimeoutMillis: POOL_IDLE_MS,
  });
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
  // An idle connection the server ends (restart, failover, DROP DATABASE … FORCE) is dropped from
  // the pool and the next query opens another; without a listener the error would crash the process.
  pool.on('error', (err) => {
    circuit.failed(err);
    if ((err as { code?: string }).code !== '57P01')
      console.warn(`PostgreSQL connection lost: ${err.message}`);
  });
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
      watchThroughCircuit(client, circuit);
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
  return { pool, check, circuit, checkout };
}

/** `run` in a transaction on a connection of its own: committed when it returns, else rolled back. */
async function inTransaction<T>(
  checkout: () => Promise<pg.PoolClient>,
  run: (q: Queryable) => Promise<T>,
  mark: TxMark | undefined,
): Promise<T> {
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
}

/** A read-only snapshot on a connection of its own, ended (committed) by `end`. */
async function readSnapshot(checkout: () => Promise<pg.PoolClient>) {
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
}

export function openPostgres(
  connectionString: string,
  max = 10,
  poolWaitMs = POOL_WAIT_MS,
  timeouts: StoreTimeouts = STORE_TIMEOUTS,
): Db {
  const auth = notifications(connectionString, timeouts.connectMs);
  const { pool, check, circuit, checkout } = circuitPool(connectionString, max, poolWaitMs, timeouts);
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
  return {
    kind: 'postgres',
    connectionString,
    circuit,
    authGeneration: auth.generation,
    onNotification: auth.listen,
    query: counted.query,
    exec: counted.exec,
    authChanged: counted.authChanged,
    transaction: (fn) => countedTransaction((run, mark) => inTransaction(checkout, run, mark), fn, auth.bump),
    readSnapshot: () => readSnapshot(checkout),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    close: async () => {
      circuit.stop();
      check.close();
      await auth.close();
      await pool.end();
    },
  };
}
