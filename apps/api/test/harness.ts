import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HEADERS } from '@sac/contract/constants';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { AppContext } from '../src/app-context.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Db, openPgliteMemory, openPostgres, type Queryable } from '../src/db/db.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { hashPassword } from '../src/lib/password-hash.ts';
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
  const db = openPostgres(withDatabase(url, name), 4);
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

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: Db;
  clock: ManualClock;
  config: Config;
  smtp: Awaited<ReturnType<typeof startSmtpListener>>;
  /** An API call with the ajax marker and JSON body set, as the console sends it. */
  call(
    opts: InjectOptions & { session?: { xtoken: string; xsign: string } },
  ): Promise<LightMyRequestResponse>;
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
    addressLimits: { passwordReset: 100_000, customerLinks: 100_000, customerRequests: 100_000 },
    // The suites sign in with a password alone; mfa.test.ts sets 'required' where it tests it.
    staffMfa: 'optional',
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

  const call: TestApp['call'] = ({ session, headers, ...opts }) =>
    app.inject({
      ...opts,
      headers: {
        [HEADERS.ajaxMarker]: HEADERS.ajaxMarkerValue,
        ...(opts.payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(session ? { [HEADERS.token]: session.xtoken, [HEADERS.sign]: session.xsign } : {}),
        ...headers,
      },
    });

  const passwordHash = await hashPassword(PASSWORD);
  return {
    app,
    ctx,
    db,
    clock,
    config,
    smtp,
    call,
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
      const r = await call({
        method: 'POST',
        url: '/admin/login',
        payload: { email, password },
        ...(remoteAddress ? { remoteAddress } : {}),
      });
      if (r.statusCode !== 200) throw new Error(`login failed: ${r.statusCode} ${r.body}`);
      return r.json();
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

/** `db` as a caller sees it, keeping the text of every query sent through it (plans under test). */
export function recordingQueries(db: Queryable): { db: Queryable; sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    db: {
      query: ((sql: string, params?: unknown[]) => {
        sent.push(sql);
        return db.query(sql, params);
      }) as Queryable['query'],
      exec: (sql: string) => db.exec(sql),
    },
  };
}
