import { Worker } from 'node:worker_threads';

/*
 * The embedded database's thread (pglite-thread-worker.ts), which main.ts may start before the
 * server's modules load: it loads PGlite and compiles the engine while they do, and opens the
 * directory once openPgliteThread names it. Only Node's worker_threads here, so that it starts
 * at once.
 */

let early: Worker | undefined;

const spawn = () => {
  const worker = new Worker(new URL('./pglite-thread-worker.ts', import.meta.url));
  // A thread nobody opened does not keep the process alive.
  worker.unref();
  return worker;
};

/** Starts the thread ahead of its open. */
export function startPgliteThread(): void {
  if (early) return;
  const worker = spawn();
  // A thread that failed before its open is dropped: the open starts another, whose failure it hears.
  worker.once('error', () => {
    if (early === worker) early = undefined;
  });
  early = worker;
}

/** The thread started ahead, or a new one. */
export function pgliteThread(): Worker {
  const worker = early ?? spawn();
  early = undefined;
  return worker;
}
