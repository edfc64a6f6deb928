import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HEADERS } from '@sac/contract/constants';
import {
  type BodyOf,
  ENDPOINTS,
  type EndpointId,
  type QueryOf,
  type ResponseOf,
} from '@sac/contract/endpoints';
import { type ErrorEnvelope, errorEnvelopeSchema } from '@sac/contract/errors';
import { toQueryString } from '@sac/contract/query-string';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { AppContext } from '../src/app-context.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Db, openPgliteMemory, openPostgres, type Queryable } from '../src/db/db.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { hashPassword } from '../src/lib/password-hash.ts';
import { STORE_TIMEOUTS } from '../src/lib/store-circuit.ts';
import { createMailTransport } from '../src/mail/mailer.ts';
import { insertStaff } from '../src/modules/auth/staff.repo.ts';
import { withDatabase } from './postgres-url.ts';
import { startSmtpListener } from './smtp-listener.ts';

export const PASSWORD = 'Secret#123';
export const CONSOLE_ORIGIN = 'http://console.test:3001';

/** A stand-in console build (index.html and one asset) for tests of the static routes. */
export function fakeConsoleBuild(): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console</title>');
  fs.writeFileSync(path.join(dir, 'assets', 'app-1234.js'), 'console.log(1)');
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh database for one test file, copied from the migrated template. */
export async function freshDb(): Promise<{ db: Db; url?: string; drop(): Promise<void> }> {
  if (inject('testDb') === 'pglite') {
    const tar = fs.readFileSync(inject('pgliteTemplate'));
    const db = await openPgliteMemory(new Blob([tar]));
    return { db, drop: () => db.close() };
  }
  const url = inject('pgUrl');
  // Named after the run's template, so a run's teardown drops its own databases and no other run's.
  const run = inject('pgTemplate').replace('sac_tpl_', '');
  const name = `sac_t_${run}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  // The suites run beside the browser tests on two cores, where PostgreSQL can answer nothing for
  // longer than the 150 ms a call waits in production (STORE_CALL_BUDGET_MS): a test of something
  // else then failed on the budget. store-outage.test.ts tests the budget on databases of its own.
  const db = openPostgres(withDatabase(url, name), 4, undefined, { ...STORE_TIMEOUTS, callBudgetMs: 2_000 });
  return {
    db,
    url: withDatabase(url, name),
    drop: async () => {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export interface SessionPair {
  xtoken: string;
  xsign: string;
}

/** One call of an endpoint of the contract, with its query and body typed by the contract. */
interface EndpointCall<I extends EndpointId> {
  query?: QueryOf<I>;
  body?: BodyOf<I>;
  session?: SessionPair;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

/**
 * A call with any query and body, for tests of what the API refuses: the endpoint's method and
 * path still come from the contract.
 */
export interface LooseCall extends Omit<EndpointCall<EndpointId>, 'query' | 'body'> {
  query?: Record<string, unknown>;
  body?: unknown;
}

/** The API's answer to an endpoint call. */
export interface Answer<I extends EndpointId> {
  readonly status: number;
  readonly headers: LightMyRequestResponse['headers'];
  /** The 200 answer, parsed by the endpoint's response schema; reading it on another status throws. */
  readonly body: ResponseOf<I>;
  /** The error envelope of any other answer; reading it on a 200 throws. */
  readonly error: ErrorEnvelope;
  /** The answer as it came over the wire (text, cookies, raw headers). */
  readonly raw: LightMyRequestResponse;
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: Db;
  clock: ManualClock;
  config: Config;
  smtp: Awaited<ReturnType<typeof startSmtpListener>>;
  /**
   * A call of the endpoint `id` as the console sends it (ajax marker, JSON body), the answer
   * parsed by the endpoint's schemas.
   */
  call<I extends EndpointId>(id: I, input?: EndpointCall<I>): Promise<Answer<I>>;
  /** The same, with any query and body: for tests of refused input. */
  callLoose<I extends EndpointId>(id: I, input?: LooseCall): Promise<Answer<I>>;
  /**
   * A call whose body is left unread, as a stream (`.stream()`; `.raw.res.destroy()` is a client
   * going away): for files a test reads at its own pace.
   */
  stream<I extends EndpointId>(id: I, input?: EndpointCall<I>): Promise<LightMyRequestResponse>;
  /**
   * A request by address, with the ajax marker and JSON body set: only for tests about the
   * address itself (paths, methods, headers the router sees).
   */
  inject(opts: InjectOptions & { session?: SessionPair }): Promise<LightMyRequestResponse>;
  addStaff(email: string, roles: string[], password?: string): Promise<string>;
  login(email: string, password?: string, remoteAddress?: string): Promise<{ xtoken: string; xsign: string }>;
  close(): Promise<void>;
}

/** The app on a fresh database, a manual clock and a real SMTP listener on loopback. */
export async function createTestApp(
  overrides: Partial<Config> = {},
  smtpOptions: Parameters<typeof startSmtpListener>[0] = {},
): Promise<TestApp> {
  const { db, drop } = await freshDb();
  const smtp = await startSmtpListener(smtpOptions);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-api-test-'));
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    consoleOrigins: [CONSOLE_ORIGIN],
    smtpUrl: smtp.url,
    webDistDir: path.join(dataDir, 'no-console'),
    // DNS lookups of tests stay on loopback (the discard port refuses at once) unless a test
    // runs its own DNS server.
    dnsServers: ['127.0.0.1:9'],
    domainRecheckMs: 0,
    // Tests call the public doors from one address far more often than a person would; the
    // per-address limits have tests of their own (address-limits.test.ts).
    addressLimits: {
      passwordReset: 100_000,
      customerLinks: 100_000,
      customerRequests: 100_000,
      singleSignOn: 100_000,
      scim: 100_000,
    },
    // The suites sign in with a password alone; mfa.test.ts sets 'required' where it tests it.
    staffMfa: 'optional',
    // Webhook receivers of the tests listen on loopback (webhooks.test.ts tests the refusal).
    webhooks: { ...loadConfig({}).webhooks, allowPrivate: true },
    ...overrides,
  };
  const clock = new ManualClock();
  const silent = { info() {}, error() {} };
  const mailTransport = createMailTransport({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(dataDir, 'outbox'),
    from: config.mailFrom,
    log: silent,
  });
  const { app, ctx } = await buildApp({ config, db, clock, mailTransport, logger: false });
  await app.ready();

  const inject: TestApp['inject'] = ({ session, headers, ...opts }) =>
    app.inject({ ...opts, headers: consoleHeaders(opts.payload !== undefined, session, headers) });

  const callLoose = async <I extends EndpointId>(id: I, input: LooseCall = {}): Promise<Answer<I>> =>
    answerOf(id, await app.inject(endpointRequest(id, input)));
  const call = <I extends EndpointId>(id: I, input: EndpointCall<I> = {}) =>
    callLoose(id, input as LooseCall);
  const stream = <I extends EndpointId>(id: I, input: EndpointCall<I> = {}) =>
    app.inject({ ...endpointRequest(id, input as LooseCall), payloadAsStream: true });

  const passwordHash = await hashPassword(PASSWORD);
  return {
    app,
    ctx,
    db,
    clock,
    config,
    smtp,
    call,
    callLoose,
    stream,
    inject,
    async addStaff(email, roles, password) {
      const uid = randomUUID();
      await insertStaff(db, {
        uid,
        email,
        fullName: email.split('@')[0]!,
        passwordHash: password ? await hashPassword(password) : passwordHash,
        roles,
        at: clock.now(),
      });
      return uid;
    },
    async login(email, password = PASSWORD, remoteAddress) {
      const r = await call('login', {
        body: { email, password },
        ...(remoteAddress ? { remoteAddress } : {}),
      });
      if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.raw.body}`);
      const pair = r.body;
      if (!('xtoken' in pair)) throw new Error('login asked for a second step');
      return { xtoken: pair.xtoken, xsign: pair.xsign };
    },
    async close() {
      await ctx.mailer.flush();
      await app.close();
      await smtp.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The headers the console sends: the ajax marker, the JSON type of a body, the session pair. */
function consoleHeaders(
  withBody: boolean,
  session?: SessionPair,
  headers?: InjectOptions['headers'],
): InjectOptions['headers'] {
  return {
    [HEADERS.ajaxMarker]: HEADERS.ajaxMarkerValue,
    ...(withBody ? { 'content-type': 'application/json' } : {}),
    ...(session ? { [HEADERS.token]: session.xtoken, [HEADERS.sign]: session.xsign } : {}),
    ...headers,
  };
}

/**
 * The request of a call of the endpoint `id` as the console sends it (method and path from the
 * contract, query string, ajax marker, JSON body, session pair), for any Fastify app: tests that
 * build their own app inject it there and read the answer with `answerOf`.
 */
export function endpointRequest(id: EndpointId, input: LooseCall = {}): InjectOptions {
  const { query, body, session, headers, remoteAddress } = input;
  const def = ENDPOINTS[id];
  return {
    method: def.method,
    url: `${def.path}${toQueryString(query as Parameters<typeof toQueryString>[0])}`,
    ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
    ...(remoteAddress ? { remoteAddress } : {}),
    headers: consoleHeaders(body !== undefined, session, headers),
  };
}

/**
 * The answer as a typed value: a 200 parsed by the endpoint's response schema (JSON, or the text
 * of a file), anything else by the error envelope's; each read only on its own status.
 */
export function answerOf<I extends EndpointId>(id: I, raw: LightMyRequestResponse): Answer<I> {
  const schema = (ENDPOINTS[id].responses as Record<number, { parse(v: unknown): unknown }>)[200];
  const json = () => (String(raw.headers['content-type'] ?? '').includes('json') ? raw.json() : raw.body);
  return {
    status: raw.statusCode,
    headers: raw.headers,
    raw,
    get body(): ResponseOf<I> {
      if (raw.statusCode !== 200 || !schema)
        throw new Error(`${id} answered ${raw.statusCode}, not 200: ${raw.body.slice(0, 500)}`);
      return schema.parse(json()) as ResponseOf<I>;
    },
    get error(): ErrorEnvelope {
      if (raw.statusCode === 200)
        throw new Error(`${id} answered 200, not an error: ${raw.body.slice(0, 500)}`);
      return errorEnvelopeSchema.parse(raw.json());
    },
  };
}

/**
 * `db` as a caller sees it, keeping the text of every query sent through it (plans under test),
 * and with `params` each query's parameters too.
 */
export function recordingQueries(db: Queryable): {
  db: Queryable;
  sent: string[];
  params: unknown[][];
} {
  const sent: string[] = [];
  const params: unknown[][] = [];
  return {
    sent,
    params,
    db: {
      query: ((sql: string, values?: unknown[]) => {
        sent.push(sql);
        params.push(values ?? []);
        return db.query(sql, values);
      }) as Queryable['query'],
      exec: (sql: string) => db.exec(sql),
    },
  };
}
