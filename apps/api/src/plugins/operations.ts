import { createHash, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { AppError } from '../lib/app-error.ts';
import { redisCircuit } from '../lib/redis.ts';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const digest = (s: string) => createHash('sha256').update(s).digest();

const isLoopback = (address: string | undefined): boolean => {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || (net.isIPv4(a) && a.startsWith('127.'));
};

/**
 * Who may read /metrics: with METRICS_TOKEN, whoever sends `Authorization: Bearer <token>`;
 * without it, only a peer on this machine talking to the API directly (a request that came
 * through a proxy carries X-Forwarded-For or Forwarded, and is refused).
 */
function metricsAllowed(ctx: AppContext, request: FastifyRequest): boolean {
  const token = ctx.config.metricsToken;
  if (token) {
    const given = request.headers.authorization ?? '';
    const m = /^Bearer\s+(.+)$/i.exec(given);
    return m !== null && timingSafeEqual(digest(m[1]!.trim()), digest(token));
  }
  const proxied = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return !proxied && isLoopback(request.socket.remoteAddress);
}

/**
 * Liveness, readiness and Prometheus metrics, outside /admin (like /docs) and so outside the
 * ajax-marker guard; the security headers apply as everywhere. Every answered request is counted
 * and timed by its route pattern (never its raw URL, which would carry ids and secrets).
 */
export function operations(app: FastifyInstance, ctx: AppContext): void {
  const m = ctx.metrics;
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    m.httpRequests.inc(labels);
    m.httpDuration.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) m.httpErrors.inc(labels);
  });

  // The process is up and its event loop turns: nothing else, so a busy database never gets a
  // healthy process restarted.
  app.get('/livez', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' };
  });

  // Whether this instance should be sent traffic: the database answers, Redis too when
  // configured, the first start's demo data is in, and the instance is not shutting down. A
  // store's open circuit is reported too (`circuits`).
  app.get('/readyz', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const checks: Record<string, 'ok' | 'failed'> = {};
    const run = async (name: string, check: () => Promise<unknown>) => {
      try {
        await withTimeout(check(), CHECK_TIMEOUT_MS);
        checks[name] = 'ok';
      } catch {
        checks[name] = 'failed';
      }
    };
    await Promise.all([
      run('database', () => ctx.db.query('SELECT 1')),
      ...(ctx.redis ? [run('redis', () => ctx.redis!.ping())] : []),
    ]);
    const { draining, starting } = ctx.ops;
    // Open circuits only (a store unreachable: its calls answer 503 at once), so the usual body stays.
    const circuits: Record<string, 'open'> = {};
    if (ctx.db.circuit?.state === 'open') circuits.database = 'open';
    if (ctx.redis && redisCircuit(ctx.redis)?.state === 'open') circuits.redis = 'open';
    const open = Object.keys(circuits).length > 0;
    const ready = !draining && !starting && !open && Object.values(checks).every((c) => c === 'ok');
    reply.status(ready ? 200 : 503);
    const status = draining ? 'draining' : starting ? 'starting' : ready ? 'ready' : 'not ready';
    return { status, checks, ...(open ? { circuits } : {}) };
  });

  app.get('/metrics', async (request, reply) => {
    if (!metricsAllowed(ctx, request)) {
      if (ctx.config.metricsToken) reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new AppError('forbidden');
    }
    reply.header('Cache-Control', 'no-store');
    reply.type(m.registry.contentType);
    return m.registry.metrics();
  });
}
