/**
 * A circuit breaker in front of a store (PostgreSQL or Redis): while the store is unreachable,
 * calls fail at once instead of each waiting for its own timeouts, and the store is tried in the
 * background until it answers again.
 *
 * Closed: calls go to the store; `failuresToOpen` failures in a row that mean the store is
 * unreachable (isStoreUnavailable: refused, reset, timed out) open it, and so does `trip()` when
 * the store is known to be gone (a lost connection, a failed check). Open: `check()` throws
 * CircuitOpenError (the API answers 503 with Retry-After) and `probe` runs every `probeEveryMs`
 * until it succeeds, which closes the circuit.
 */

export interface CircuitSettings {
  /** Failures in a row (each meaning the store is unreachable) that open the circuit. */
  failuresToOpen: number;
  /** How often an open circuit tries the store, in ms. */
  probeEveryMs: number;
}

/** The bounds on waiting for a store (STORE_* settings in config.ts and docs/operations.md). */
export interface StoreTimeouts extends CircuitSettings {
  /** A new connection (TCP, and PostgreSQL's start-up and sign-in) is made within this, in ms. */
  connectMs: number;
  /** Redis: a command's answer comes within this, in ms, or the connection is dropped. */
  commandMs: number;
  /**
   * PostgreSQL: a statement unanswered this long has the server checked on a connection of its
   * own (within connectMs); when that fails, the circuit opens and every connection is ended. A
   * slow statement on a server that answers runs on.
   */
  statementCheckMs: number;
}

/**
 * Defaults: a store that stops answering costs each of the first calls at most connectMs, or
 * statementCheckMs + connectMs (a PostgreSQL connection gone silent), or commandMs (Redis), until
 * the circuit opens; then about a millisecond. They leave room for a loaded host, where a new
 * PostgreSQL connection has taken over 150 ms (each one is a process); docs/operations.md says how
 * to tighten them.
 */
export const STORE_TIMEOUTS: StoreTimeouts = {
  connectMs: 500,
  commandMs: 500,
  statementCheckMs: 150,
  failuresToOpen: 3,
  probeEveryMs: 500,
};

export type CircuitState = 'closed' | 'open';

/** What a call gets while its store's circuit is open. */
export class CircuitOpenError extends Error {
  constructor(store: string) {
    super(`${store} is unreachable (circuit open)`);
    this.name = 'CircuitOpenError';
  }
}

export class StoreCircuit {
  private failures = 0;
  private opened = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly openListeners = new Set<() => void>();
  private readonly closeListeners = new Set<() => void>();

  constructor(
    readonly store: 'database' | 'redis',
    private readonly settings: CircuitSettings,
    private readonly probe: () => Promise<unknown>,
  ) {}

  get state(): CircuitState {
    return this.opened ? 'open' : 'closed';
  }

  /** Throws CircuitOpenError while the circuit is open. */
  check(): void {
    if (this.opened) throw new CircuitOpenError(this.store);
  }

  succeeded(): void {
    if (!this.opened) this.failures = 0;
  }

  /** Counts `err` when it means the store is unreachable; other errors are the call's own. */
  failed(err: unknown): void {
    if (this.opened || !isStoreUnavailable(err)) return;
    if (++this.failures >= this.settings.failuresToOpen) this.trip();
  }

  /** Opens the circuit now (the store is known to be gone), and starts probing it. */
  trip(): void {
    if (this.opened || this.stopped) return;
    this.opened = true;
    for (const f of this.openListeners) f();
    this.scheduleProbe();
  }

  /** Closes the circuit now (the store answered). */
  reset(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.failures = 0;
    if (!this.opened) return;
    this.opened = false;
    for (const f of this.closeListeners) f();
  }

  /** Calls `f` each time the circuit opens (or closes); returns the unsubscribe. */
  on(event: 'open' | 'close', f: () => void): () => void {
    const set = event === 'open' ? this.openListeners : this.closeListeners;
    set.add(f);
    return () => set.delete(f);
  }

  /** No more probes (the store's client is closing). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private scheduleProbe(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.probe().then(
        () => this.reset(),
        () => {
          if (this.opened) this.scheduleProbe();
        },
      );
    }, this.settings.probeEveryMs);
    this.timer.unref();
  }
}

/**
 * Runs `p` for at most `ms`: it rejects with an ETIMEDOUT error after that (the store did not
 * answer; what `p` holds is the caller's to end).
 */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error(`${what}: no answer within ${ms} ms`), { code: 'ETIMEDOUT' })),
        ms,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Socket errors of a connection to the database or Redis (not of a DNS query: syscall query*). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);
/**
 * PostgreSQL's codes for a server that is away, going away or full: shutdown (57P01-57P03), too
 * many connections (53300), the database gone (3D000), and class 08 connection exceptions but
 * 08P01, a protocol violation (a bug, not an outage).
 */
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53300', '3D000']);
/** What node-postgres, ioredis and PGlite say when their connection is gone or never came. */
const UNREACHABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|timeout expired$|Client has encountered a connection error|Cannot use a pool after calling end|Connection is closed\.|Stream isn't writeable|Command timed out|Socket timeout\.|PGlite is closed)/i;

/**
 * Whether `err` means the database or Redis could not be reached (refused, terminated, timed
 * out waiting for a pooled connection, retries spent): then the call may well work a few seconds
 * later, and the answer says so (503, Retry-After). Looks through `cause` and AggregateError.
 */
export function isStoreUnavailable(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  if (err instanceof CircuitOpenError) return true;
  const e = err as Error & { code?: unknown; syscall?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const dns = typeof e.syscall === 'string' && (e.syscall.startsWith('query') || e.syscall === 'getaddrinfo');
  if (NETWORK_CODES.has(code) && !dns) return true;
  if (POSTGRES_CODES.has(code) || (/^08[0-9A-Z]{3}$/.test(code) && code !== '08P01')) return true;
  if (e.name === 'MaxRetriesPerRequestError' || UNREACHABLE_MESSAGE.test(e.message)) return true;
  if (
    Array.isArray(e.errors) &&
    e.errors.length > 0 &&
    e.errors.every((x) => isStoreUnavailable(x, depth + 1))
  )
    return true;
  return isStoreUnavailable(e.cause, depth + 1);
}
