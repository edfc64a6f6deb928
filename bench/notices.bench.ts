import { loadConfig } from '../apps/api/src/config.ts';
import { openConfiguredDb } from '../apps/api/src/db/open.ts';
import { startSmtpListener } from '../apps/api/test/smtp-listener.ts';
import { freshDir, startServer } from './support.ts';

/**
 * Issue 18 item 3: how fast a customer notice reaches a real SMTP listener. BENCH_NOTICES_OWNERS
 * (default 1,000) new owners, each with a site on the Free plan, beside the 300 demo customers;
 * a SuperAdmin sends a notice to the Free plan now, through the real server and its sending job
 * (NOTICE_BATCH_SIZE rows per transaction, the mail outbox, nodemailer); the figure is the mails
 * the listener received per second, from the POST to the last mail. Once with a connection per
 * mail (`?pool=false`) and once with the default pooled connections (SMTP_URL as given), on
 * PGlite and on PostgreSQL (a fresh database on BENCH_NOTICES_DATABASE_URL's server).
 */
const OWNERS = Number(process.env.BENCH_NOTICES_OWNERS ?? 1_000);
const HEADERS = { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' };
const PASSWORD = 'Bench#Pass1';
const PORT = Number(process.env.BENCH_NOTICES_PORT ?? 3947);

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
    console.log(
      `${name.padEnd(10)} ${pooled ? 'pooled SMTP   ' : 'SMTP per mail '} ${recipients.toLocaleString('en-US')} mails in ` +
        `${seconds.toFixed(1)} s: ${(recipients / seconds).toFixed(0)} mails/s`,
    );
  } finally {
    await server.stop();
    await smtp.close();
  }
}

export async function benchNotices(): Promise<void> {
  const smtp = process.env.BENCH_NOTICES_SMTP; // 'pooled' or 'per-mail' for one
  for (const pooled of [false, true]) {
    if (smtp && smtp !== (pooled ? 'pooled' : 'per-mail')) continue;
    if (process.env.BENCH_NOTICES_ENGINES !== 'postgres') await run('PGlite', undefined, pooled);
    if (process.env.BENCH_NOTICES_ENGINES === 'pglite') continue;
    const base = process.env.BENCH_NOTICES_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const admin = await openConfiguredDb(
      loadConfig({ DATABASE_URL: base, DATA_DIR: freshDir('notices-admin') }),
    );
    try {
      await admin.query('DROP DATABASE IF EXISTS sac_bench_notices');
      await admin.query('CREATE DATABASE sac_bench_notices');
    } catch (e) {
      console.log(`PostgreSQL: skipped — ${(e as Error).message} at ${base}`);
      continue;
    } finally {
      await admin.close();
    }
    const url = new URL(base);
    url.pathname = '/sac_bench_notices';
    await run('PostgreSQL', url.toString(), pooled);
  }
}
