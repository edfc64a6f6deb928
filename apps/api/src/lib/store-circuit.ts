/**
 * A circuit breaker in front of a store (PostgreSQL or Redis): while the store is unreachable,
 * calls fail at once instead of each waiting for its own timeouts, and the store is tried in the
 * background until it answers again.
 *
 * Closed: calls go to the store, each wait on it (a connection, a statement, a command) through
 * `wait`, which answers it within `callBudgetMs` unless the store showed it is alive meanwhile.
 * `failuresToOpen` failures in a row that mean the store is unreachable (isStoreUnavailable:
 * refused, reset, timed out) open it, and so does `trip()` when the store is known to be gone (a
 * lost connection, a failed check). Open: `check()` throws CircuitOpenError (the API answers 503
 * with Retry-After) and `probe` runs every `probeEveryMs` until it succeeds, which closes the
 * circuit.
 */

export interface CircuitSettings {
  /** Failures in a row (each meaning the store is unreachable) that open the circuit. */
  failuresToOpen: number;
  /** How often an open circuit tries the store, in ms. */
  probeEveryMs: number;
  /**
   * The longest a call waits for a store that has not answered anything since the call began
   * waiting: then it fails (CallBudgetError, a 503), and what it waited for is given up.
   */
  callBudgetMs?: number;
  /** A wait unanswered this long has the store checked (`probe`), in ms; unset: no check. */
  checkAfterMs?: number;
}

/** The bounds on waiting for a store (STORE_* settings in config.ts and docs/operations.md). */
export interface StoreTimeouts extends CircuitSettings {
  callBudgetMs: number;
  /**
   * A new connection (TCP, and PostgreSQL's start-up and sign-in) is made within this, in ms: in
   * the background of a call that gave up on it, and at a start.
   */
  connectMs: number;
  /**
   * A check of the store (PostgreSQL: `SELECT 1` on a connection kept for it; Redis: any answer
   * while a command waits) unanswered this long opens the circuit, in ms.
   */
  checkTimeoutMs: number;
  /** PostgreSQL: a connection or statement unanswered this long has the server checked, in ms. */
  statementCheckMs: number;
}

/**
 * Defaults: a call waits for a store at most 150 ms unless the store answered something
 * meanwhile (a slow statement on a live server runs on); a store that stops answering altogether
 * opens its circuit within about a second (the check), or at once when refused; then calls fail
 * in about a millisecond. Connections are given 5 s, so a start on a loaded host, where a new
 * PostgreSQL connection has taken over 150 ms (each one is a process), does not fail.
 */
export const STORE_TIMEOUTS: StoreTimeouts = {
  callBudgetMs: 150,
  connectMs: 5000,
  checkTimeoutMs: 1000,
  statementCheckMs: 25,
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

/**
 * What a call gets when its store did not answer within the call's budget (callBudgetMs) and
 * showed no sign of life meanwhile. It says the store is unreachable (503), but does not count
 * towards opening the circuit: the check (or refused connections) decides that, so a store slow
 * on a loaded host does not have its circuit opened by it.
 */
export class CallBudgetError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(store: string, ms: number) {
    super(`${store}: no answer within ${ms} ms`);
    this.name = 'CallBudgetError';
  }
}

export class StoreCircuit {
  private failures = 0;
  /** When the store last answered anything (performance.now()). */
  private lastHeard = Number.NEGATIVE_INFINITY;
  /** Whether a check ever succeeded: before, calls are not held to the budget (a start). */
  private armed = false;
  /** Whether calls are held to the budget, once armed (holdWhile). */
  private held: () => boolean = () => true;
  private checking = false;
  /** When the check under way began (performance.now()). */
  private checkingSince = 0;
  private opened = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly openListeners = new Set<() => void>();
  private readonly closeListeners = new Set<() => void>();

  readonly store: 'database' | 'redis';
  private readonly settings: CircuitSettings;
  private readonly probe: () => Promise<unknown>;

  constructor(store: 'database' | 'redis', settings: CircuitSettings, probe: () => Promise<unknown>) {
    this.store = store;
    this.settings = settings;
    this.probe = probe;
  }

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

  /** The store answered something (a statement's result or error, a new connection, a reply). */
  heard(): void {
    this.lastHeard = performance.now();
  }

  /** Calls are held to the budget from now on (the store was reached, or a check succeeded). */
  arm(): void {
    this.armed = true;
  }

  /**
   * Calls are held to their budget only while `f` says so: a server's start (migrations, demo
   * data) waits for a store that answers late on a loaded host rather than failing on it. A store
   * that does not answer at all still opens the circuit (the check), which ends every wait.
   */
  holdWhile(f: () => boolean): void {
    this.held = f;
  }

  /**
   * Counts `err` when it means the store is unreachable; other errors are the call's own, and so
   * is a spent budget (CallBudgetError), which alone proves nothing.
   */
  failed(err: unknown): void {
    if (this.opened || err instanceof CallBudgetError || !isStoreUnavailable(err)) return;
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

  /**
   * Checks the store now (`probe`) unless a check is under way: its answer counts as hearing
   * from the store, its failure opens the circuit.
   */
  verify(): void {
    if (this.checking || this.opened || this.stopped) return;
    this.checking = true;
    this.checkingSince = performance.now();
    this.probe()
      .then(
        () => {
          this.heard();
          this.arm();
        },
        () => this.trip(),
      )
      .finally(() => {
        this.checking = false;
      });
  }

  /**
   * Waits for what `start` asks of the store (a connection, a statement, a command), failing at
   * once while the circuit is open (a rejection, never a throw: a ROLLBACK in a catch relies on it). Unanswered after checkAfterMs, the store is checked. After
   * callBudgetMs, unless the store answered anything meanwhile (this or another call, or the
   * check), the wait fails with CallBudgetError and `giveUp` ends what it waited for (a silent
   * connection is not used again); when the store did answer, the wait goes on (a slow statement
   * on a live server), the store checked again each callBudgetMs it stays silent. The circuit
   * opening ends the wait with CircuitOpenError. The budget is decided after the I/O the event
   * loop has pending (setImmediate), so an answer that came while the loop was held up counts.
   */
  wait<T>(start: () => Promise<T>, giveUp: (err: Error) => void): Promise<T> {
    if (this.opened) {
      const err = new CircuitOpenError(this.store);
      giveUp(err);
      return Promise.reject(err);
    }
    const budget = this.settings.callBudgetMs;
    const checkAfter = this.settings.checkAfterMs;
    const work = start();
    if (budget === undefined && checkAfter === undefined) return work;
    let since = performance.now();
    let first = true;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let checkTimer: NodeJS.Timeout | undefined;
      let budgetTimer: NodeJS.Timeout | undefined;
      const finish = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(checkTimer);
        clearTimeout(budgetTimer);
        off();
        f();
      };
      const fail = (err: Error) =>
        finish(() => {
          giveUp(err);
          reject(err);
        });
      const off = this.on('open', () => fail(new CircuitOpenError(this.store)));
      work.then(
        (v) => finish(() => resolve(v)),
        (e: unknown) => finish(() => reject(e)),
      );
      // One timer at a time (most waits end before the first): the check's, then the budget's.
      const schedule = () => {
        if (checkAfter === undefined) {
          if (budget !== undefined) budgetTimer = setTimeout(decide, budget);
          return;
        }
        checkTimer = setTimeout(() => {
          if (this.lastHeard < since) this.verify();
          if (budget !== undefined) budgetTimer = setTimeout(decide, Math.max(0, budget - checkAfter));
        }, checkAfter);
      };
      const decide = () =>
        setImmediate(() => {
          if (settled || budget === undefined) return;
          if (this.lastHeard < since && first && this.armed && this.held()) {
            // The check gets its share of the budget: on a host that held this process up,
            // it may have been sent just now, with no time yet for an answer.
            const fair = budget - (checkAfter ?? budget);
            const left = this.checkingSince + fair - performance.now();
            if (this.checking && left > 0) {
              budgetTimer = setTimeout(decide, left);
              return;
            }
            fail(new CallBudgetError(this.store, budget));
            return;
          }
          // Alive (or not yet armed, or not held): wait on, the store checked while it stays silent.
          if (this.lastHeard < since) this.verify();
          first = false;
          since = performance.now();
          schedule();
        });
      schedule();
    });
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
        () => {
          this.heard();
          this.arm();
          this.reset();
        },
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
 * answer; what `p` holds is the caller's to end). The time is up only after the I/O the event
 * loop has pending (setImmediate), as in StoreCircuit.wait: an answer that came while the process
 * was held up (a synchronous child process, a long parse) counts.
 */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let late: NodeJS.Immediate | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        late = setImmediate(() =>
          reject(Object.assign(new Error(`${what}: no answer within ${ms} ms`), { code: 'ETIMEDOUT' })),
        );
      }, ms);
    }),
  ]).finally(() => {
    clearTimeout(timer);
    clearImmediate(late);
  });
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
