import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { migrate } from './db/migrate.ts';
import { openConfiguredDb } from './db/open.ts';
import { seedDemoData } from './db/seed.ts';
import { recheckPendingDomains } from './modules/site-settings/site-settings.service.ts';

const started = performance.now();
const config = loadConfig();
const db = await openConfiguredDb(config);
const applied = await migrate(db);
const demo = await seedDemoData(db, { dataDir: config.dataDir, demoPassword: config.demoPassword });
const { app, ctx } = await buildApp({ config, db });

// Pending custom domains are looked up again now and then, so a customer's DNS change shows.
const recheck =
  config.domainRecheckMs > 0
    ? setInterval(() => {
        recheckPendingDomains(ctx).catch((err) => app.log.warn({ err }, 'custom domain re-check failed'));
      }, config.domainRecheckMs)
    : undefined;
recheck?.unref();

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  if (recheck) clearInterval(recheck);
  await app.close();
  await ctx.mailer.flush();
  await db.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
const url = `http://localhost:${config.port}`;
const lines = [
  '',
  `  Super Admin Console is running at ${url}`,
  `  API reference: ${url}/docs`,
  `  Database: ${db.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/pglite`}${applied.length ? ` (migrated to ${applied.at(-1)})` : ''}`,
  `  Mail: ${ctx.mailer.description}`,
  demo
    ? `  Demo sign-ins (password ${demo.password}):\n${demo.emails.map((e) => `    ${e}`).join('\n')}`
    : '  Demo sign-ins: not created (the database already had staff).',
  `  Ready in ${Math.round(performance.now() - started)} ms`,
  '',
];
console.log(lines.join('\n'));
