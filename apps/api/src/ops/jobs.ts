import type { LeaseStore } from '../lib/leases.ts';

/** Work done now and then, by one instance of all those sharing the database. */
export interface PeriodicJob {
  name: string;
  everyMs: number;
  /** `woken`: the run is one that wakeOn asked for, not the timer's. */
  run(woken?: boolean): Promise<unknown>;
  /**
   * Subscribes `wake` to what makes a run due before the timer's next tick (the trail's commits);
   * answers the unsubscribe. A wake-up while a run is under way makes one more run after it.
   */
  wakeOn?(wake: () => void): () => void;
}

export type JobOutcome = 'ran' | 'skipped' | 'failed';

interface Logger {
  warn(obj: object, msg: string): void;
}

export interface JobRunner {
  /** One tick of a job, as its timer runs it: take or renew the lease, then run. */
  tick(name: string): Promise<JobOutcome>;
  /** Stops the timers, waits for runs under way and gives up the leases held. */
  stop(): Promise<void>;
}

/**
 * A lease outlives a tick comfortably, so the holder renews it before it lapses and a slow run
 * is not taken over; after a holder stops uncleanly another instance waits this long.
 */
export const leaseTtlMs = (everyMs: number): number => Math.max(2 * everyMs, 60_000);

/**
 * Runs each job every `everyMs` on this instance, but only while this instance holds the job's
 * lease: with several instances the job runs on one. A tick that finds the previous run of the
 * same job still going is skipped. The jobs themselves claim their work in SQL, so even two runs
 * at once (a lease lost to a paused process) do nothing twice.
 */
export function startJobs(opts: {
  jobs: PeriodicJob[];
  leases: LeaseStore;
  /** This instance's id, the holder of the leases it takes. */
  holder: string;
  log: Logger;
  onOutcome?(job: string, outcome: JobOutcome): void;
  /** false: no timers (tests call tick). */
  timers?: boolean;
}): JobRunner {
  const byName = new Map(opts.jobs.map((j) => [j.name, j]));
  const running = new Map<string, Promise<JobOutcome>>();
  const held = new Set<string>();
  let stopped = false;

  /** Jobs woken while a run of theirs was under way: one more run each when it ends. */
  const again = new Set<string>();
  /**
   * Jobs whose lease another instance held at the last look: their wake-ups are that instance's
   * (this one would spend a lease statement each to learn it); the timer looks again.
   */
  const heldElsewhere = new Set<string>();

  async function attempt(job: PeriodicJob, woken: boolean): Promise<JobOutcome> {
    try {
      if (!(await opts.leases.acquire(job.name, opts.holder, leaseTtlMs(job.everyMs)))) {
        held.delete(job.name);
        heldElsewhere.add(job.name);
        return 'skipped';
      }
      held.add(job.name);
      heldElsewhere.delete(job.name);
      await job.run(woken);
      return 'ran';
    } catch (err) {
      opts.log.warn({ err, job: job.name }, 'periodic job failed');
      return 'failed';
    }
  }

  function tick(name: string, woken = false): Promise<JobOutcome> {
    const job = byName.get(name);
    if (!job) throw new Error(`no periodic job named ${name}`);
    const busy = running.get(name);
    if (stopped || busy) return Promise.resolve('skipped');
    const p = attempt(job, woken).then((outcome) => {
      running.delete(name);
      opts.onOutcome?.(name, outcome);
      if (again.delete(name)) void tick(name, true);
      return outcome;
    });
    running.set(name, p);
    return p;
  }

  const timers =
    opts.timers === false
      ? []
      : opts.jobs.map((j) => {
          const t = setInterval(() => void tick(j.name), j.everyMs);
          t.unref();
          return t;
        });

  const woken = opts.jobs.flatMap((j) =>
    j.wakeOn
      ? [
          j.wakeOn(() => {
            if (stopped || heldElsewhere.has(j.name)) return;
            if (running.has(j.name)) again.add(j.name);
            else void tick(j.name, true);
          }),
        ]
      : [],
  );

  return {
    tick: (name) => tick(name),
    async stop() {
      stopped = true;
      for (const unsubscribe of woken) unsubscribe();
      for (const t of timers) clearInterval(t);
      await Promise.all(running.values());
      await Promise.all(
        [...held].map((name) =>
          opts.leases.release(name, opts.holder).catch((err: unknown) => {
            opts.log.warn({ err, job: name }, 'could not give up a job lease');
          }),
        ),
      );
      held.clear();
    },
  };
}
