import type { Db } from './db.ts';

/**
 * The embedded database as a handle before it is open: each call waits for `opening`, then goes
 * to the database it opened. The server is built with it while the database opens on its thread
 * (serve.ts); building asks nothing of it, and nothing is served before the migrations ran.
 */
export function awaitingDb(opening: Promise<Db>): Db {
  let db: Db | undefined;
  const ready = opening.then((d) => {
    db = d;
    return d;
  });
  ready.catch(() => {}); // the server awaits `opening` itself
  const open = async () => db ?? (await ready);
  return {
    kind: 'pglite',
    query: async (sql, params) => (await open()).query(sql, params),
    exec: async (sql) => (await open()).exec(sql),
    transaction: async (fn) => (await open()).transaction(fn),
    close: async () => (await open()).close(),
    dumpDataDir: async () => (await open()).dumpDataDir!(),
    authChanged: () => db?.authChanged?.(),
    // Nothing was written before the open: the first generation.
    authGeneration: () => (db ? db.authGeneration?.() : 0),
    onNotification: (channel, fn) => {
      if (db?.onNotification) return db.onNotification(channel, fn);
      let stop: (() => void) | undefined;
      let stopped = false;
      void ready.then((d) => {
        if (!stopped) stop = d.onNotification?.(channel, fn);
      });
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}
