import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: ./data and the built console are found from it, whatever the cwd. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Config {
  port: number;
  host: string;
  /** postgres://… selects a PostgreSQL server; otherwise PGlite under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Console origins allowed for CORS and for the reset links built on a client's `url`. */
  consoleOrigins: string[];
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  resetTokenTtlMs: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where the built console lives; served with an SPA fallback when present. */
  webDistDir: string;
  /** Served to the console in /runtime-config.json. */
  runtime: { apiBaseUrl: string | null; fixedIpHosts: string[] };
  trustProxy: boolean;
  demoPassword: string | undefined;
  /** Custom domains point a CNAME at <site>.<hubDomain>. */
  hubDomain: string;
  /** DNS servers (host or host:port) for custom-domain checks; the system's when empty. */
  dnsServers: string[];
  /** How often pending custom domains are checked again, in ms (0: never). */
  domainRecheckMs: number;
  /** Base64 of 32 bytes; generated into dataDir when unset. */
  fieldEncryptionKey: string | undefined;
  logLevel: string;
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const positive = (name: string, v: string | undefined, fallback: number): number => {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got '${v}'`);
  return n;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = positive('PORT', env.PORT, 3001);
  const defaultOrigins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  return {
    port,
    // localhost answers on both loopbacks (127.0.0.1 and ::1); HOST=0.0.0.0 opens it to the network.
    host: env.HOST ?? 'localhost',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(REPO_ROOT, env.DATA_DIR ?? 'data'),
    consoleOrigins: env.CONSOLE_ORIGINS ? list(env.CONSOLE_ORIGINS) : defaultOrigins,
    sessionIdleMs: positive('SESSION_IDLE_MINUTES', env.SESSION_IDLE_MINUTES, 15) * 60_000,
    sessionAbsoluteMs: positive('SESSION_ABSOLUTE_HOURS', env.SESSION_ABSOLUTE_HOURS, 12) * 3_600_000,
    resetTokenTtlMs: 30 * 60_000,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Super Admin Console <no-reply@localhost>',
    webDistDir: path.resolve(REPO_ROOT, env.WEB_DIST_DIR ?? 'apps/web/dist'),
    // The console served by this API calls it on its own origin ('' = same origin) unless told
    // otherwise; the spec's host-based derivation applies when the console is hosted elsewhere.
    runtime: {
      apiBaseUrl: env.API_BASE_URL ?? '',
      fixedIpHosts: list(env.FIXED_API_HOSTS),
    },
    trustProxy: env.TRUST_PROXY === 'true',
    demoPassword: env.DEMO_PASSWORD || undefined,
    fieldEncryptionKey: env.FIELD_ENCRYPTION_KEY || undefined,
    hubDomain: env.HUB_DOMAIN ?? 'hub.sac-platform.example',
    dnsServers: list(env.DNS_SERVERS),
    domainRecheckMs:
      (env.DOMAIN_RECHECK_MINUTES === '0'
        ? 0
        : positive('DOMAIN_RECHECK_MINUTES', env.DOMAIN_RECHECK_MINUTES, 10)) * 60_000,
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}
