import fs from 'node:fs';
import os from 'node:os';

/**
 * Lowers the CPU priority (raises the nice value) of every thread of this process but the event
 * loop's: libuv's pool, where argon2 hashes passwords (and files are read), and V8's helpers
 * (background compilers, GC). When the cores are busy, serving requests then goes first: during a
 * burst of sign-ins, two hashes at once took the two cores from the searches, whose p95 rose by
 * 11–22% (bench/api-load.bench.ts; the target is 20%), 6–14% with this. An idle core is still
 * used in full, so sign-ins a second do not drop.
 *
 * `nice` is relative to the process's own (a server started under `nice -n 5` keeps its helpers
 * 10 below its event loop, at 15), capped at 19. Linux only (threads are tasks in /proc, and
 * setpriority on a thread id affects that thread); elsewhere, or with `nice` 0, nothing happens.
 * Answers how many threads it lowered.
 */
export async function lowerHelperThreads(nice: number): Promise<number> {
  if (nice <= 0 || os.platform() !== 'linux') return 0;
  // libuv starts its pool on first use; use it, so that its threads exist to be lowered
  await fs.promises.access(os.tmpdir());
  let tasks: string[];
  try {
    tasks = fs.readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  const target = Math.min(19, os.getPriority() + nice);
  let lowered = 0;
  for (const task of tasks) {
    const tid = Number(task);
    if (tid === process.pid) continue; // the main thread: the event loop, and PGlite with it
    try {
      os.setPriority(tid, target);
      lowered++;
    } catch {
      // a thread that ended meanwhile
    }
  }
  return lowered;
}
