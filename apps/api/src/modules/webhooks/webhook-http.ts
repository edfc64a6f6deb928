import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { WEBHOOK_TIMEOUT_SECONDS } from '@sac/contract/webhooks';
import { bareHost, isPrivateAddress, pinnedLookup } from '../../lib/outbound-address.ts';

/**
 * One POST of a delivery: the endpoint's address checked as it is connected to (pinnedLookup: the
 * address checked is the one used), no redirect followed, the whole exchange within the timeout,
 * and no more of the answer read than the first bytes (the log keeps its status only).
 */

const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 32 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 32 }),
};
/** Bytes of an answer read at most; the rest is dropped with the connection. */
const ANSWER_BYTES = 4096;

export interface PostOutcome {
  code: number | null;
  error: string | null;
  durationMs: number;
}

export function postDelivery(
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
    return Promise.resolve(done(null, 'The endpoint URL is not valid.'));
  }
  const host = bareHost(u);
  // a literal address is connected to without a lookup: checked here
  if (!allowPrivate && isIP(host) !== 0 && isPrivateAddress(host))
    return Promise.resolve(done(null, `${host} is a loopback, private or link-local address.`));
  const agent = u.protocol === 'https:' ? AGENTS['https:'] : AGENTS['http:'];
  const request = u.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (o: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const req = request(
      u,
      {
        method: 'POST',
        agent,
        lookup: pinnedLookup(allowPrivate) as never,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'SuperAdminConsole-Webhooks/1',
          ...headers,
        },
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > ANSWER_BYTES) res.destroy();
        });
        const code = res.statusCode ?? null;
        const ok = code !== null && code >= 200 && code < 300;
        const error = ok
          ? null
          : code !== null && code >= 300 && code < 400
            ? `answered a redirect (${code}); redirects are not followed`
            : `answered ${code}`;
        res.on('end', () => finish(done(code, error)));
        res.on('close', () => finish(done(code, error)));
        res.on('error', () => finish(done(code, error)));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(done(null, `no answer within ${WEBHOOK_TIMEOUT_SECONDS} s`));
    }, WEBHOOK_TIMEOUT_SECONDS * 1000);
    req.on('error', (e: NodeJS.ErrnoException) =>
      finish(done(null, e.message || e.code || 'connection failed')),
    );
    req.end(body);
  });
}
