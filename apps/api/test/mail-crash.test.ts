import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HEADERS } from '@sac/contract/constants';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgliteDir, openPostgres } from '../src/db/db.ts';
import { startApi } from './api-process.ts';
import { answers, testDatabaseUrl, withDatabase } from './postgres-url.ts';
import { startSmtpListener } from './smtp-listener.ts';

/**
 * Durable mail: invitations acknowledged by the real server while its mail cannot leave (an SMTP
 * server that accepts the connection and never answers) are all delivered, once each, by the
 * server started again on the same data after a SIGKILL. With `taken`, the first server's SMTP
 * server takes the first message whole and never acknowledges it, as when the crash comes between
 * the mail server's taking a message and the outbox's writing that it was sent: that one is sent
 * again (delivery is at least once), under the same Message-ID, so a receiver drops the copy.
 * Process-level, so it runs once, in the PGlite leg, on both engines (PostgreSQL on a database of
 * its own, when a server answers or in CI).
 */
const postgresLeg = process.env.TEST_DB === 'postgres';
const ci = process.env.CI === 'true' || process.env.CI === '1';
const pgUp = !postgresLeg && (await answers(testDatabaseUrl()));
const DEMO_PASSWORD = 'Crash#Mail2026';
const INVITES = 12;
const children = new Set<ChildProcess>();
/** Ports this file handed out: the two engines run at once and must not pick the same one. */
const handedOut = new Set<number>();
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

async function crashWithMailWaiting(engineEnv: Record<string, string>, mode: 'unsent' | 'taken') {
  const mute = net.createServer(() => {}); // takes connections, never greets
  await new Promise<void>((r) => mute.listen(0, '127.0.0.1', r));
  const mutePort = (mute.address() as net.AddressInfo).port;
  const holding = await startSmtpListener({ hold: true });
  const smtp = await startSmtpListener();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-mail-crash-'));
  const env = {
    DATA_DIR: dataDir,
    DEMO_PASSWORD,
    DOMAIN_RECHECK_MINUTES: '0',
    MAIL_CLAIM_SECONDS: '1',
    MAIL_OUTBOX_POLL_SECONDS: '1',
    ...engineEnv,
  };
  try {
    const first = await startApi(
      { ...env, SMTP_URL: mode === 'unsent' ? `smtp://127.0.0.1:${mutePort}` : holding.url },
      { untilReady: true, readyTimeoutMs: 120_000, portBase: 4300, handedOut },
    );
    children.add(first.child);
    const call = async (url: string, body: unknown, session?: { xtoken: string; xsign: string }) => {
      const r = await fetch(`${first.url}${url}`, {
        method: 'POST',
        headers: {
          [HEADERS.ajaxMarker]: HEADERS.ajaxMarkerValue,
          'content-type': 'application/json',
          ...(session ? { [HEADERS.token]: session.xtoken, [HEADERS.sign]: session.xsign } : {}),
        },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: await r.json() };
    };
    const login = await call('/admin/login', { email: 'superadmin@example.com', password: DEMO_PASSWORD });
    expect(login.status).toBe(200);
    const emails = Array.from({ length: INVITES }, (_, i) => `invited${i}@mail-crash.example`);
    const answers = await Promise.all(
      emails.map((email) => call('/admin/team', { role: ['Support'], email, name: '' }, login.body)),
    );
    expect(answers.map((a) => a.status)).toEqual(emails.map(() => 200));
    // 'taken': the outbox sends one message at a time, so the held one is the only one out
    const taken = mode === 'taken' ? await holding.waitFor(() => true, 60_000) : undefined;
    first.child.kill('SIGKILL');
    await first.exited;
    expect(smtp.messages).toEqual([]);
    expect(holding.messages).toHaveLength(mode === 'taken' ? 1 : 0);

    const second = await startApi(
      { ...env, SMTP_URL: smtp.url },
      { untilReady: true, readyTimeoutMs: 120_000, portBase: 4300, handedOut },
    );
    children.add(second.child);
    for (const email of emails) await smtp.waitFor((m) => m.to.includes(email), 60_000);
    // Not a pause for duplicates to turn up: a stop that finishes the sends under way (exit 0),
    // then every invitation's row marked sent, so none can go out again.
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const db = engineEnv.DATABASE_URL
      ? openPostgres(engineEnv.DATABASE_URL, 1)
      : await openPgliteDir(path.join(dataDir, 'pglite'));
    try {
      // the invitations (the demo data holds a notice to an address the demo refuses)
      const unsent = await db.query<{ to_address: string }>(
        `SELECT to_address FROM mail_outbox WHERE sent_at IS NULL AND to_address LIKE '%@mail-crash.example'`,
      );
      expect(unsent.rows).toEqual([]);
    } finally {
      await db.close();
    }
    const counts = emails.map((e) => smtp.messages.filter((m) => m.to.includes(e)).length);
    expect(counts).toEqual(emails.map(() => 1));
    const ids = smtp.messages.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(INVITES);
    for (const id of ids) expect(id).toMatch(/^<outbox-\d+\.[0-9a-f]{32}@localhost>$/);
    if (taken) {
      const again = smtp.messages.find((m) => m.to.join() === taken.to.join());
      expect(again?.messageId).toBe(taken.messageId);
    }
  } finally {
    mute.close();
    await holding.close();
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe.skipIf(postgresLeg).concurrent('kill -9 with mail waiting', () => {
  it('PGlite: loses no acknowledged invitation and sends each once after the restart', async () => {
    await crashWithMailWaiting({}, 'unsent');
  }, 300_000);

  it('PGlite: a mail taken by its server but not yet marked sent is sent again as the same message', async () => {
    await crashWithMailWaiting({}, 'taken');
  }, 300_000);

  it.skipIf(!pgUp && !ci).each(['unsent', 'taken'] as const)(
    'PostgreSQL: the same (%s)',
    async (mode) => {
      const url = testDatabaseUrl();
      const name = `sac_mail_crash_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      try {
        await crashWithMailWaiting({ DATABASE_URL: withDatabase(url, name) }, mode);
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
    300_000,
  );
});
