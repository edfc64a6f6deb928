/*
 * The floor of GET one object with its query: a bare Fastify (no hooks, no authentication) that
 * answers GET /admin/customerprofilebyuid with the API's own read of the profile (customers.service
 * `profile`, the same statement through the same database layer) and the API's response headers.
 * FLOOR_LOG=1 adds the one log line per answer the API writes (pino to stdout). Run by
 * api-load.bench.ts in a process of its own; prints `ready` once it listens.
 *   FLOOR_PORT, FLOOR_HEADERS (JSON), and FLOOR_DATABASE_URL or FLOOR_PGLITE_DIR.
 */
import Fastify, { LogController } from 'fastify';
import type { AppContext } from '../apps/api/src/app-context.ts';
import { type Db, openPgliteDir, openPostgres } from '../apps/api/src/db/db.ts';
import { profile } from '../apps/api/src/modules/customers/customers.service.ts';

const headers = JSON.parse(process.env.FLOOR_HEADERS ?? '{}') as Record<string, string>;
const url = process.env.FLOOR_DATABASE_URL;
const db: Db = url ? openPostgres(url, 10) : await openPgliteDir(process.env.FLOOR_PGLITE_DIR ?? '');
const ctx = { db } as AppContext;
const log = process.env.FLOOR_LOG === '1';

const app = Fastify({
  logger: log ? { level: 'info' } : false,
  logController: new LogController({ disableRequestLogging: true }),
});
app.get<{ Querystring: { uid: string } }>('/admin/customerprofilebyuid', async (req, reply) => {
  const body = await profile(ctx, req.query.uid);
  if (log)
    req.log.info(
      {
        req: { method: req.method, url: req.url, remoteAddress: req.ip },
        res: { statusCode: 200 },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  reply.headers(headers);
  return body;
});
await app.listen({ port: Number(process.env.FLOOR_PORT), host: '127.0.0.1' });
console.log('ready');
process.once('SIGTERM', () => void app.close().then(() => db.close()));
