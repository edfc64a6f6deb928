import { createRequire } from 'node:module';
import { type PGlite, parse, protocol } from '@electric-sql/pglite';
import {
  type BackendMessage,
  DatabaseError,
  NotificationResponseMessage,
} from 'pg-protocol/dist/messages.js';
import { Parser } from 'pg-protocol/dist/parser.js';
import { preparedName } from './connection-common.ts';

/*
 * One statement with parameters on PGlite in one pass through the engine. PGlite's own query()
 * makes six passes (Parse, Describe statement, Bind, Describe portal, Execute, Sync), each a
 * crossing into WebAssembly with its own buffers, and parses and plans the text every time: about
 * three times the cost of the statement itself on a lookup by key. Here Parse, Bind, Describe,
 * Execute and Sync go in one message; a statement marked prepared() is parsed once per database
 * as a named statement, as node-postgres does on PostgreSQL. Parameters are turned into text as
 * node-postgres turns them (its own function), so both engines send the same values. The answer's
 * bytes are read by node-postgres' protocol parser (backendMessages) and its values turned into
 * JavaScript by PGlite's own type parsers, as its query() does.
 */

const { serialize } = protocol;
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue(value: unknown): string | Buffer | null;
};

/**
 * PGlite's answer to one pass, as node-postgres' parser reads it: the same messages PGlite's own
 * parser makes (PGlite's is a copy of it), read from Buffers over the answer's chunks, where
 * PGlite's copies every string out before decoding it. Taking the answer as a raw stream also
 * skips PGlite's parse of it, which its other paths always make: a lookup by key costs about a
 * third less CPU, a page of 50 rows less than half. (PGlite's parse also hands out LISTEN
 * notifications and notices: the notifications are handed to the database's onRawNotification
 * here; the embedded database has no notice handlers.) An error from the server is thrown once
 * the whole answer is read.
 */
function backendMessages(chunks: Uint8Array[]): BackendMessage[] {
  const out: BackendMessage[] = [];
  const parser = new Parser();
  for (const c of chunks)
    parser.parse(Buffer.from(c.buffer, c.byteOffset, c.byteLength), (m) => void out.push(m));
  const error = out.find((m): m is DatabaseError => m instanceof DatabaseError);
  if (error) throw error;
  return out;
}

/**
 * Per database, who is told of the notifications in the answers read here (PGlite's own listeners
 * hear only those of the statements it parses itself: scripts, transactions' ends).
 */
const rawNotified = new WeakMap<PGlite, (channel: string) => void>();

/** `fn(channel)` for each notification in the answer of a statement run by runStatement. */
export function onRawNotification(pglite: PGlite, fn: (channel: string) => void): void {
  rawNotified.set(pglite, fn);
}

/** The names of the prepared() statements each database has parsed. */
const parsedBy = new WeakMap<PGlite, Set<string>>();

function joined(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Parses a prepared() statement as `name` on this database, once. */
async function ensureParsed(pglite: PGlite, name: string, sql: string): Promise<void> {
  let parsed = parsedBy.get(pglite);
  if (!parsed) {
    parsed = new Set();
    parsedBy.set(pglite, parsed);
  }
  if (parsed.has(name)) return;
  await pglite.execProtocol(joined([serialize.parse({ name, text: sql }), serialize.sync()]), {
    syncToFs: false,
  });
  parsed.add(name);
}

/** The one message of a statement: Parse (unless prepared), Bind, Describe, Execute and Sync. */
function statementMessage(name: string | undefined, sql: string, params: readonly unknown[]): Uint8Array {
  return joined([
    ...(name ? [] : [serialize.parse({ text: sql })]),
    serialize.bind({ statement: name ?? '', values: params.map((v) => prepareValue(v)) }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ]);
}

/**
 * Runs one message through the engine, now (without syncToFs its work is done when the call
 * returns), and answers its raw bytes once the call's promise settles (a failure of the engine
 * itself rejects it).
 */
async function execute(pglite: PGlite, message: Uint8Array): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  await pglite.execProtocolRawStream(message, {
    syncToFs: false,
    onRawData: (d) => void chunks.push(d.slice()),
  });
  return chunks;
}

/** The rows of a statement's answer; its notifications told, its error thrown. */
function rowsOf<T>(pglite: PGlite, chunks: Uint8Array[]): { rows: T[] } {
  const messages = backendMessages(chunks);
  const notified = rawNotified.get(pglite);
  if (notified) for (const m of messages) if (m instanceof NotificationResponseMessage) notified(m.channel);
  const [result] = parse.parseResults(messages as never, pglite.parsers);
  return { rows: (result?.rows ?? []) as T[] };
}

/**
 * Runs `sql` with `params` on `pglite`. Outside a transaction it waits for any transaction in
 * flight, as PGlite's query() does, and joins the statements sent in the same turn of the event
 * loop (runTogether); inside one (`inTransaction`) it runs in it.
 */
export function runStatement<T>(
  pglite: PGlite,
  sql: string,
  params: readonly unknown[],
  inTransaction: boolean,
): Promise<{ rows: T[] }> {
  const name = preparedName(sql);
  if (!inTransaction && (!name || parsedBy.get(pglite)?.has(name)))
    return new Promise((resolve, reject) =>
      runTogether(pglite, { message: () => statementMessage(name, sql, params), resolve, reject }),
    );
  const run = () =>
    pglite._runExclusiveQuery(async () => {
      if (pglite.closed) throw new Error('PGlite is closed');
      if (name) await ensureParsed(pglite, name, sql);
      const answer = rowsOf<T>(pglite, await execute(pglite, statementMessage(name, sql, params)));
      if (!inTransaction) await pglite.syncToFs();
      return answer;
    });
  return inTransaction ? run() : pglite._runExclusiveTransaction(run);
}

/** A statement waiting for its turn's batch. */
interface Waiting {
  message(): Uint8Array;
  resolve(answer: { rows: never[] }): void;
  reject(e: unknown): void;
}

/** Per database, the statements sent since its batch was last run. */
const waitingOn = new WeakMap<PGlite, Waiting[]>();

/**
 * Statements outside a transaction, sent in one turn of the event loop (the requests read from the
 * sockets in that turn), run one after another in the next (setImmediate), each its own implicit
 * transaction, then one sync of the files, then every answer. A statement interleaved with other
 * requests' JavaScript ran 3-4 times slower than the same statement run back to back (the engine's
 * code and data out of the processor's caches), and each paid its own locks and hand-offs:
 * decisions.md, "Statements of one turn run together on PGlite". A statement's failure is its own:
 * each has its Sync, so the engine starts the next one afresh.
 */
function runTogether(pglite: PGlite, statement: Waiting): void {
  wait(pglite, [statement], 'last');
}

/** Puts `statements` in the database's next batch (`first`: ahead of those there), scheduling it. */
function wait(pglite: PGlite, statements: Waiting[], place: 'first' | 'last'): void {
  const waiting = waitingOn.get(pglite);
  if (!waiting) {
    waitingOn.set(pglite, statements);
    setImmediate(() => void runBatch(pglite));
  } else if (place === 'first') waiting.unshift(...statements);
  else waiting.push(...statements);
}

/**
 * The engine time (ms) after which a batch stops taking statements: the rest run in the next
 * turn, so a cheap statement sent beside heavy ones is not held for all of them.
 */
export const BATCH_ENGINE_MS = 4;

async function runBatch(pglite: PGlite): Promise<void> {
  const batch = waitingOn.get(pglite) ?? [];
  waitingOn.delete(pglite);
  try {
    await pglite._runExclusiveTransaction(() =>
      pglite._runExclusiveQuery(async () => {
        if (pglite.closed) throw new Error('PGlite is closed');
        // Each statement's engine work runs as it is called: the batch runs back to back, at
        // least one statement and then while under BATCH_ENGINE_MS.
        const started = performance.now();
        const running: Promise<Uint8Array[]>[] = [];
        for (const s of batch) {
          if (running.length > 0 && performance.now() - started >= BATCH_ENGINE_MS) break;
          running.push((async () => execute(pglite, s.message()))());
        }
        const later = batch.splice(running.length);
        if (later.length > 0) wait(pglite, later, 'first');
        const answers = await Promise.allSettled(running);
        // what the batch wrote is on disk before any of its statements is answered
        await pglite.syncToFs();
        for (const [i, s] of batch.entries()) {
          const answer = answers[i]!;
          if (answer.status === 'rejected') s.reject(answer.reason);
          else
            try {
              s.resolve(rowsOf(pglite, answer.value));
            } catch (e) {
              s.reject(e);
            }
        }
      }),
    );
  } catch (e) {
    for (const s of batch) s.reject(e);
  }
}
