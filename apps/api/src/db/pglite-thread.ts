import { types } from '@electric-sql/pglite';
import {
  channelListeners,
  countedTransaction,
  countingAuthChanges,
  preparedName,
  SESSION_SETTINGS,
} from './connection-common.ts';
import type { Db, Queryable } from './db.ts';
import {
  backendMessages,
  parseMessage,
  rowsOfAnswer,
  scriptMessage,
  statementMessage,
} from './pglite-statement.ts';
import { pgliteThread } from './pglite-thread-start.ts';
import type { ThreadReply, ThreadRequest } from './pglite-thread-worker.ts';
import { statementHook, type TxMark } from './statement-log.ts';

type Parsers = Record<number | string, (value: string, typeId?: number) => unknown>;
type Ask = { op: 'run'; message: Uint8Array; sync: boolean } | { op: 'dump' } | { op: 'close' };

/**
 * The embedded database on a thread of its own (docs/decisions.md, "The embedded database on its
 * own thread"): the directory opens there while the server's modules load, and each statement's
 * WebAssembly runs there, beside the event loop. This side builds each statement's protocol
 * message and reads its answer (pglite-statement.ts, the same code as in-process), keeps the one
 * connection's order (a transaction holds it from BEGIN to its end; a statement outside one waits
 * for it, as PGlite's query() does) and hears the notifications in the answers.
 */
// Long: the thread's one connection (answers awaited, order, statements parsed) is state its closures share.
export function openPgliteThread(dir: string, onClose?: () => void): Promise<Db> {
  const worker = pgliteThread();
  worker.postMessage({ op: 'open', dir, sessionSettings: SESSION_SETTINGS } satisfies ThreadRequest);
  const pending = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();
  let next = 1;
  let closed = false;
  let failure: Error | undefined;
  // The thread keeps the process alive only while an answer is awaited (a CLI that forgets to
  // close still ends; an answer under way is never cut short).
  worker.unref();
  const ask = (req: Ask): Promise<Uint8Array> => {
    if (failure) return Promise.reject(failure);
    const id = next++;
    if (pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      const message = { id, ...req } as ThreadRequest;
      // A message that is all of its buffer moves to the thread; a view of a shared one is copied.
      const whole = req.op === 'run' && req.message.byteLength === req.message.buffer.byteLength;
      worker.postMessage(message, whole ? [req.message.buffer as ArrayBuffer] : []);
    });
  };
  const settle = (id: number) => {
    const p = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return p;
  };
  const failAll = (e: Error) => {
    failure ??= e;
    for (const id of [...pending.keys()]) settle(id)?.reject(failure);
  };

  return new Promise<Db>((resolveOpen, rejectOpen) => {
    worker.ref();
    worker.on('error', (e) => {
      failAll(e);
      rejectOpen(e);
    });
    worker.on('exit', (code) => {
      failAll(new Error(closed ? 'PGlite is closed' : `The embedded database's thread ended (${code}).`));
      rejectOpen(failure!);
    });
    worker.on('message', (reply: ThreadReply) => {
      if ('ready' in reply) {
        worker.unref();
        if (!reply.ready) {
          rejectOpen(new Error(reply.error));
          return;
        }
        resolveOpen(threadDb(reply.arrayTypes));
        return;
      }
      const p = settle(reply.id);
      if ('error' in reply) p?.reject(new Error(reply.error));
      else p?.resolve(reply.bytes);
    });
  });

  // Long: the handle's methods share the connection's order and its parsers.
  function threadDb(arrayTypes: Array<{ oid: number; typarray: number }>): Db {
    // PGlite's parsers: its defaults and one for each array type of the database (its _initArrayTypes).
    const parsers: Parsers = { ...(types.parsers as Parsers) };
    for (const { oid, typarray } of arrayTypes)
      parsers[typarray] = (value: string) => types.arrayParser(value, parsers[oid] as never, typarray);
    const channels = channelListeners((channel) => {
      void script(`LISTEN "${channel.replaceAll('"', '""')}"`, false).catch(() => {});
    });
    const parsed = new Set<string>();
    let generation = 0;
    const bump = () => {
      generation++;
    };

    async function script(sql: string, sync: boolean): Promise<void> {
      rowsOfAnswer([await ask({ op: 'run', message: scriptMessage(sql), sync })], parsers, channels.tell);
    }
    async function statement<T>(sql: string, params: readonly unknown[], sync: boolean): Promise<T[]> {
      const name = preparedName(sql);
      let parsing: Promise<Uint8Array> | undefined;
      if (name && !parsed.has(name)) {
        // Counted as parsed once its Parse is asked: the thread runs it before any statement asked
        // after it, so two first calls at once parse it once.
        parsed.add(name);
        parsing = ask({ op: 'run', message: parseMessage(name, sql), sync: false });
      }
      const answering = ask({ op: 'run', message: statementMessage(sql, params, name), sync });
      if (parsing) {
        try {
          backendMessages([await parsing]);
        } catch (e) {
          parsed.delete(name!);
          await answering.catch(() => {});
          throw e;
        }
      }
      const answer = await answering;
      return rowsOfAnswer<T>([answer], parsers, channels.tell);
    }

    // The one connection: a transaction holds it from BEGIN to COMMIT or ROLLBACK, and a statement
    // outside one waits for the transactions asked before it. Otherwise statements go to the
    // thread at once: it runs them in the order they came, while this side readies the next.
    let tail: Promise<unknown> = Promise.resolve();
    let transactions = 0;
    const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
      const run = tail.then(fn);
      tail = run.catch(() => {});
      return run;
    };
    const inTurn = <T>(fn: () => Promise<T>): Promise<T> => (transactions === 0 ? fn() : exclusive(fn));
    const check = () => {
      if (closed) throw new Error('PGlite is closed');
    };

    const outside: Queryable = {
      query: <T>(sql: string, params?: unknown[]) =>
        inTurn(async () => {
          check();
          statementHook.sink?.statement(sql, undefined);
          return { rows: await statement<T>(sql, params ?? [], true) };
        }),
      exec: (sql) =>
        inTurn(async () => {
          check();
          statementHook.sink?.statement(sql, undefined);
          await script(sql, true);
        }),
    };
    const inside = (isOpen: () => boolean, mark: TxMark | undefined): Queryable => ({
      query: async <T>(sql: string, params?: unknown[]) => {
        if (!isOpen()) throw new Error('Transaction is closed');
        statementHook.sink?.statement(sql, mark);
        return { rows: await statement<T>(sql, params ?? [], false) };
      },
      exec: async (sql) => {
        if (!isOpen()) throw new Error('Transaction is closed');
        statementHook.sink?.statement(sql, mark);
        await script(sql, false);
      },
    });
    const transaction = <T>(run: (tx: Queryable) => Promise<T>, mark: TxMark | undefined): Promise<T> => {
      transactions++;
      return exclusive(async () => {
        check();
        let open = true;
        await script('BEGIN', false);
        try {
          const out = await run(inside(() => open, mark));
          open = false;
          await script('COMMIT', true);
          return out;
        } catch (e) {
          open = false;
          await script('ROLLBACK', true).catch(() => {});
          throw e;
        }
      }).finally(() => {
        transactions--;
      });
    };

    const counted = countingAuthChanges(outside, bump);
    return {
      kind: 'pglite',
      authGeneration: () => generation,
      onNotification: channels.listen,
      query: counted.query,
      exec: counted.exec,
      authChanged: counted.authChanged,
      transaction: (fn) => countedTransaction((run, mark) => transaction(run, mark), fn, bump),
      dumpDataDir: async () =>
        new Blob([(await exclusive(() => ask({ op: 'dump' }))) as Uint8Array<ArrayBuffer>]),
      close: async () => {
        if (closed) return;
        await exclusive(async () => {
          await ask({ op: 'close' }).catch(() => {});
          closed = true;
        });
        await worker.terminate().catch(() => {});
        onClose?.();
      },
    };
  }
}
