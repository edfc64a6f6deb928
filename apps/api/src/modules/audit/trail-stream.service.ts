import type { AppContext } from '../../app-context.ts';
import { httpCollectorSink, syslogSink, type TrailSink } from './trail-sinks.ts';
import {
  cursorOf,
  PENDING_COUNT_CAP,
  readAfter,
  type StreamCursor,
  sinkStandings,
  storeCursor,
  storeSinkError,
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

/** One run of the stream for every sink, and what it keeps between runs of this process. */
export function trailStreamer(ctx: Pick<AppContext, 'db' | 'clock' | 'metrics'>, sinks: TrailSink[]) {
  /** Per sink, the failure last thrown to the job runner (which logs it). */
  const lastSaid = new Map<string, string>();
  /** Per sink, the batches handed over lately: where each began and when (ms). */
  const recent = new Map<string, Array<{ before: StreamCursor; at: number }>>();

  async function runSink(sink: TrailSink): Promise<void> {
    let cursor = await cursorOf(ctx.db, sink.name);
    const now = Date.now();
    const kept = (recent.get(sink.name) ?? []).filter((b) => now - b.at <= RESEND_WINDOW_MS);
    if (kept.length > 0 && sink.droppedSince?.(kept[0]!.at)) {
      cursor = kept[0]!.before;
      await storeCursor(ctx.db, sink.name, cursor, 0, ctx.clock.now());
      kept.length = 0;
    }
    recent.set(sink.name, kept);
    const until = now + RUN_BUDGET_MS;
    for (;;) {
      const batch = await readAfter(ctx.db, cursor, BATCH_ROWS);
      if (batch.length === 0) {
        ctx.metrics.trailStreamLag.set({ sink: sink.name }, 0);
        return;
      }
      try {
        await sink.send(batch.map((b) => b.event));
      } catch (err) {
        // the lag goes on growing while the sink is down: the oldest row waiting is the first of this batch
        const waiting = (ctx.clock.now().getTime() - Date.parse(batch[0]!.event.At)) / 1000;
        ctx.metrics.trailStreamLag.set({ sink: sink.name }, Math.max(0, waiting));
        await storeSinkError(ctx.db, sink.name, (err as Error).message, ctx.clock.now());
        throw err;
      }
      kept.push({ before: cursor, at: Date.now() });
      const last = batch[batch.length - 1]!;
      cursor = last.cursor;
      await storeCursor(ctx.db, sink.name, cursor, batch.length, ctx.clock.now());
      ctx.metrics.trailStreamRows.inc({ sink: sink.name }, batch.length);
      const behind = batch.length === BATCH_ROWS;
      const age = (ctx.clock.now().getTime() - Date.parse(last.event.At)) / 1000;
      ctx.metrics.trailStreamLag.set({ sink: sink.name }, behind ? Math.max(0, age) : 0);
      if (!behind || Date.now() > until) return;
    }
  }

  return {
    /**
     * Sends what waits to every sink, each on its own (a slow or failing one never holds another
     * back); a sink that fails is noted and tried again next run.
     */
    async run(): Promise<void> {
      const outcomes = await Promise.allSettled(sinks.map((sink) => runSink(sink)));
      // A sink down for hours fails every second: the log says so when its failure starts or
      // changes, not each time (the status, the metric and the home screen say it all along).
      let fresh: unknown;
      outcomes.forEach((o, i) => {
        const name = sinks[i]!.name;
        const said = o.status === 'rejected' ? String((o.reason as Error)?.message ?? o.reason) : undefined;
        if (said !== undefined && said !== lastSaid.get(name)) fresh ??= (o as PromiseRejectedResult).reason;
        if (said === undefined) lastSaid.delete(name);
        else lastSaid.set(name, said);
      });
      if (fresh) throw fresh;
    },
    close(): void {
      for (const s of sinks) s.close();
    },
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
