import { randomUUID } from 'node:crypto';
import path from 'node:path';
import cors from '@fastify/cors';
import { HEADERS } from '@sac/contract/constants';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Redis } from 'ioredis';
import type { AppContext } from './app-context.ts';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import { AddressLimits, databaseWindowCounter, redisWindowCounter } from './lib/address-limits.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { fieldCrypto, loadFieldKey } from './lib/field-crypto.ts';
import { databaseLeases, redisLeases } from './lib/leases.ts';
import { createMetrics, instrumentDb } from './lib/metrics.ts';
import { setHashConcurrency } from './lib/password-hash.ts';
import { openRedis } from './lib/redis.ts';
import { inProcessBus, postgresBus, redisBus } from './lib/staff-event-bus.ts';
import { createMailTransport, type MailTransport } from './mail/mailer.ts';
import { createOutboxMailer } from './mail/outbox.ts';
import { recordRefusal } from './modules/activity/activity.service.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { endedTokenOwner, findLiveToken } from './modules/auth/api-tokens.repo.ts';
import { apiTokenRoutes } from './modules/auth/api-tokens.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { endedSessionOwner } from './modules/auth/ended-sessions.repo.ts';
import { databaseAddressStore, redisAddressStore } from './modules/auth/login-throttle.ts';
import { scimRoutes } from './modules/auth/scim.routes.ts';
import { useSession } from './modules/auth/sessions.repo.ts';
import { recentlyVerified } from './modules/auth/step-up.service.ts';
import { TokenUses } from './modules/auth/token-uses.ts';
import { bulkRoutes } from './modules/bulk/bulk.routes.ts';
import { customerRoutes } from './modules/customers/customers.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { docsRoutes } from './modules/docs/docs.routes.ts';
import { impersonationRoutes } from './modules/impersonation/impersonation.routes.ts';
import { impersonationScope, logImpersonatedCall } from './modules/impersonation/impersonation-sessions.ts';
import { noticesRoutes } from './modules/notices/notices.routes.ts';
import { siteSettingsRoutes } from './modules/site-settings/site-settings.routes.ts';
import { staffNotificationRoutes } from './modules/staff-notifications/staff-notifications.routes.ts';
import { teamRoutes } from './modules/team/team.routes.ts';
import { webhookRoutes } from './modules/webhooks/webhooks.routes.ts';
import { authPlugin } from './plugins/auth.ts';
import { compression } from './plugins/compression.ts';
import { consoleStatic } from './plugins/console-static.ts';
import { cspReport } from './plugins/csp-report.ts';
import { errorEnvelope } from './plugins/error-envelope.ts';
import { operations } from './plugins/operations.ts';
import { requestGuard } from './plugins/request-guard.ts';
import { robots } from './plugins/robots.ts';
import { headerOptionsOf, lowLevelErrorOptions, securityHeaders } from './plugins/security-headers.ts';
import { UserInputSandbox } from './user-input/user-input-sandbox.ts';

/**
 * Where a secret could reach a log line if some code logged a request's headers or a body:
 * pino writes '[redacted]' there. The request serializer below logs no headers or bodies at all.
 */
const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  `req.headers.${HEADERS.token.toLowerCase()}`,
  `req.headers.${HEADERS.sign.toLowerCase()}`,
  'req.headers.apikey',
  'req.headers.apisecret',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  `headers.${HEADERS.token.toLowerCase()}`,
  `headers.${HEADERS.sign.toLowerCase()}`,
  'headers.apisecret',
  'password',
  'body.password',
  'body.oldPassword',
  'body.newPassword',
];

/**
 * The URL with secret-bearing and personal query parameters replaced: API keys and secrets
 * (search), reset and invitation tokens, the owner's consent and site-access link tokens, any
 * session pair or password a client might put in a query by mistake, and customers' emails, names,
 * phone numbers and site names (search criteria, and a picker's search `term`); an email address
 * anywhere else in the URL too.
 * Linear in the URL's length (the URL is the caller's: no pattern here may backtrack).
 */
export function redactUrl(url: string): string {
  return url
    .replace(
      /([?&](?:apisecret|apikey|vtoken|resettoken|token|xtoken|xsign|password|secret|emailid|email|customername|name|firstname|lastname|phone|phonenumber|sitename|term)=)[^&#]*/gi,
      '$1[redacted]',
    )
    .split(/([/?&=#])/)
    .map((part) => (part.includes('@') || /%40/i.test(part) ? '[email]' : part))
    .join('');
}

/**
 * Longest a hashing preview's PBKDF2 may take on its thread: the capped iterations take about a
 * quarter of a second of an idle core; at the lowest priority beside a burst of sign-ins, longer.
 */
const PREVIEW_BUDGET_MS = 5_000;

/**
 * The sandboxes' threads (users' patterns and schemas, hashing previews) run at the lowest
 * priority, below libuv's pool (HELPER_THREAD_NICE) where sign-ins' argon2 runs: at equal nice a
 * pattern check took half the core a sign-in's verify was on. Their budgets count their own CPU,
 * so a lower priority makes them slower on a busy host, never refused for it.
 */
const SANDBOX_NICE = 19;

export interface AppOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  /** How mail leaves (tests pass one logging nothing); SMTP_URL or the outbox directory when unset. */
  mailTransport?: MailTransport;
  /** false silences request logs (tests). */
  logger?: boolean;
  /** Where log lines go (tests read them); stdout when unset. */
  logStream?: { write(line: string): void };
  /** A Redis client to use instead of one opened for REDIS_URL (tests); the caller closes it. */
  redis?: Redis;
}

/** The Fastify instance: request logging (one redacted line per answer), proxy trust, request ids. */
function createServer(opts: AppOptions): FastifyInstance {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: opts.config.logLevel,
            ...(opts.logStream ? { stream: opts.logStream } : {}),
            redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
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
    // One line per request, written when it is answered (the onResponse hook below), instead of
    // Fastify's two: request logging stays on by default at half its cost.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    ...lowLevelErrorOptions(opts.config),
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  });
  return app;
}

/** The Redis client handed in, else one opened for REDIS_URL (closed with the app), else none. */
async function redisOf(app: FastifyInstance, opts: AppOptions): Promise<Redis | undefined> {
  if (opts.redis) return opts.redis;
  if (!opts.config.redisUrl) return undefined;
  const redis = await openRedis(opts.config.redisUrl, app.log, opts.config.storeTimeouts);
  // A client opened here is closed with the app; one handed in belongs to the caller.
  app.addHook('onClose', async () => void (await redis.quit().catch(() => {})));
  return redis;
}

/**
 * How staff notifications reach the instance their staff member is connected to: Redis pub/sub
 * when configured, else PostgreSQL's LISTEN/NOTIFY, else (the embedded database) this process alone.
 */
function staffEventBus(
  app: FastifyInstance,
  db: Db,
  redis: Redis | undefined,
  prefix: string,
  instanceId: string,
) {
  if (redis) return redisBus({ redis, prefix, instance: instanceId, log: app.log });
  if (db.kind === 'postgres' && db.connectionString)
    return postgresBus({
      connectionString: db.connectionString,
      instance: instanceId,
      notify: async (payload) =>
        void (await db.query("SELECT pg_notify('sac_staff_notifications', $1)", [payload])),
      log: app.log,
    });
  return inProcessBus();
}

/** The services every module is handed: database, mail, stores (Redis or the database), sandboxes. */
async function createContext(app: FastifyInstance, opts: AppOptions): Promise<AppContext> {
  const metrics = createMetrics(opts.db);
  const db = instrumentDb(opts.db, metrics);
  const clock = opts.clock ?? systemClock;
  const redis = await redisOf(app, opts);
  const prefix = opts.config.redisKeyPrefix;
  const instanceId = randomUUID();
  const staffEvents = staffEventBus(app, db, redis, prefix, instanceId);
  const tokenUses = new TokenUses(db);
  const ctx: AppContext = {
    config: opts.config,
    db,
    clock,
    mailer: createOutboxMailer({
      db,
      clock,
      log: app.log,
      claimMs: opts.config.mailClaimMs,
      transport:
        opts.mailTransport ??
        createMailTransport({
          smtpUrl: opts.config.smtpUrl,
          outboxDir: path.join(opts.config.dataDir, 'outbox'),
          from: opts.config.mailFrom,
          log: app.log,
        }),
    }),
    crypto: fieldCrypto(loadFieldKey(opts.config.fieldEncryptionKey, opts.config.dataDir)),
    ...(redis ? { redis } : {}),
    addressFailures: redis ? redisAddressStore(redis, prefix) : databaseAddressStore(db),
    addressLimits: new AddressLimits(
      redis ? redisWindowCounter(redis, prefix) : databaseWindowCounter(db),
      opts.config.addressLimits,
    ),
    leases: redis ? redisLeases(redis, prefix) : databaseLeases(db, clock),
    metrics,
    staffEvents,
    callAuth: authPlugin({
      findSession: (xtoken, xsign) =>
        useSession(db, xtoken, xsign, clock.now(), {
          idleMs: opts.config.sessionIdleMs,
          absoluteMs: opts.config.sessionAbsoluteMs,
        }),
      findToken: (token) => findLiveToken(db, token, clock.now()),
      endedTokenOwner: (token) => endedTokenOwner(db, token),
      noteTokenUse: (id, address) => tokenUses.note(id, clock.now(), address),
      impersonationScope: (requestId, staff) => impersonationScope(ctx, requestId, staff),
      logImpersonatedCall: (session, call) => logImpersonatedCall(ctx, session, call),
      endedSessionOwner: (xtoken, xsign) => endedSessionOwner(db, xtoken, xsign),
      recordRefusal: (refusal) => recordRefusal(db, clock.now(), refusal),
      recentlyVerified: (session) => recentlyVerified(session, clock.now(), opts.config.stepUpWindowMs),
      log: app.log,
    }),
    sandbox: new UserInputSandbox({
      budgetMs: opts.config.userInputBudgetMs,
      maxWaiting: 8,
      nice: SANDBOX_NICE,
    }),
    previewSandbox: new UserInputSandbox({
      budgetMs: PREVIEW_BUDGET_MS,
      maxWaiting: 2,
      nice: SANDBOX_NICE,
      errors: { overBudget: 'previewBusy', busy: 'previewBusy' },
    }),
    ops: { instanceId, starting: false, draining: false },
  };
  app.addHook('onClose', async () => {
    await tokenUses.flush().catch(() => {});
    ctx.mailer.close();
    await ctx.sandbox.close();
    await ctx.previewSandbox.close();
    await staffEvents.close();
  });
  return ctx;
}

/** The cross-cutting plugins, in the order they apply to a request. */
async function registerPlugins(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const config = ctx.config;
  errorEnvelope(app);
  securityHeaders(app, headerOptionsOf(config));
  await app.register(cors, {
    origin: config.consoleOrigins,
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: [
      HEADERS.token,
      HEADERS.sign,
      HEADERS.ajaxMarker,
      HEADERS.ifMatch,
      'Content-Type',
      'Authorization',
    ],
    exposedHeaders: [HEADERS.etag, HEADERS.exportRows, 'Content-Disposition'],
    maxAge: 600,
  });
  await compression(app);
  requestGuard(app);
  operations(app, ctx);
  cspReport(app, { file: path.join(config.dataDir, 'csp-violations.ndjson') });
}

/** Builds the admin API: plugins and modules registered explicitly, in this order. */
export async function buildApp(opts: AppOptions): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  setHashConcurrency(opts.config.hashConcurrency);
  const app = createServer(opts);
  // Every route registered from here on, so the console's fallback knows the API's own prefixes.
  const routes: string[] = [];
  app.addHook('onRoute', (route) => void routes.push(route.url));
  const ctx = await createContext(app, opts);
  await registerPlugins(app, ctx);

  authRoutes(app, ctx);
  teamRoutes(app, ctx);
  apiTokenRoutes(app, ctx);
  webhookRoutes(app, ctx);
  scimRoutes(app, ctx);
  customerRoutes(app, ctx);
  impersonationRoutes(app, ctx);
  siteSettingsRoutes(app, ctx);
  auditRoutes(app, ctx);
  dashboardRoutes(app, ctx);
  noticesRoutes(app, ctx);
  staffNotificationRoutes(app, ctx);
  bulkRoutes(app, ctx);
  docsRoutes(app);
  robots(app);
  await consoleStatic(app, opts.config, routes);
  return { app, ctx };
}
