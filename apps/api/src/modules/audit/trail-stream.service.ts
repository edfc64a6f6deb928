import type { AppContext } from '../../app-context.ts';
import { httpCollectorSink, syslogSink, type TrailSink } from './trail-sinks.ts';
import {
  cursorOf,
  PENDING_COUNT_CAP,
  readAfter,
  rowsAfter,
  type StreamCursor,
  sinkStandings,
  storeCursor,
  storeSinkError,
  TRAIL_COMMITTED_CHANNEL,
} from './trail-stream.repo.ts';

/** The sinks and their framing, for the bench that times them beside a bare client. */
export { httpCollectorSink, octetFrame, syslogMessage, syslogSink } from './trail-sinks.ts';

/**
 * The staff trail streamed to the operator's SIEM: every row, in the order of the transactions
 * that wrote them, from a cursor stored per sink after each batch. Nothing is lost across a
 * restart or a kill -9 (the cursor is behind what was sent); a row may go twice, with its id.
 */

/** Rows per batch read and sent. */
const BATCH_ROWS = 500;
/** How long one run keeps sending before giving the tick back (it goes on at the next one). */
const RUN_BUDGET_MS = 2_000;
/** The first pause before reading again rows an older transaction still running holds back. */
const HELD_BACK_FIRST_MS = 10;
/** Batches sent this long before a dropped syslog connection are sent again. */
const RESEND_WINDOW_MS = 10_000;

/** The sinks the configuration sets (none: no stream). */
export function configuredSinks(ctx: Pick<AppContext, 'config'>): TrailSink[] {
  const c = ctx.config.trailStream;
  const sinks: TrailSink[] = [];
  if (c.syslogUrl) sinks.push(syslogSink(c.syslogUrl, c.syslogCaFile ? { caFile: c.syslogCaFile } : {}));
  if (c.httpUrl) sinks.push(httpCollectorSink(c.httpUrl, c.httpToken));
  return sinks;
}

/** What a run has sent to a sink and keeps for the stream: metrics, the lag. */
function noteSent(
  ctx: Pick<AppContext, 'clock' | 'metrics'>,
  sink: string,
  batch: Awaited<ReturnType<typeof readAfter>>,
) {
  ctx.metrics.trailStreamRows.inc({ sink }, batch.length);
  const behind = batch.length === BATCH_ROWS;
  const age = (ctx.clock.now().getTime() - Date.parse(batch.at(-1)!.event.At)) / 1000;
  ctx.metrics.trailStreamLag.set({ sink }, behind ? Math.max(0, age) : 0);
}

/**
 * Notes each sink's outcome in `lastSaid` and answers the first failure that is new. A sink down
 * for hours fails every second: the log says so when its failure starts or changes, not each time
 * (the status, the metric and the home screen say it all along).
 */
function freshFailure(
  outcomes: PromiseSettledResult<void>[],
  sinks: TrailSink[],
  lastSaid: Map<string, string>,
): unknown {
  let fresh: unknown;
  outcomes.forEach((o, i) => {
    const name = sinks[i]!.name;
    const said = o.status === 'rejected' ? String((o.reason as Error)?.message ?? o.reason) : undefined;
    if (said !== undefined && said !== lastSaid.get(name)) fresh ??= (o as PromiseRejectedResult).reason;
    if (said === undefined) lastSaid.delete(name);
    else lastSaid.set(name, said);
  });
  return fresh;
}

/**
 * The promise, marked as handled: a read ahead or a cursor store that fails while a batch is
 * being sent would otherwise be an unhandled rejection (which ends the process); its failure
 * still surfaces where it is awaited.
 */
function awaitedLater<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

/** One run of the stream for every sink, and what it keeps between runs of this process. */
export function trailStreamer(ctx: Pick<AppContext, 'db' | 'clock' | 'metrics'>, sinks: TrailSink[]) {
  /** Per sink, the failure last thrown to the job runner (which logs it). */
  const lastSaid = new Map<string, string>();
  /** Per sink, the batches handed over lately: where each began and when (ms). */
  const recent = new Map<string, Array<{ before: StreamCursor; at: number }>>();

  /** Where a run starts: the stored cursor, or where the batches a dropped connection may have lost began. */
  async function startOf(sink: TrailSink, now: number): Promise<StreamCursor> {
    const cursor = await cursorOf(ctx.db, sink.name);
    const kept = (recent.get(sink.name) ?? []).filter((b) => now - b.at <= RESEND_WINDOW_MS);
    recent.set(sink.name, kept);
    if (kept.length === 0 || !sink.droppedSince?.(kept[0]!.at)) return cursor;
    const back = kept[0]!.before;
    await storeCursor(ctx.db, sink.name, back, 0, ctx.clock.now());
    kept.length = 0;
    return back;
  }

  /**
   * Sends batch after batch until the trail is read, reading the next batch while the last one is
   * sent; a batch's cursor is stored once it was sent (after the one before it). Rows committed
   * beyond what a short batch held (kept back by an older transaction still running) are read
   * again after a pause that doubles, within the run's budget, by a run woken by a commit (the poll
   * comes again anyway).
   */
  async function runSink(sink: TrailSink, woken: boolean): Promise<void> {
    const now = Date.now();
    let cursor = await startOf(sink, now);
    const kept = recent.get(sink.name)!;
    const until = now + RUN_BUDGET_MS;
    let next = awaitedLater(readAfter(ctx.db, cursor, BATCH_ROWS));
    let storing = Promise.resolve();
    let pauseMs = HELD_BACK_FIRST_MS;
    try {
      for (;;) {
        const batch = await next;
        const full = batch.length === BATCH_ROWS;
        if (full) next = awaitedLater(readAfter(ctx.db, batch.at(-1)!.cursor, BATCH_ROWS));
        if (batch.length > 0) {
          try {
            await sink.send(batch.map((b) => b.event));
          } catch (err) {
            // the lag goes on growing while the sink is down: the oldest row waiting is the first of this batch
            const waiting = (ctx.clock.now().getTime() - Date.parse(batch[0]!.event.At)) / 1000;
            ctx.metrics.trailStreamLag.set({ sink: sink.name }, Math.max(0, waiting));
            await storing;
            await storeSinkError(ctx.db, sink.name, (err as Error).message, ctx.clock.now());
            throw err;
          }
          kept.push({ before: cursor, at: Date.now() });
          cursor = batch.at(-1)!.cursor;
          const to = cursor;
          storing = awaitedLater(
            storing.then(() => storeCursor(ctx.db, sink.name, to, batch.length, ctx.clock.now())),
          );
          noteSent(ctx, sink.name, batch);
        }
        if (full) {
          if (Date.now() > until) return;
          continue;
        }
        if (!woken || Date.now() + pauseMs > until || !(await rowsAfter(ctx.db, cursor))) {
          if (batch.length === 0) ctx.metrics.trailStreamLag.set({ sink: sink.name }, 0);
          return;
        }
        await new Promise((r) => setTimeout(r, pauseMs));
        pauseMs *= 2;
        next = awaitedLater(readAfter(ctx.db, cursor, BATCH_ROWS));
      }
    } finally {
      // a batch read ahead of a run that ended is read again next run
      await storing;
    }
  }

  return {
    /**
     * Sends what waits to every sink, each on its own (a slow or failing one never holds another
     * back); a sink that fails is noted and tried again next run.
     */
    async run(woken = false): Promise<void> {
      // a wake-up is for the sinks that take rows: one failing is tried again at the poll's pace
      const due = woken ? sinks.filter((s) => !lastSaid.has(s.name)) : sinks;
      const outcomes = await Promise.allSettled(due.map((sink) => runSink(sink, woken)));
      const fresh = freshFailure(outcomes, due, lastSaid);
      if (fresh) throw fresh;
    },
    /** Whether a sink took its rows last time (or was not tried yet): a wake-up is worth a run. */
    someSinkTaking: (): boolean => sinks.some((s) => !lastSaid.has(s.name)),
    close(): void {
      for (const s of sinks) s.close();
    },
  };
}

/**
 * Calls `listener` after each commit that added rows to the staff trail, on any instance sharing
 * the database (PostgreSQL: a NOTIFY of migration 0071's trigger, heard on the connection that
 * listens for auth changes; PGlite: in this process), and whenever such a commit may have gone
 * unheard (that connection made again). Answers the unsubscribe. For whatever reads the trail as
 * it grows (the SIEM stream, webhooks): a wake-up, not a promise of new rows; keep a poll as well.
 */
export function onTrailCommitted(ctx: Pick<AppContext, 'db'>, listener: () => void): () => void {
  return ctx.db.onNotification?.(TRAIL_COMMITTED_CHANNEL, listener) ?? (() => {});
}

/**
 * The periodic job that streams the trail (ops/periodic.ts, and the bench that times it): a run
 * every `everyMs`, and one as soon as trail rows commit.
 */
export function trailStreamJob(
  ctx: Pick<AppContext, 'db' | 'clock' | 'metrics'>,
  sinks: TrailSink[],
  everyMs: number,
) {
  const streamer = trailStreamer(ctx, sinks);
  return {
    name: 'trail-stream',
    everyMs,
    run: (woken?: boolean) => streamer.run(woken),
    wakeOn: (wake: () => void) =>
      onTrailCommitted(ctx, () => {
        if (streamer.someSinkTaking()) wake();
      }),
    close: () => streamer.close(),
  };
}

/** The stream's standing for the Auditor: each configured sink, what it sent, what waits. */
export async function trailStreamStatus(ctx: Pick<AppContext, 'db' | 'clock' | 'config'>) {
  const sinks = configuredSinks(ctx);
  const found = await sinkStandings(
    ctx.db,
    sinks.map((s) => s.name),
  );
  const now = ctx.clock.now().getTime();
  return {
    Sinks: sinks.map((s) => {
      const r = found.find((f) => f.sink === s.name);
      const pending = Number(r?.pending ?? 0);
      return {
        Sink: s.name,
        Target: s.target,
        SentRows: Number(r?.sent_rows ?? 0),
        LastSentAt: r?.last_sent_at ?? null,
        PendingRows: Math.min(pending, PENDING_COUNT_CAP),
        PendingCapped: pending > PENDING_COUNT_CAP,
        LagSeconds: r?.oldest_pending_at
          ? Math.max(0, Math.round((now - Date.parse(r.oldest_pending_at)) / 1000))
          : 0,
        LastError: r?.last_error ?? null,
        LastErrorAt: r?.last_error_at ?? null,
      };
    }),
  };
}

/** The trail's rows in the order of the transactions that wrote them, for the webhooks' fan-out. */
export { readAfter as readTrailAfter } from './trail-stream.repo.ts';
