import { sql } from 'kysely';
import type { Queryable } from '../db/db.ts';
import { execute, qb, rows } from '../db/sql.ts';
import { outsideCalls } from '../db/statement-log.ts';
import type { Clock } from '../lib/clock.ts';
import type { MailMessage, MailTransport } from './mailer.ts';

/** Failures after which a message is given up (about a day of retries with the backoff below). */
export const MAIL_MAX_ATTEMPTS = 10;
/** By default, a claimed row is another instance's to retry once this passes without a result. */
const MAIL_CLAIM_MS = 5 * 60_000;
const BATCH = 20;
/** After a message is queued, how long the outbox looks for it to be committed before leaving it to the job. */
const WATCH_MS = 3_000;

/** 30 s after the first failure, doubling, at most an hour. */
export const retryDelayMs = (attempts: number): number => Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);

/** Claims up to BATCH due rows until `until` (rows claimed elsewhere are skipped), counting the attempt. */
function claimDue(db: Queryable, now: Date, until: Date) {
  return rows(
    db,
    qb
      .updateTable('mail_outbox')
      .set((eb) => ({ claimed_until: until, attempts: eb('attempts', '+', 1) }))
      .where(
        'id',
        'in',
        qb
          .selectFrom('mail_outbox')
          .select('id')
          .where('sent_at', 'is', null)
          .where('failed_at', 'is', null)
          .where('next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(BATCH)
          .forUpdate()
          .skipLocked(),
      )
      .returning((eb) => [
        'id',
        'to_address',
        'subject',
        'body_text',
        'body_html',
        eb.ref('headers').$castTo<Record<string, string> | null>().as('headers'),
        'message_key',
        'attempts',
      ]),
  );
}
type Row = Awaited<ReturnType<typeof claimDue>>[number];

interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface Mailer {
  /**
   * Writes a message to the outbox through `q`: pass the transaction of the change that causes the
   * message, so both are kept or neither. It is sent once that has committed.
   */
  send(q: Queryable, message: MailMessage): Promise<void>;
  /**
   * Writes many messages in one statement through `q`, as send() does one; answers their outbox
   * ids in the order given (a customer notice's batch keeps each recipient's id).
   */
  sendAll(q: Queryable, messages: readonly MailMessage[]): Promise<number[]>;
  /**
   * Runs `work` (which queues mail) just after the current request has been answered, so that the
   * answer's timing cannot tell whether there was mail to write. flush() waits for it.
   */
  afterAnswer(work: () => Promise<void>): void;
  /** Sends every message queued so far that is due, and waits for sends under way. */
  flush(): Promise<void>;
  /** As flush(), without waiting for work after answers (for that work itself: a notice sending run). */
  sendDue(): Promise<void>;
  /**
   * Looks through the outbox every `everyMs` on this instance and sends what is due (retries, and
   * messages left by a stopped or killed instance). Every instance polls: claims keep each message
   * to one sender, and no job lease makes mail wait for a dead holder's lease to lapse.
   */
  poll(everyMs: number): void;
  /** Stops looking for new messages; sends under way finish, then the transport's connections close. */
  close(): void;
  /** Where messages go, for the start-up banner. */
  readonly description: string;
}

interface OutboxOptions {
  db: Queryable;
  clock: Clock;
  transport: MailTransport;
  log: Logger;
  /** How long a claim holds (MAIL_CLAIM_SECONDS): after a crash mid-send, the wait before a retry. */
  claimMs?: number;
}

/**
 * Delivers one row; answers the write of its outcome, which the caller awaits with the batch's
 * others: the next delivery need not wait for this commit (on PostgreSQL a commit is a WAL
 * flush, as long as a delivery over a pooled connection), and an outcome not yet written is, on
 * a crash, the same as a delivery not yet recorded.
 */
async function sendRow(opts: OutboxOptions, row: Row): Promise<{ written: Promise<unknown> }> {
  // Delivery is at least once (a crash after the server took the mail and before sent_at is
  // written sends it again); the row's own Message-ID makes a second copy the same message.
  const message: MailMessage = {
    to: row.to_address,
    subject: row.subject,
    text: row.body_text,
    messageKey: `outbox-${row.id}.${row.message_key}`,
  };
  if (row.body_html !== null) message.html = row.body_html;
  if (row.headers !== null) message.headers = row.headers;
  try {
    await opts.transport.deliver(message);
  } catch (err) {
    const now = opts.clock.now();
    const giveUp = row.attempts >= MAIL_MAX_ATTEMPTS;
    opts.log.error(
      // The outbox row names the recipient; the log does not (personal data).
      { err, mailId: row.id, attempts: row.attempts, givenUp: giveUp },
      'mail delivery failed',
    );
    const written = execute(
      opts.db,
      qb
        .updateTable('mail_outbox')
        .set({
          claimed_until: null,
          last_error: String((err as Error)?.message ?? err).slice(0, 500),
          next_attempt_at: new Date(now.getTime() + retryDelayMs(row.attempts)),
          failed_at: giveUp ? now : null,
        })
        .where('id', '=', row.id),
    );
    return { written };
  }
  const written = execute(
    opts.db,
    qb
      .updateTable('mail_outbox')
      .set({ sent_at: opts.clock.now(), claimed_until: null })
      .where('id', '=', row.id),
  );
  return { written };
}

/** Claims a batch of due rows (rows claimed elsewhere are skipped) and sends them; answers how many. */
async function sendDueBatch(opts: OutboxOptions, claimMs: number): Promise<number> {
  const now = opts.clock.now();
  const claimed = await claimDue(opts.db, now, new Date(now.getTime() + claimMs));
  const outcomes: Promise<unknown>[] = [];
  try {
    for (const row of claimed) {
      const { written } = await sendRow(opts, row);
      // Kept from rejecting unobserved while later rows are delivered; awaited below.
      written.catch(() => {});
      outcomes.push(written);
    }
  } finally {
    await Promise.allSettled(outcomes);
  }
  await Promise.all(outcomes);
  return claimed.length;
}

/** Writes one message to the outbox through `q`, due at once. */
async function queueOne(q: Queryable, now: Date, m: MailMessage): Promise<void> {
  await execute(
    q,
    qb.insertInto('mail_outbox').values({
      created_at: now,
      to_address: m.to,
      subject: m.subject,
      body_text: m.text,
      body_html: m.html ?? null,
      headers: m.headers ? JSON.stringify(m.headers) : null,
      next_attempt_at: now,
    }),
  );
}

/** Writes many messages to the outbox through `q` in one statement; answers their ids in the order given. */
async function queueAll(q: Queryable, now: Date, ms: readonly MailMessage[]): Promise<number[]> {
  const m = sql<{
    to_address: string;
    subject: string;
    body_text: string;
    body_html: string | null;
    headers: string | null;
    n: number;
  }>`unnest(
      ${ms.map((m) => m.to)}::text[],
      ${ms.map((m) => m.subject)}::text[],
      ${ms.map((m) => m.text)}::text[],
      ${ms.map((m) => m.html ?? null)}::text[],
      ${ms.map((m) => (m.headers ? JSON.stringify(m.headers) : null))}::jsonb[]) WITH ORDINALITY`.as<'m'>(
    sql`m (to_address, subject, body_text, body_html, headers, n)`,
  );
  const ids = await rows(
    q,
    qb
      .insertInto('mail_outbox')
      .columns([
        'created_at',
        'to_address',
        'subject',
        'body_text',
        'body_html',
        'headers',
        'next_attempt_at',
      ])
      .expression(
        qb
          .selectFrom(m)
          .select([
            sql<Date>`${now}::timestamptz`.as('created_at'),
            'm.to_address',
            'm.subject',
            'm.body_text',
            'm.body_html',
            'm.headers',
            sql<Date>`${now}::timestamptz`.as('next_attempt_at'),
          ])
          .orderBy('m.n'),
      )
      .returning('id'),
  );
  // Identity values are drawn in the order of the rows inserted, which is m.n's.
  return ids.map((row) => Number(row.id)).sort((a, b) => a - b);
}

/** The durable mailer: an outbox table in the database, sent through `transport`. */
export function createOutboxMailer(opts: OutboxOptions): Mailer {
  const claimMs = opts.claimMs ?? MAIL_CLAIM_MS;
  let sending: Promise<number> | undefined;
  let watchUntil = 0;
  let watcher: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let poller: ReturnType<typeof setInterval> | undefined;
  const deferred = new Set<Promise<void>>();

  /** One pass at a time in this process: a pass started while one runs waits for it, then runs. */
  async function sendDue(): Promise<number> {
    while (sending) await sending.catch(() => 0);
    sending = (async () => {
      let total = 0;
      for (;;) {
        const n = await sendDueBatch(opts, claimMs);
        total += n;
        if (n < BATCH) return total;
      }
    })();
    try {
      return await sending;
    } finally {
      sending = undefined;
    }
  }

  /** Looks for newly queued messages every so often until the watch window passes. */
  function watch(delayMs: number): void {
    if (closed || watcher) return;
    // Sending is no call's work: its statements are not counted as the queuing call's.
    watcher = outsideCalls(() =>
      setTimeout(async () => {
        watcher = undefined;
        const sent = await sendDue().catch((err: unknown) => {
          opts.log.error({ err }, 'mail outbox pass failed');
          return 0;
        });
        if (Date.now() < watchUntil) watch(sent > 0 ? 0 : Math.min(delayMs * 2 || 10, 500));
      }, delayMs),
    );
    watcher.unref();
  }

  /** Watches afresh for what was just queued: at once, then for WATCH_MS. */
  function watchQueued(): void {
    watchUntil = Date.now() + WATCH_MS;
    if (watcher) clearTimeout(watcher);
    watcher = undefined;
    watch(0);
  }

  return {
    description: opts.transport.description,
    async send(q, m) {
      await queueOne(q, opts.clock.now(), m);
      watchQueued();
    },
    async sendAll(q, ms) {
      if (ms.length === 0) return [];
      const ids = await queueAll(q, opts.clock.now(), ms);
      watchQueued();
      return ids;
    },
    afterAnswer(work) {
      // After the answer, so not counted as the call's statements either.
      const p: Promise<void> = outsideCalls(() =>
        new Promise<void>((resolve) => setImmediate(resolve))
          .then(work)
          .catch((err: unknown) => opts.log.error({ err }, 'mail work after the answer failed'))
          .finally(() => deferred.delete(p)),
      );
      deferred.add(p);
    },
    async flush() {
      while (deferred.size > 0) await Promise.all([...deferred]);
      await sendDue();
    },
    async sendDue() {
      await sendDue();
    },
    poll(everyMs) {
      poller ??= setInterval(() => {
        if (!closed)
          void sendDue().catch((err: unknown) => opts.log.error({ err }, 'mail outbox pass failed'));
      }, everyMs);
      poller.unref();
    },
    close() {
      closed = true;
      if (poller) clearInterval(poller);
      if (watcher) clearTimeout(watcher);
      watcher = undefined;
      void (sending ?? Promise.resolve()).catch(() => 0).finally(() => opts.transport.close?.());
    },
  };
}
