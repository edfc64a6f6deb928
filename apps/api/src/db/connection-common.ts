import type { Queryable } from './db.ts';
import { statementHook, type TxMark } from './statement-log.ts';

// What the handles of both engines share: counting auth changes in and after transactions, the
// settings of every connection, the names of prepared statements.

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

/** The name of a statement marked prepared(), if it is. */
export function preparedName(sql: string): string | undefined {
  return PREPARED.get(sql);
}

/** `q` with authChanged() counting through `bump`; `touched` tells a transaction to count again at commit. */
export function countingAuthChanges(
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
export async function countedTransaction<T>(
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

/**
 * Settings of every connection. A scan of a large table starts where the last one of it stopped
 * (synchronized scans, on by default): a query that stops early without an order (LIMIT) then
 * answers other rows each time it runs, as a site-name search listed other owners at 1M sites.
 */
export const SESSION_SETTINGS = 'SET synchronize_seqscans = off';

/**
 * Listeners by notification channel (Db.onNotification), for both engines: `listen` adds one and
 * calls `first(channel)` for a channel nobody listened to yet (to LISTEN to it); `tell` calls a
 * channel's listeners, each failure its listener's own.
 */
export function channelListeners(first: (channel: string) => void) {
  const listeners = new Map<string, Set<() => void>>();
  return {
    channels: () => [...listeners.keys()],
    tell(channel: string): void {
      for (const fn of listeners.get(channel) ?? []) {
        try {
          fn();
        } catch {
          // not the notifier's to handle
        }
      }
    },
    listen(channel: string, fn: () => void): () => void {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        first(channel);
      }
      const own = () => fn();
      set.add(own);
      return () => void set.delete(own);
    },
  };
}
