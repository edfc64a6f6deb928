import http from 'node:http';
import https from 'node:https';
import { WEBHOOK_TIMEOUT_SECONDS } from '@sac/contract/webhooks';
import { outboundRequest } from '../../lib/outbound-address.ts';

/**
 * One POST of a delivery through outboundRequest: the endpoint's address checked as it is
 * connected to, no redirect followed, the whole exchange within the timeout, and no more of the
 * answer read than its first bytes (the log keeps the status only).
 */

/**
 * Sockets to one origin at most: more than the sender's pool ever has in flight (webhook-sender.ts),
 * so the pool's own cap per subscription decides, and a subscription that hangs cannot queue the
 * posts of another subscription to the same host behind its sockets.
 */
const SOCKETS_PER_ORIGIN = 128;
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_ORIGIN }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_ORIGIN }),
};
/** Bytes of an answer read at most; the rest is dropped with the connection. */
const ANSWER_BYTES = 4096;

export interface PostOutcome {
  code: number | null;
  error: string | null;
  durationMs: number;
}

export async function postDelivery(
  url: string,
  headers: Record<string, string>,
  body: string,
  allowPrivate: boolean,
): Promise<PostOutcome> {
  const started = performance.now();
  const done = (code: number | null, error: string | null): PostOutcome => ({
    code,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return done(null, 'The endpoint URL is not valid.');
  }
  try {
    const a = await outboundRequest(u, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'SuperAdminConsole-Webhooks/1',
        ...headers,
      },
      body,
      allowPrivate,
      maxBytes: ANSWER_BYTES,
      timeoutMs: WEBHOOK_TIMEOUT_SECONDS * 1000,
      agent: u.protocol === 'https:' ? AGENTS['https:'] : AGENTS['http:'],
    });
    if (a.status >= 200 && a.status < 300) return done(a.status, null);
    if (a.status >= 300 && a.status < 400)
      return done(a.status, `answered a redirect (${a.status}); redirects are not followed`);
    return done(a.status, `answered ${a.status}`);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return done(null, err.message || err.code || 'connection failed');
  }
}
