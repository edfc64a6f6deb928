import { PassThrough } from 'node:stream';
import {
  STAFF_CHANGE_EVENT,
  STAFF_NOTIFICATION_EVENT,
  type StaffChangeEventData,
  type StaffNotificationEventData,
} from '@sac/contract/staff-notifications';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, StaffSession } from '../../app-context.ts';
import { addressAllowed } from '../../lib/address-allowlist.ts';
import { AppError } from '../../lib/app-error.ts';
import { EVERY_STAFF_MEMBER } from '../../lib/staff-event-bus.ts';
import * as repo from './staff-notifications.repo.ts';
import { notificationOut } from './staff-notifications.service.ts';

/** How often the hub looks at sessions, draining and heartbeats. */
const TICK_MS = 1_000;
/** Every session is looked at this often even when no auth change was heard (idle and lifetime ends). */
const FULL_CHECK_MS = 15_000;
/** Rows a stream sends per read (a replay after a long absence comes in several reads). */
const READ_BATCH = 50;
/** What the browser waits before it reconnects after the stream drops (the SSE retry field). */
const RETRY_MS = 3_000;
/**
 * The 'changed' events go out at most this often: a burst of request changes (a bulk approval,
 * a seeding script) would otherwise make every open dashboard read itself once per change.
 */
export const CHANGE_EVENT_EVERY_MS = 1_000;

interface Stream {
  uid: string;
  sessionId: number;
  /** The address it was opened from: the staff allowlist is held to it at every check. */
  address: string;
  /** Its member may request or approve impersonation: told when requests change. */
  seesRequests: boolean;
  out: PassThrough;
  lastId: number;
  /** A read is under way; `again` asks for one more after it. */
  reading: boolean;
  again: boolean;
  ended: boolean;
}

export interface StreamHub {
  /** GET /admin/notifications/stream for a signed-in caller: answers the reply with the stream. */
  open(request: FastifyRequest, reply: FastifyReply, session: StaffSession): Promise<void>;
  /** Streams open on this instance. */
  count(): number;
  /** Ends every stream (shutdown): the browsers reconnect, to another instance. */
  endAll(): void;
  close(): void;
}

const write = (s: Stream, text: string) => {
  if (!s.ended) s.out.write(text);
};

/** The open streams of this instance by staff member, and how many there are. */
function streamRegistry() {
  const byUser = new Map<string, Set<Stream>>();
  let total = 0;
  const all = () => [...byUser.values()].flatMap((set) => [...set]);
  const end = (s: Stream) => {
    if (s.ended) return;
    s.ended = true;
    const set = byUser.get(s.uid);
    if (set?.delete(s)) {
      total--;
      if (set.size === 0) byUser.delete(s.uid);
    }
    s.out.end();
  };
  return {
    count: () => total,
    countOf: (uid: string) => byUser.get(uid)?.size ?? 0,
    of: (uid: string): Iterable<Stream> => byUser.get(uid) ?? [],
    all,
    add(s: Stream) {
      let set = byUser.get(s.uid);
      if (!set) {
        set = new Set();
        byUser.set(s.uid, set);
      }
      set.add(s);
      total++;
    },
    end,
    endAll() {
      for (const s of all()) end(s);
    },
  };
}

/**
 * Calls `send` at once when it last ran `everyMs` ago or more, else once at the end of that
 * window however often it is asked in it (trailing edge): the last ask is always followed by a
 * call, so a console that reads on the call ends up current.
 */
function throttle(send: () => void, everyMs: number) {
  let last = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    timer = undefined;
    last = Date.now();
    send();
  };
  return {
    ask() {
      if (timer) return;
      const wait = last + everyMs - Date.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait).unref();
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

const changed: StaffChangeEventData = { Topic: 'impersonation' };
const changeEvent = `event: ${STAFF_CHANGE_EVENT}\ndata: ${JSON.stringify(changed)}\n\n`;

/**
 * "The requests changed", told to every stream whose member may see requests, throttled: every
 * stream gets its 'changed' events from here only, so at most one a second reaches each.
 */
function changeAnnouncer(streams: ReturnType<typeof streamRegistry>) {
  return throttle(() => {
    for (const s of streams.all()) if (s.seesRequests) write(s, changeEvent);
  }, CHANGE_EVENT_EVERY_MS);
}

/**
 * Sends the stream the rows after the last id it sent, in reads of READ_BATCH; a read asked for
 * while one is under way runs after it.
 */
async function readNew(ctx: AppContext, s: Stream): Promise<void> {
  if (s.reading) {
    s.again = true;
    return;
  }
  s.reading = true;
  try {
    do {
      s.again = false;
      const rows = await repo.notificationsAfter(ctx.db, s.uid, s.lastId, READ_BATCH);
      if (rows.length === 0) break;
      const unread = await repo.unreadCount(ctx.db, s.uid);
      for (const r of rows) {
        const data: StaffNotificationEventData = { Notification: notificationOut(r), UnreadCount: unread };
        write(s, `id: ${r.id}\nevent: ${STAFF_NOTIFICATION_EVENT}\ndata: ${JSON.stringify(data)}\n\n`);
        s.lastId = Number(r.id);
      }
      if (rows.length === READ_BATCH) s.again = true;
    } while (s.again && !s.ended);
  } catch {
    // the database away for a moment: the next message or the browser's reconnect catches up
  } finally {
    s.reading = false;
  }
}

/** The id a reconnecting browser last saw (Last-Event-ID), when it sent a well-formed one. */
function lastEventIdOf(request: FastifyRequest): number | undefined {
  const header = request.headers['last-event-id'];
  return typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : undefined;
}

/**
 * Answers the reply with `out` as an event stream. Sent through Fastify, so the security headers
 * come with it; the compression plugin leaves text/event-stream alone (a compressor would hold
 * the events back).
 */
function sendEventStream(reply: FastifyReply, out: PassThrough): void {
  void reply
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-accel-buffering', 'no')
    .send(out);
}

/** Refuses a new stream while the instance drains, or past the per-member or the instance's limit. */
function refuseOverLimits(
  ctx: AppContext,
  streams: ReturnType<typeof streamRegistry>,
  opts: { perUser: number; max: number },
  uid: string,
): void {
  if (ctx.ops.draining) throw new AppError('unavailable');
  if (streams.countOf(uid) >= opts.perUser)
    throw new AppError(
      'tooManyRequests',
      `You have ${opts.perUser} notification streams open already (one a tab): close a tab of the console.`,
    );
  if (streams.count() >= opts.max)
    throw new AppError(
      'tooManyRequests',
      'This server has as many notification streams as it takes. Please try again later.',
    );
}

/**
 * The live streams of this instance, by staff member. A bus message about a member makes each of
 * their streams read the rows after the last id it sent (the table is the truth, so a replay by
 * Last-Event-ID and a live event are the same read). Once a second the hub ends the streams whose
 * session ended or whose address the staff allowlist no longer lets in (checked again only when an auth change was heard, and every 15 s for idle and
 * lifetime ends), ends them all while the instance drains, and writes the heartbeat comments.
 * "The requests changed" (a message to EVERY_STAFF_MEMBER) is merged to one 'changed' event a
 * second at most, the last one always sent (throttle).
 */
export function streamHub(
  ctx: AppContext,
  opts: { perUser: number; max: number; heartbeatMs: number },
): StreamHub {
  const streams = streamRegistry();
  let lastGeneration: number | undefined;
  let lastFullCheck = 0;
  let lastHeartbeat = Date.now();
  let checking = false;

  const announceChange = changeAnnouncer(streams);
  const unsubscribe = ctx.staffEvents.subscribe((uid) => {
    if (uid === EVERY_STAFF_MEMBER) {
      announceChange.ask();
      return;
    }
    for (const s of streams.of(uid)) void readNew(ctx, s);
  });

  async function checkSessions(now: number) {
    const generation = ctx.db.authGeneration?.();
    const heard = generation === undefined || generation !== lastGeneration;
    if (!heard && now - lastFullCheck < FULL_CHECK_MS) return;
    lastGeneration = generation;
    lastFullCheck = now;
    const open = streams.all();
    if (open.length === 0) return;
    const { live, allowlist } = await repo.liveSessionIds(
      ctx.db,
      [...new Set(open.map((s) => s.sessionId))],
      ctx.clock.now(),
      {
        idleMs: ctx.config.sessionIdleMs,
        absoluteMs: ctx.config.sessionAbsoluteMs,
      },
    );
    for (const s of open) if (!live.has(s.sessionId) || !addressAllowed(allowlist, s.address)) streams.end(s);
  }

  const timer = setInterval(() => {
    if (streams.count() === 0) return;
    const now = Date.now();
    if (ctx.ops.draining) {
      streams.endAll();
      return;
    }
    if (now - lastHeartbeat >= opts.heartbeatMs) {
      lastHeartbeat = now;
      for (const s of streams.all()) write(s, ': heartbeat\n\n');
    }
    if (checking) return;
    checking = true;
    checkSessions(now)
      .catch(() => {})
      .finally(() => {
        checking = false;
      });
  }, TICK_MS);
  timer.unref();

  return {
    async open(request, reply, session) {
      refuseOverLimits(ctx, streams, opts, session.uid);
      const lastId = lastEventIdOf(request) ?? (await repo.lastNotificationId(ctx.db, session.uid));
      const out = new PassThrough();
      const s: Stream = {
        uid: session.uid,
        sessionId: session.sessionId,
        address: request.ip,
        seesRequests:
          session.permissions.has('impersonation.request') ||
          session.permissions.has('impersonation.approve'),
        out,
        lastId,
        reading: false,
        again: false,
        ended: false,
      };
      streams.add(s);
      // The browser went away: its socket goes too (a half-closed one would hold a shutdown).
      reply.raw.on('close', () => {
        streams.end(s);
        reply.raw.socket?.destroy();
      });
      out.on('error', () => streams.end(s));
      sendEventStream(reply, out);
      write(s, `retry: ${RETRY_MS}\n: connected\n\n`);
      // a replay, and what was committed between reading lastId and joining the hub
      await readNew(ctx, s);
    },
    count: () => streams.count(),
    endAll: () => streams.endAll(),
    close() {
      clearInterval(timer);
      announceChange.cancel();
      unsubscribe();
      streams.endAll();
    },
  };
}
