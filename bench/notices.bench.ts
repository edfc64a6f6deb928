import nodemailer from 'nodemailer';
import { loadConfig } from '../apps/api/src/config.ts';
import { openConfiguredDb } from '../apps/api/src/db/open.ts';
import { pooledSmtpUrl } from '../apps/api/src/mail/mailer.ts';
import { startSmtpListener } from '../apps/api/test/smtp-listener.ts';
import { freshDatabase, freshDir, startServer } from './support.ts';

/**
 * Issue 18 item 3: how fast a customer notice reaches a real SMTP listener. BENCH_NOTICES_OWNERS
 * (default 1,000) new owners, each with a site on the Free plan, beside the 300 demo customers;
 * a SuperAdmin sends a notice to the Free plan now, through the real server and its sending job
 * (NOTICE_BATCH_SIZE rows per transaction, the mail outbox, nodemailer); the figure is the mails
 * the listener received per second, from the POST to the last mail. Once with a connection per
 * mail (`?pool=false`) and once with the default pooled connections (SMTP_URL as given), on
 * PGlite and on PostgreSQL (a fresh database on BENCH_NOTICES_DATABASE_URL's server).
 *
 * Its floor, in the same run: a bare nodemailer transport on the same SMTP address (pooled or not,
 * as the server's) sending as many mails of the same subject and text to the same listener, five
 * at a time; printed beside the server's figure as a ratio.
 */
const OWNERS = Number(process.env.BENCH_NOTICES_OWNERS ?? 1_000);
const HEADERS = { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' };
const PASSWORD = 'Bench#Pass1';
const PORT = Number(process.env.BENCH_NOTICES_PORT ?? 3947);
/** The database the PostgreSQL leg drops and creates (an identifier: letters, digits, underscores). */
const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/.exec(
  process.env.BENCH_NOTICES_DB_NAME ?? 'sac_bench_notices',
)?.[0];

async function addOwners(dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const db = await openConfiguredDb(
    loadConfig({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }),
  );
  try {
    await db.query(
      `INSERT INTO customers (uid, first_name, last_name, email, created_at, modified_at)
       SELECT ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'Owner', 'No ' || n,
              'bench-owner-' || n || '@owners.example', now(), now()
         FROM generate_series(1, $1::int) n`,
      [OWNERS],
    );
    await db.query(
      `INSERT INTO sites (app_name, api_key, secret_hash, owner_uid, plan, created_at, modified_at)
       SELECT 'bench-notice-site-' || n, ('10000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid,
              sha256(('bench-secret-' || n)::bytea), ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid,
              'Free', now(), now()
         FROM generate_series(1, $1::int) n`,
      [OWNERS],
    );
  } finally {
    await db.close();
  }
}

/** The floor: `count` mails like `like` through a bare nodemailer transport to the same listener. */
async function bareNodemailer(
  smtp: Awaited<ReturnType<typeof startSmtpListener>>,
  pooled: boolean,
  like: { from: string; subject: string; text: string; raw: string },
  count: number,
): Promise<{ rate: number; bytes: number }> {
  const transport = nodemailer.createTransport(pooled ? pooledSmtpUrl(smtp.url) : `${smtp.url}/?pool=false`);
  // the server's own headers (List-Unsubscribe and the like), so the floor's mails are as large
  const head = (like.raw.split(/\r?\n\r?\n/)[0] ?? '').replace(/\r?\n[ \t]+/g, ' ');
  const headers = Object.fromEntries(
    head
      .split(/\r?\n/)
      .map((line) => /^(List-[^:]+):\s*(.*)$/i.exec(line))
      .filter((m) => m !== null)
      .map((m) => [m[1]!, m[2]!]),
  );
  const before = smtp.messages.length;
  const started = performance.now();
  try {
    // five senders, as nodemailer's pool keeps five connections open
    let next = 0;
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        for (let i = next++; i < count; i = next++)
          await transport.sendMail({
            from: like.from,
            to: `bench-floor-${i}@owners.example`,
            subject: like.subject,
            text: like.text,
            headers,
          });
      }),
    );
    while (smtp.messages.length - before < count) await new Promise((r) => setTimeout(r, 5));
  } finally {
    transport.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const sent = smtp.messages.slice(before);
  return { rate: count / seconds, bytes: sent.reduce((sum, m) => sum + m.raw.length, 0) / count };
}

async function run(name: string, databaseUrl: string | undefined, pooled: boolean): Promise<void> {
  const smtp = await startSmtpListener();
  const dataDir = freshDir(`notices-${name.toLowerCase()}`);
  const env: Record<string, string> = {
    DEMO_PASSWORD: PASSWORD,
    SMTP_URL: pooled ? smtp.url : `${smtp.url}/?pool=false`,
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  // The first start migrates and seeds the demo; the owners go in while it is down (PGlite has one owner).
  await (await startServer({ port: PORT, dataDir, env })).stop();
  await addOwners(dataDir, databaseUrl);
  const server = await startServer({ port: PORT, dataDir, env });
  try {
    const login = await fetch(`${server.url}/admin/login`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ email: 'superadmin@example.com', password: PASSWORD }),
    });
    const { xtoken, xsign } = (await login.json()) as { xtoken: string; xsign: string };
    const auth = { ...HEADERS, xtoken, xsign };
    const audience = { Type: 'plan', Plans: ['Free'] };
    const count = await fetch(`${server.url}/admin/notices/recipients`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ Audience: audience }),
    });
    const recipients = ((await count.json()) as { Count: number }).Count;
    const before = smtp.messages.length;
    const started = performance.now();
    const r = await fetch(`${server.url}/admin/notices`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        Kind: 'announcement',
        Subject: 'Bench notice',
        Text: 'A notice of a few lines, as a real one.\n\nThe team',
        Audience: audience,
        SendAt: null,
      }),
    });
    if (!r.ok) throw new Error(`create notice: ${r.status} ${await r.text()}`);
    const deadline = Date.now() + 15 * 60_000;
    while (smtp.messages.length - before < recipients) {
      if (Date.now() > deadline)
        throw new Error(`only ${smtp.messages.length - before} of ${recipients} mails`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    const sent = smtp.messages.slice(before);
    const floor = await bareNodemailer(smtp, pooled, sent[0]!, recipients);
    const rate = recipients / seconds;
    const bytes = (ms: Array<{ raw: string }>) =>
      ms.reduce((sum, m) => sum + m.raw.length, 0) / Math.max(1, ms.length);
    console.log(
      `${name.padEnd(10)} ${pooled ? 'pooled SMTP   ' : 'SMTP per mail '} ${recipients.toLocaleString('en-US')} mails in ` +
        `${seconds.toFixed(1)} s: ${rate.toFixed(0)} mails/s (${bytes(sent).toFixed(0)} B each); ` +
        `bare nodemailer ${floor.rate.toFixed(0)} mails/s (${floor.bytes.toFixed(0)} B each): ` +
        `×${(rate / floor.rate).toFixed(2)} of the floor`,
    );
  } finally {
    await server.stop();
    await smtp.close();
  }
}

export async function benchNotices(): Promise<void> {
  if (!DATABASE_NAME) throw new Error('BENCH_NOTICES_DB_NAME must be a lower-case identifier');
  const smtp = process.env.BENCH_NOTICES_SMTP; // 'pooled' or 'per-mail' for one
  for (const pooled of [false, true]) {
    if (smtp && smtp !== (pooled ? 'pooled' : 'per-mail')) continue;
    if (process.env.BENCH_NOTICES_ENGINES !== 'postgres') await run('PGlite', undefined, pooled);
    if (process.env.BENCH_NOTICES_ENGINES === 'pglite') continue;
    const base = process.env.BENCH_NOTICES_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    let url: URL;
    try {
      url = new URL(await freshDatabase(base, DATABASE_NAME));
    } catch (e) {
      console.log(`PostgreSQL: skipped — ${(e as Error).message} at ${base}`);
      continue;
    }
    await run('PostgreSQL', url.toString(), pooled);
  }
}
