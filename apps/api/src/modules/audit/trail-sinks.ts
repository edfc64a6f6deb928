import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import type { AuditEvent } from '@sac/contract/audit';

/**
 * Where the staff trail is streamed (a SIEM): an RFC 5424 syslog receiver over TCP or TLS with
 * octet-counted frames (RFC 6587 §3.4.1), and an HTTP collector taking JSON lines in the shape of
 * Splunk's HTTP Event Collector. Each row carries its trail id, so a row sent twice (after a
 * receiver dropped the connection, or a crash before the cursor was stored) is known as the same.
 */
export interface TrailSink {
  /** Its name in the cursor table and the metrics: 'syslog' or 'http'. */
  readonly name: string;
  /** Where it sends, without credentials, for the status. */
  readonly target: string;
  /** Sends the rows in order; resolves once they are handed over (HTTP: acknowledged). */
  send(events: AuditEvent[]): Promise<void>;
  /**
   * Whether the connection dropped at or after `since` (ms): rows handed over shortly before may
   * never have been read (TCP syslog has no acknowledgement), so the stream sends them again.
   */
  droppedSince?(since: number): boolean;
  close(): void;
}

const APP_NAME = 'super-admin-console';
/** Facility 13 (log audit), severity 5 (notice). */
const PRI = 13 * 8 + 5;
/** The private enterprise number of RFC 5424's own examples: ids under it name this product's data. */
const SD_ID = 'sac@32473';

/** A header field as RFC 5424 allows: printable US-ASCII without spaces, at most `max`, or '-'. */
const headerField = (v: string | null | undefined, max: number): string => {
  const clean = (v ?? '').replace(/[^\x21-\x7e]/g, '_').slice(0, max);
  return clean === '' ? '-' : clean;
};

/** A structured-data value with '"', '\' and ']' escaped (RFC 5424 §6.3.3). */
const sdValue = (v: string): string => v.replace(/[\\"\]]/g, (c) => `\\${c}`);

/** One trail row as an RFC 5424 message: the event as JSON after its id and actor as structured data. */
export function syslogMessage(e: AuditEvent, host = os.hostname()): string {
  const sd = `[${SD_ID} id="${sdValue(e.Id)}" actor="${sdValue(e.ActorEmail ?? '')}"]`;
  return `<${PRI}>1 ${e.At} ${headerField(host, 255)} ${APP_NAME} ${process.pid} ${headerField(e.Action, 32)} ${sd} ${JSON.stringify(e)}`;
}

/** Octet counting: the frame's length in bytes, a space, the message. */
export const octetFrame = (message: string): string => `${Buffer.byteLength(message, 'utf8')} ${message}`;

const CONNECT_TIMEOUT_MS = 5_000;
/** A receiver that keeps the connection but stops reading for this long is taken as gone. */
const WRITE_TIMEOUT_MS = 15_000;

/** A syslog receiver at `tcp://host:port` or `tls://host:port` (TLS: checked against `caFile` or the system's CAs). */
export function syslogSink(url: URL, opts: { caFile?: string } = {}): TrailSink {
  let socket: net.Socket | undefined;
  let droppedAt = 0;
  const useTls = url.protocol === 'tls:';
  const port = Number(url.port || (useTls ? 6514 : 514));
  const host = url.hostname.replace(/^\[|\]$/g, '');

  function connect(): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const s = useTls
        ? tls.connect({
            host,
            port,
            servername: net.isIP(host) ? undefined : host,
            ...(opts.caFile ? { ca: fs.readFileSync(opts.caFile) } : {}),
          })
        : net.connect({ host, port });
      const fail = (err: Error) => {
        s.destroy();
        reject(err);
      };
      s.setTimeout(CONNECT_TIMEOUT_MS, () => fail(new Error(`no answer from ${host}:${port}`)));
      s.once('error', fail);
      s.once(useTls ? 'secureConnect' : 'connect', () => {
        s.setTimeout(0);
        s.off('error', fail);
        s.setKeepAlive(true, 10_000);
        // an idle connection to the receiver never keeps the process alive
        s.unref();
        const dropped = () => {
          if (socket === s) socket = undefined;
          droppedAt = Date.now();
        };
        s.on('error', dropped);
        s.on('close', dropped);
        // the receiver closing its side is a drop too: what follows may never be read
        s.on('end', () => {
          dropped();
          s.destroy();
        });
        s.on('data', () => {});
        resolve(s);
      });
    });
  }

  return {
    name: 'syslog',
    target: `${url.protocol}//${url.host}`,
    async send(events) {
      if (!socket || socket.destroyed) socket = await connect();
      const s = socket;
      const text = events.map((e) => octetFrame(syslogMessage(e))).join('');
      await new Promise<void>((resolve, reject) => {
        const stalled = setTimeout(() => {
          s.destroy();
          reject(new Error(`the receiver took nothing for ${WRITE_TIMEOUT_MS / 1000} s`));
        }, WRITE_TIMEOUT_MS);
        s.write(text, 'utf8', (err) => {
          clearTimeout(stalled);
          if (err) reject(err);
          else resolve();
        });
      });
    },
    droppedSince(since) {
      return droppedAt > 0 && droppedAt >= since;
    },
    close() {
      socket?.end();
      socket = undefined;
    },
  };
}

const HTTP_TIMEOUT_MS = 10_000;

/** One trail row as a Splunk HTTP Event Collector event. */
const collectorEvent = (e: AuditEvent, host = os.hostname()) => ({
  time: Date.parse(e.At) / 1000,
  host,
  source: APP_NAME,
  sourcetype: '_json',
  event: e,
});

/**
 * An HTTP collector: a POST of the rows as JSON lines (one event object each), with
 * `Authorization: Splunk <token>` when a token is set. Anything but 2xx is a failure, sent again.
 */
export function httpCollectorSink(url: URL, token?: string): TrailSink {
  return {
    name: 'http',
    target: `${url.protocol}//${url.host}${url.pathname}`,
    async send(events) {
      const body = events.map((e) => JSON.stringify(collectorEvent(e))).join('\n');
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Splunk ${token}` } : {}),
        },
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new Error(`the collector answered ${res.status}`);
    },
    close() {},
  };
}
