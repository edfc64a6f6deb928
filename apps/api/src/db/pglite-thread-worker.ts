// The embedded database's own thread (pglite-thread.ts): PGlite opens the directory here, while
// the server's modules load on the main thread, and runs each statement here, so the engine's
// WebAssembly runs beside the event loop instead of on it. It takes protocol messages and answers
// their raw bytes, one message at a time, in the order they came.
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** What the main thread asks: a protocol message to run, the directory as a tarball, or the end. */
export type ThreadRequest =
  | { op: 'open'; dir: string; sessionSettings: string }
  | { id: number; op: 'run'; message: Uint8Array; sync: boolean }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

/** Its answer: the raw answer's bytes, the tarball's, or an error of the engine (not of SQL). */
export type ThreadReply =
  | { id: number; bytes: Uint8Array }
  | { id: number; error: string }
  | { ready: true; arrayTypes: Array<{ oid: number; typarray: number }> }
  | { ready: false; error: string };

/** PGlite's own query of the array types whose parsers it adds to the defaults (its _initArrayTypes). */
const ARRAY_TYPES = `SELECT b.oid, b.typarray FROM pg_catalog.pg_type a
  LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem
  WHERE a.typcategory = 'A' GROUP BY b.oid, b.typarray ORDER BY b.oid`;

const port = parentPort!;

function concat(chunks: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const c of chunks) length += c.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

async function answer(pglite: PGlite, req: Exclude<ThreadRequest, { op: 'open' }>): Promise<ThreadReply> {
  if (req.op === 'run') {
    const chunks: Uint8Array[] = [];
    await pglite.execProtocolRawStream(req.message, {
      syncToFs: false,
      onRawData: (d) => void chunks.push(d.slice()),
    });
    if (req.sync) await pglite.syncToFs();
    return { id: req.id, bytes: concat(chunks) };
  }
  if (req.op === 'dump') {
    const blob = await pglite.dumpDataDir('none');
    return { id: req.id, bytes: new Uint8Array(await blob.arrayBuffer()) };
  }
  await pglite.close();
  return { id: req.id, bytes: new Uint8Array(0) };
}

// The engine's code compiles as soon as the thread starts (it may start before the directory is
// known: pglite-thread-start.ts), on V8's background threads.
const dist = new URL('.', import.meta.resolve('@electric-sql/pglite'));
const compiled = (file: string) => WebAssembly.compile(fs.readFileSync(new URL(file, dist)));
const pgliteWasmModule = compiled('pglite.wasm');
const initdbWasmModule = compiled('initdb.wasm');
pgliteWasmModule.catch(() => {});
initdbWasmModule.catch(() => {});

async function open(dir: string, sessionSettings: string): Promise<void> {
  try {
    const pglite = await PGlite.create({
      dataDir: dir,
      extensions: { pg_trgm },
      pgliteWasmModule: await pgliteWasmModule,
      initdbWasmModule: await initdbWasmModule,
    });
    await pglite.exec(sessionSettings);
    const arrayTypes = (await pglite.query<{ oid: number; typarray: number }>(ARRAY_TYPES)).rows;
    port.postMessage({ ready: true, arrayTypes } satisfies ThreadReply);
    // One at a time, in order: the engine has one connection, and a transaction's statements must
    // follow its BEGIN.
    let tail: Promise<void> = Promise.resolve();
    port.on('message', (req: Exclude<ThreadRequest, { op: 'open' }>) => {
      tail = tail.then(async () => {
        let reply: ThreadReply;
        try {
          reply = await answer(pglite, req);
        } catch (e) {
          reply = { id: req.id, error: e instanceof Error ? e.message : String(e) };
        }
        port.postMessage(reply, 'bytes' in reply ? [reply.bytes.buffer as ArrayBuffer] : []);
        if (req.op === 'close') port.close();
      });
    });
  } catch (e) {
    port.postMessage({
      ready: false,
      error: e instanceof Error ? (e.stack ?? e.message) : String(e),
    } satisfies ThreadReply);
    port.close();
  }
}

port.once('message', (req: ThreadRequest) => {
  if (req.op === 'open') void open(req.dir, req.sessionSettings);
});
