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

/**
 * Runs `sql` with `params` on `pglite`. Outside a transaction it waits for any transaction in
 * flight, as PGlite's query() does; inside one (`inTransaction`) it runs in it.
 */
export function runStatement<T>(
  pglite: PGlite,
  sql: string,
  params: readonly unknown[],
  inTransaction: boolean,
): Promise<{ rows: T[] }> {
  const run = () =>
    pglite._runExclusiveQuery(async () => {
      if (pglite.closed) throw new Error('PGlite is closed');
      const name = preparedName(sql);
      if (name) await ensureParsed(pglite, name, sql);
      const message = joined([
        ...(name ? [] : [serialize.parse({ text: sql })]),
        serialize.bind({ statement: name ?? '', values: params.map((v) => prepareValue(v)) }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]);
      const chunks: Uint8Array[] = [];
      await pglite.execProtocolRawStream(message, {
        syncToFs: false,
        onRawData: (d) => void chunks.push(d.slice()),
      });
      const messages = backendMessages(chunks);
      const notified = rawNotified.get(pglite);
      if (notified)
        for (const m of messages) if (m instanceof NotificationResponseMessage) notified(m.channel);
      if (!inTransaction) await pglite.syncToFs();
      const [result] = parse.parseResults(messages as never, pglite.parsers);
      return { rows: (result?.rows ?? []) as T[] };
    });
  return inTransaction ? run() : pglite._runExclusiveTransaction(run);
}
