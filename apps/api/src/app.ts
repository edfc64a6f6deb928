import { randomUUID } from 'node:crypto';
import path from 'node:path';
import cors from '@fastify/cors';
import { HEADERS } from '@sac/contract/constants';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.ts';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { fieldCrypto, loadFieldKey } from './lib/field-crypto.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { customerRoutes } from './modules/customers/customers.routes.ts';
import { docsRoutes } from './modules/docs/docs.routes.ts';
import { impersonationRoutes } from './modules/impersonation/impersonation.routes.ts';
import { siteSettingsRoutes } from './modules/site-settings/site-settings.routes.ts';
import { teamRoutes } from './modules/team/team.routes.ts';
import { consoleStatic } from './plugins/console-static.ts';
import { errorEnvelope } from './plugins/error-envelope.ts';
import { requestGuard } from './plugins/request-guard.ts';
import { securityHeaders } from './plugins/security-headers.ts';

/** The URL with secret-bearing query parameters replaced. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:apisecret|vtoken|resettoken)=)[^&#]*/gi, '$1[redacted]');
}

export interface AppOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  mailer?: Mailer;
  /** false silences request logs (tests). */
  logger?: boolean;
}

/** Builds the admin API: plugins and modules registered explicitly, in this order. */
export async function buildApp(opts: AppOptions): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: opts.config.logLevel,
            serializers: {
              // API secrets arrive in the search query (spec section 7): never write them to a log.
              req: (req: { method: string; url: string; ip?: string }) => ({
                method: req.method,
                url: redactUrl(req.url),
                remoteAddress: req.ip,
              }),
            },
          },
    trustProxy: opts.config.trustProxy,
    genReqId: () => randomUUID(),
  });
  const ctx: AppContext = {
    config: opts.config,
    db: opts.db,
    clock: opts.clock ?? systemClock,
    mailer:
      opts.mailer ??
      createMailer({
        smtpUrl: opts.config.smtpUrl,
        outboxDir: path.join(opts.config.dataDir, 'outbox'),
        from: opts.config.mailFrom,
        log: app.log,
      }),
    crypto: fieldCrypto(loadFieldKey(opts.config.fieldEncryptionKey, opts.config.dataDir)),
  };

  errorEnvelope(app);
  securityHeaders(app, {
    connectSrc: opts.config.runtime.apiBaseUrl ? [opts.config.runtime.apiBaseUrl] : [],
  });
  await app.register(cors, {
    origin: opts.config.consoleOrigins,
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: [HEADERS.token, HEADERS.sign, HEADERS.ajaxMarker, 'Content-Type'],
    maxAge: 600,
  });
  requestGuard(app);

  authRoutes(app, ctx);
  teamRoutes(app, ctx);
  customerRoutes(app, ctx);
  impersonationRoutes(app, ctx);
  siteSettingsRoutes(app, ctx);
  docsRoutes(app);
  await consoleStatic(app, opts.config);
  return { app, ctx };
}
