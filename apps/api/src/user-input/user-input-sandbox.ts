import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { ErrorName } from '@sac/contract/errors';
import { AppError } from '../lib/app-error.ts';
import type { UserInputTasks } from './user-input-worker.mjs';

export interface SandboxOptions {
  /**
   * The CPU time a task may spend before its worker is ended (USER_INPUT_BUDGET_MS); counted as
   * the worker thread's own CPU where Linux tells it, else as wall time.
   */
  budgetMs: number;
  /** Tasks that may wait for the worker; past that a call answers 503 at once. */
  maxWaiting: number;
  /** Nice value of the worker thread (Linux), as for the other helper threads. */
  nice: number;
  /** What a task over budget and a call past the queue answer (default: 971 and 972). */
  errors?: { overBudget: ErrorName; busy: ErrorName };
}

interface Pending {
  run(): void;
}

/** How long a new worker may take to load before the task answers 503 (not the user's fault). */
const START_UP_MS = 20_000;

/**
 * A task's wall time may run to this many budgets while its thread has not yet spent its budget of
 * CPU (a host too busy to give a low-priority thread a core): past that it is ended all the same.
 */
const WALL_BUDGETS = 10;

/** Linux's clock ticks per second (USER_HZ) in /proc's CPU times. */
const TICKS_PER_SECOND = 100;

/** The CPU time (ms) thread `tid` of this process has spent, or undefined where /proc cannot tell. */
function threadCpuMs(tid: number | undefined): number | undefined {
  if (tid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces), from the state (field 3) on.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * Runs users' schemas and patterns on one worker thread, one task at a time, each with a time
 * budget, counted from when the loaded worker takes it. A task over budget ends the worker (V8 stops
 * even a tight loop) and answers 400; the next task starts a new worker. Whatever a user sends, the event loop spends only a message each way,
 * and at most one core does this work.
 */
export class UserInputSandbox {
  private worker: { thread: Worker; loaded: Promise<void>; tid?: number } | undefined;
  private busy = false;
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers ended for overrunning their budget since start (for tests and metrics). */
  stoppedTasks = 0;

  private readonly overBudget: ErrorName;
  private readonly busyError: ErrorName;

  private readonly opts: SandboxOptions;

  constructor(opts: SandboxOptions) {
    this.opts = opts;
    this.overBudget = opts.errors?.overBudget ?? 'userInputTooCostly';
    this.busyError = opts.errors?.busy ?? 'checkerBusy';
  }

  async run<K extends keyof UserInputTasks>(
    kind: K,
    input: UserInputTasks[K]['input'],
  ): Promise<UserInputTasks[K]['output']> {
    if (this.closed) throw new AppError('unavailable');
    if (this.busy) {
      if (this.queue.length >= this.opts.maxWaiting)
        throw Object.assign(new AppError(this.busyError), { retryAfterSeconds: 1 });
      await new Promise<void>((resolve) => this.queue.push({ run: resolve }));
      if (this.closed) {
        this.queue.shift()?.run();
        throw new AppError('unavailable');
      }
    }
    this.busy = true;
    try {
      return await this.runNow(kind, input);
    } finally {
      const next = this.queue.shift();
      if (next) next.run();
      else this.busy = false;
    }
  }

  private spawn(): { thread: Worker; loaded: Promise<void>; tid?: number } {
    const w = new Worker(new URL('./user-input-worker.mjs', import.meta.url), {
      workerData: { nice: this.opts.nice },
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    w.unref();
    const forget = () => {
      if (this.worker?.thread === w) this.worker = undefined;
    };
    w.on('error', forget);
    w.on('exit', forget);
    const loaded = new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        w.off('message', onReady);
        w.off('exit', onExit);
      };
      const onReady = (m: { ready?: boolean; tid?: number }) => {
        if (!m.ready) return;
        done();
        spawned.tid = m.tid;
        resolve();
      };
      const onExit = () => {
        done();
        reject(new AppError('unavailable'));
      };
      const timer = setTimeout(() => {
        done();
        forget();
        void w.terminate();
        reject(new AppError('unavailable'));
      }, START_UP_MS);
      w.on('message', onReady);
      w.once('exit', onExit);
    });
    loaded.catch(() => {});
    const spawned: { thread: Worker; loaded: Promise<void>; tid?: number } = { thread: w, loaded };
    return spawned;
  }

  private async runNow<K extends keyof UserInputTasks>(
    kind: K,
    input: UserInputTasks[K]['input'],
  ): Promise<UserInputTasks[K]['output']> {
    this.worker ??= this.spawn();
    const spawned = this.worker;
    const { thread: worker, loaded } = spawned;
    await loaded;
    const id = this.nextId++;
    const budget = this.opts.budgetMs;
    const startedAt = Date.now();
    const cpuAtStart = threadCpuMs(spawned.tid);
    return new Promise((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
      };
      const onMessage = (m: { id: number; output?: unknown; failure?: string }) => {
        if (m.id !== id) return;
        finish();
        if (m.failure !== undefined) reject(new AppError(this.overBudget));
        else resolve(m.output as UserInputTasks[K]['output']);
      };
      // The worker died under the task (out of memory, say): the user's input did that.
      const onExit = () => {
        finish();
        reject(new AppError(this.overBudget));
      };
      const stop = () => {
        finish();
        this.stoppedTasks++;
        if (this.worker?.thread === worker) this.worker = undefined;
        void worker.terminate();
        // Refused as busy (a preview), it says when to try again.
        const retry = this.overBudget === this.busyError ? { retryAfterSeconds: 1 } : {};
        reject(Object.assign(new AppError(this.overBudget), retry));
      };
      // The budget is the task's CPU: a thread the host gave little of a core (its low priority,
      // a busy machine) is waited for, up to WALL_BUDGETS budgets of wall time.
      const check = () => {
        const now = threadCpuMs(spawned.tid);
        const spent = now === undefined || cpuAtStart === undefined ? budget : now - cpuAtStart;
        const wall = Date.now() - startedAt;
        if (spent >= budget || wall >= budget * WALL_BUDGETS) stop();
        else timer = setTimeout(check, Math.max(budget - spent, 20));
      };
      let timer = setTimeout(check, budget);
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.postMessage({ id, kind, input });
    });
  }

  /** Ends the worker; calls after this answer 503. */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.shift()?.run();
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.thread.terminate();
  }
}
