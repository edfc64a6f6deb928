import type { Redis, Command as RedisCommand } from 'ioredis';
import {
  CircuitOpenError,
  isStoreUnavailable,
  STORE_TIMEOUTS,
  StoreCircuit,
  type StoreTimeouts,
  within,
} from './store-circuit.ts';

interface Logger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const circuits = new WeakMap<Redis, StoreCircuit>();

/** The circuit of a client openRedis made (/readyz reports it); undefined for any other client. */
export function redisCircuit(redis: Redis): StoreCircuit | undefined {
  return circuits.get(redis);
}

/**
 * Sends `redis`'s commands through the circuit: refused at once while it is open, else held to the
 * call budget. The client's own commands (the probe's PING, QUIT, a new connection's handshake)
 * go straight through.
 */
function failFastThroughCircuit(
  redis: Redis,
  circuit: StoreCircuit,
  Command: typeof RedisCommand,
  probing: () => boolean,
): void {
  const send = redis.sendCommand.bind(redis);
  // Every command but a pipeline's (a MULTI: it fails as a whole without a connection) and the
  // client's own handshake on a new connection.
  const own = (command: RedisCommand) =>
    probing() ||
    command.name === 'quit' ||
    (redis.status === 'connect' && Command.checkFlag('HANDSHAKE_COMMANDS', command.name));
  redis.sendCommand = ((command: RedisCommand, stream?: unknown) => {
    if (!stream && circuit.state === 'open' && !own(command)) {
      command.reject(new CircuitOpenError('redis'));
      return command.promise;
    }
    // A command of the client's own is not held to a budget, nor one of a pipeline while the
    // circuit is open (it fails as a whole without a connection). A pipeline's commands come
    // with `stream`, each held to the budget like any other.
    if (own(command) || (stream && circuit.state === 'open')) {
      const direct = send(command, stream as never) as Promise<unknown>;
      direct.then(
        () => circuit.heard(),
        (e: unknown) => circuit.failed(e),
      );
      return direct;
    }
    let out: Promise<unknown> | undefined;
    // Held to the call budget; a command given up on is answered (rejected) at once, and its
    // late reply, if any, ignored.
    circuit
      .wait(
        () => {
          out = send(command, stream as never) as Promise<unknown>;
          return out;
        },
        (err) => command.reject(err),
      )
      .then(
        () => {
          circuit.heard();
          circuit.succeeded();
        },
        (e: unknown) => {
          if (!isStoreUnavailable(e)) circuit.heard();
          circuit.failed(e);
        },
      );
    return out ?? command.promise;
  }) as typeof redis.sendCommand;
}

/**
 * Without an offline queue, ioredis refuses a QUIT while there is no connection, and would go
 * on reconnecting for ever after the app closed: end it at once then.
 */
function quitEvenOffline(redis: Redis): void {
  const quit = redis.quit.bind(redis);
  redis.quit = (() => {
    if (redis.status === 'ready') return quit();
    redis.disconnect();
    return Promise.resolve('OK');
  }) as typeof redis.quit;
}

/**
 * The circuit follows the connection: closed when it is (again) ready, open when it is lost,
 * stopped when the client ends. The first error after each good spell is logged.
 */
function followConnection(redis: Redis, circuit: StoreCircuit, log: Logger | undefined): void {
  let healthy = true;
  redis.on('error', (err: Error) => {
    if (!healthy) return;
    healthy = false;
    log?.warn({ err: { message: err.message } }, 'Redis unavailable');
  });
  redis.on('ready', () => {
    if (!healthy) log?.info({}, 'Redis available again');
    healthy = true;
    circuit.heard();
    circuit.arm();
    circuit.reset();
  });
  redis.on('close', () => circuit.trip());
  redis.on('end', () => circuit.stop());
}

/**
 * A Redis client for REDIS_URL that fails fast while Redis is unreachable, so a sign-in answers
 * 503 at once rather than after seconds of retries:
 * - a command waits at most callBudgetMs unless Redis answered anything meanwhile, then fails
 *   (503); a connection silent for checkTimeoutMs while a command waits is dropped
 *   (socketTimeout) and made again (within connectMs) every probeEveryMs in the background;
 * - no offline queue: a command while there is no connection fails at once (and is never sent
 *   later, after its caller was told it failed);
 * - a circuit (StoreCircuit) opens when the connection is lost or failuresToOpen commands in a
 *   row fail on it; while open, commands fail before reaching the client, and a PING every
 *   probeEveryMs (or the connection coming back) closes it.
 * The first error after each good spell is logged, not every retry. Waits for the first
 * connection (or its failure) before it returns, so the first calls do not fail for want of it.
 */
export async function openRedis(
  url: string,
  log?: Logger,
  timeouts: StoreTimeouts = STORE_TIMEOUTS,
): Promise<Redis> {
  // Loaded only when REDIS_URL is set: ~60 ms of every start otherwise.
  const { Redis, Command } = await import('ioredis');
  const redis = new Redis(url, {
    connectTimeout: timeouts.connectMs,
    socketTimeout: timeouts.checkTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => timeouts.probeEveryMs,
  });
  let probing = false;
  // No check of its own: Redis answers in order on its one connection, and socketTimeout ends a
  // silent one (which opens the circuit).
  const circuit = new StoreCircuit('redis', { ...timeouts, checkAfterMs: undefined }, () => {
    probing = true;
    try {
      return within(redis.ping(), timeouts.checkTimeoutMs, 'Redis check');
    } finally {
      probing = false;
    }
  });
  circuits.set(redis, circuit);
  failFastThroughCircuit(redis, circuit, Command, () => probing);
  quitEvenOffline(redis);
  followConnection(redis, circuit, log);
  await new Promise<void>((resolve) => {
    const done = () => {
      for (const e of ['ready', 'close', 'end'] as const) redis.off(e, done);
      resolve();
    };
    for (const e of ['ready', 'close', 'end'] as const) redis.once(e, done);
  });
  return redis;
}

/** The address of a Redis URL without its password, for the start-up banner. */
export function describeRedis(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
}
