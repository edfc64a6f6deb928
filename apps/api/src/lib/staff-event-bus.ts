import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import pg from 'pg';

/**
 * "Staff member X has something new": the only thing instances tell each other about staff
 * notifications. The rows are the truth (table staff_notifications); a stream that hears of its
 * user reads the rows it has not sent yet, so a message lost (a dropped connection) delays an event
 * until the next message or the console's reconnect, and a message twice costs one read.
 *
 * Three carriers, as configured: in-process (the embedded database is one process's), PostgreSQL
 * LISTEN/NOTIFY on one dedicated connection, or Redis pub/sub when REDIS_URL is set. The publishing
 * instance tells its own streams at once and ignores its own message when it comes back.
 */
export interface StaffEventBus {
  readonly kind: 'in-process' | 'postgres' | 'redis';
  /** Call after the commit of the rows it announces (db.ts afterCommit). */
  publish(uid: string): void;
  /** fn(uid) for every message, this instance's and others'; answers the unsubscribe. */
  subscribe(fn: (uid: string) => void): () => void;
  close(): Promise<void>;
}

/**
 * The address of a message to every staff member's streams (no staff member has the nil uuid):
 * "the impersonation requests changed", which each stream passes on to its console if its member
 * may see requests (staff-notifications.stream.ts).
 */
export const EVERY_STAFF_MEMBER = '00000000-0000-0000-0000-000000000000';

interface Logger {
  warn(obj: object, msg: string): void;
}

/** The channel's name (PostgreSQL) or its suffix after the key prefix (Redis). */
const CHANNEL = 'sac_staff_notifications';
/** A message: the sending instance, then the staff member's uid. */
const message = (instance: string, uid: string) => `${instance} ${uid}`;
const UUID = /^[0-9a-f-]{36}$/i;

function localFanOut() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emit: (uid: string) => void emitter.emit('uid', uid),
    subscribe(fn: (uid: string) => void) {
      emitter.on('uid', fn);
      return () => void emitter.off('uid', fn);
    },
  };
}

/** Others' messages only, well-formed only. */
function receiver(instance: string, emit: (uid: string) => void) {
  return (payload: string) => {
    const [from, uid] = payload.split(' ');
    if (from !== instance && uid && UUID.test(uid)) emit(uid);
  };
}

export function inProcessBus(): StaffEventBus {
  const local = localFanOut();
  return {
    kind: 'in-process',
    publish: (uid) => queueMicrotask(() => local.emit(uid)),
    subscribe: local.subscribe,
    close: async () => {},
  };
}

/**
 * LISTEN on one connection of its own, reconnecting a second after it drops; NOTIFY through the
 * pool (`notify`). While the listening connection is down other instances' events wait for the
 * console's reconnect or the next message.
 */
export function postgresBus(opts: {
  connectionString: string;
  instance: string;
  notify(payload: string): Promise<void>;
  log?: Logger;
}): StaffEventBus {
  const local = localFanOut();
  const receive = receiver(opts.instance, local.emit);
  let closed = false;
  let client: pg.Client | undefined;
  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: opts.connectionString });
    client = c;
    const lost = () => {
      if (client !== c) return;
      client = undefined;
      c.end().catch(() => {});
      if (!closed) setTimeout(() => void connect(), 1000).unref();
    };
    c.on('error', lost);
    c.on('end', lost);
    c.on('notification', (n) => {
      if (n.channel === CHANNEL && n.payload) receive(n.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
    } catch {
      lost();
    }
  };
  void connect();
  return {
    kind: 'postgres',
    publish(uid) {
      queueMicrotask(() => local.emit(uid));
      opts.notify(message(opts.instance, uid)).catch((err: unknown) => {
        opts.log?.warn({ err }, 'could not announce a staff notification');
      });
    },
    subscribe: local.subscribe,
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}

/** PUBLISH on the shared client; SUBSCRIBE on a duplicate of it (a subscriber does nothing else). */
export function redisBus(opts: {
  redis: Redis;
  prefix: string;
  instance: string;
  log?: Logger;
}): StaffEventBus {
  const local = localFanOut();
  const receive = receiver(opts.instance, local.emit);
  const channel = `${opts.prefix}${CHANNEL}`;
  // Subscribed on every connection it makes, by this 'ready' handler: ioredis' own resubscription
  // leaves its SUBSCRIBE's failure unhandled when the connection drops again before the answer
  // (an unhandled rejection, 'Connection is closed.', seen with Redis black-holed on a busy host).
  const sub = opts.redis.duplicate({ enableOfflineQueue: true, autoResubscribe: false });
  sub.on('error', () => {}); // the shared client logs Redis's absence
  sub.on('message', (ch: string, payload: string) => {
    if (ch === channel) receive(payload);
  });
  sub.on('ready', () => void sub.subscribe(channel).catch(() => {}));
  return {
    kind: 'redis',
    publish(uid) {
      queueMicrotask(() => local.emit(uid));
      opts.redis.publish(channel, message(opts.instance, uid)).catch((err: unknown) => {
        opts.log?.warn({ err }, 'could not announce a staff notification');
      });
    },
    subscribe: local.subscribe,
    async close() {
      await sub.quit().catch(() => sub.disconnect());
    },
  };
}
