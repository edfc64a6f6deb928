import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCaseUrlPattern, parseReasonCodes, type ReasonSettings } from '@sac/contract/access-reasons';
import {
  ACCESS_REVIEW_DEFAULT_DAYS,
  ACCESS_REVIEW_MAX_DAYS,
  ACCESS_REVIEW_MIN_DAYS,
} from '@sac/contract/access-review';
import { ADDRESS_LIMITS } from '@sac/contract/address-limits';
import { STEP_UP_DEFAULT_MINUTES } from '@sac/contract/step-up';
import { bulkOf } from './config-bulk.ts';
import { breakGlassEnabledOf, trailStreamOf, webhooksOf } from './config-events.ts';
import { positive } from './config-number.ts';
import { STORE_TIMEOUTS, type StoreTimeouts } from './lib/store-circuit.ts';

/** The repository root: ./data and the built console are found from it, whatever the cwd. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Config {
  port: number;
  host: string;
  /** postgres://… selects a PostgreSQL server; otherwise PGlite under dataDir. */
  databaseUrl: string | undefined;
  /**
   * PostgreSQL: the tables' owner, that migrations run as (DATABASE_OWNER_URL); DATABASE_URL is
   * then the application's role, given only what it needs. Unset: one role does both.
   */
  databaseOwnerUrl: string | undefined;
  dataDir: string;
  /** Console origins allowed for CORS and for the reset links built on a client's `url`. */
  consoleOrigins: string[];
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  /** STEP_UP_MINUTES: how recent a session's last sign-in or step-up must be for a sensitive action. */
  stepUpWindowMs: number;
  resetTokenTtlMs: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where the built console lives; served with an SPA fallback when present. */
  webDistDir: string;
  /** Served to the console in /runtime-config.json. */
  runtime: {
    apiBaseUrl: string | null;
    fixedIpHosts: string[];
    /** The name the console shows (PRODUCT_NAME); null: its own. */
    productName: string | null;
    /** The footer's destinations (FOOTER_TERMS_URL, FOOTER_PRIVACY_URL, FOOTER_STATUS_URL). */
    links: { terms: string; privacy: string; systemStatus: string };
  };
  /**
   * Peers whose X-Forwarded-For is believed: addresses and CIDRs (Fastify's trustProxy), `true`
   * for every peer (only when nothing but the proxy can reach the API), false for none.
   */
  trustProxy: boolean | string[];
  /** redis://…: sign-in limits per address and periodic-job leases live there (several instances). */
  redisUrl: string | undefined;
  /** Prefix of every Redis key this API writes, so several deployments can share one Redis. */
  redisKeyPrefix: string;
  /** How long a call waits for PostgreSQL or Redis, and their circuits (STORE_* settings). */
  storeTimeouts: StoreTimeouts;
  /** Failed sign-ins one client address may make per UTC day before it gets HTTP 429. */
  loginAddressDailyFailures: number;
  /** How often approved impersonation grants that have expired are looked for, in ms (0: never). */
  expiryNoticeMs: number;
  /** Live notification streams (GET /admin/notifications/stream) one staff member may hold open. */
  staffStreamsPerUser: number;
  /** Live notification streams this instance holds open at most. */
  staffStreamsMax: number;
  /** How often an open notification stream gets a heartbeat comment, in ms. */
  streamHeartbeatMs: number;
  /** How often replaced site secrets whose grace ended are forgotten and logged, in ms (0: never). */
  secretRetireMs: number;
  /** How often due customer notices are looked for and sent, in ms (0: never). */
  noticeSendMs: number;
  /** Staff notifications older than this are deleted, read or not, in ms (0: kept for ever). */
  staffNotificationRetentionMs: number;
  /** Recipients of a notice queued into the mail outbox per transaction. */
  noticeBatchSize: number;
  /** The most recipients a notice's audience may reach. */
  noticeMaxRecipients: number;
  /** GET /metrics needs `Authorization: Bearer <token>`; unset: only direct loopback peers. */
  metricsToken: string | undefined;
  /** On SIGTERM, how long /readyz answers 503 while still serving, before closing (ms). */
  shutdownDrainMs: number;
  /** On SIGTERM, how long in-flight requests may take to finish before the process exits (ms). */
  shutdownTimeoutMs: number;
  /** Password hashes (argon2id) running at once; the others queue. */
  hashConcurrency: number;
  /**
   * How long after getting the SuperAdmin role (a role that approves impersonation) a staff
   * member must wait before approving impersonation requests, in ms (0: no wait).
   */
  approverCoolDownMs: number;
  /**
   * The periodic access review: ACCESS_REVIEW_DAYS, how often each member's roles must be
   * confirmed again; ACCESS_REVIEW_AUTO_REVOKE, whether overdue members lose them (off by default).
   */
  accessReview: { days: number; autoRevoke: boolean };
  /** Single sign-on: an ID token signed by a key not yet seen fetches the provider's keys again at most this often. */
  ssoKeyCooldownMs: number;
  /**
   * SSO_ALLOW_HTTP_ISSUER: the issuer (and the addresses its discovery document names) may be
   * plain http and on loopback or a private network: for tests and development with a provider
   * on this machine. Off: https only, and never an address of this machine or its network (SSRF).
   */
  ssoAllowHttpIssuer: boolean;
  demoPassword: string | undefined;
  /**
   * STAFF_MFA: 'required' (every staff member must have a passkey or an authenticator app, and
   * sets one up at their next sign-in) or 'optional'. Default: required, optional with demo data.
   */
  staffMfa: 'required' | 'optional';
  /**
   * Whether an empty database gets the demo staff and customers: DEMO_DATA=1 yes, 0 no; unset,
   * only the embedded database (no DATABASE_URL), so a production database never gets them.
   */
  demoData: boolean;
  /** Custom domains point a CNAME at <site>.<hubDomain>. */
  hubDomain: string;
  /** DNS servers (host or host:port) for custom-domain checks; the system's when empty. */
  dnsServers: string[];
  /** How often pending custom domains are checked again, in ms (0: never). */
  domainRecheckMs: number;
  /** How long a verified custom domain goes before the re-check looks it up again, in ms (0: never). */
  domainVerifiedRecheckMs: number;
  /** Base64 of 32 bytes; generated into dataDir when unset. */
  fieldEncryptionKey: string | undefined;
  logLevel: string;
  /**
   * LOG_FORMAT: 'json' (one JSON line per event, for log collectors) or 'human' (one short line per
   * request and event, for a terminal). Unset: human when stdout is a terminal, else json.
   */
  logFormat: 'json' | 'human';
  /**
   * On PGlite, at most how long searches run before the server listens, to get the embedded
   * engine's code compiled and optimized before users search (ms; 0: none). See search-warm-up.ts.
   */
  searchWarmUpMs: number;
  /** Nice value (0–19) of every thread but the event loop's (password hashing among them); 0: unchanged. */
  helperThreadNice: number;
  /**
   * Longest a check of a user's schema, sample or pattern may run on the sandbox's worker thread
   * before it is stopped and answered 400 (ms). See user-input/user-input-sandbox.ts.
   */
  userInputBudgetMs: number;
  /** Calls one client address may make to each group of public doors per window (ADDRESS_LIMITS). */
  addressLimits: {
    passwordReset: number;
    customerLinks: number;
    customerRequests: number;
    singleSignOn: number;
    scim: number;
  };
  /** How the customer's public site-access page names staff: role and pseudonym, or their email. */
  siteAccessStaffNames: 'pseudonym' | 'email';
  /**
   * Why staff ask for access: the reason codes (built-in and IMPERSONATION_REASON_CODES), whether
   * a case is required (IMPERSONATION_CASE_REQUIRED) and its link (IMPERSONATION_CASE_URL).
   */
  impersonationReasons: ReasonSettings;
  /** BREAK_GLASS_ENABLED: break-glass access may be opened (on unless `false`; break-glass.ts). */
  breakGlassEnabled: boolean;
  /** How often the mail outbox is looked through for due messages (retries, mail left by a crash), ms. */
  mailPollMs: number;
  /** How long one instance's claim on an outbox message holds before another may send it, ms. */
  mailClaimMs: number;
  /** The staff trail streamed to a SIEM (TRAIL_* settings; no URL: no stream). */
  trailStream: {
    /** TRAIL_SYSLOG_URL: tcp://host:port or tls://host:port, RFC 5424 with octet-counted frames. */
    syslogUrl: URL | undefined;
    /** TRAIL_SYSLOG_CA_FILE: the CA certificate (PEM) a TLS receiver's certificate is checked against. */
    syslogCaFile: string | undefined;
    /** TRAIL_HTTP_URL: an HTTP collector taking JSON lines (Splunk HEC shape). */
    httpUrl: URL | undefined;
    /** TRAIL_HTTP_TOKEN: sent as `Authorization: Splunk <token>`. */
    httpToken: string | undefined;
    /** TRAIL_STREAM_SECONDS: how often new rows are looked for, ms. */
    everyMs: number;
  };
  webhooks: {
    /**
     * WEBHOOK_ALLOW_PRIVATE: endpoints may be on loopback, private and link-local addresses, and
     * plain http (receivers on the operator's own network; the tests' local receivers).
     */
    allowPrivate: boolean;
    /** WEBHOOK_PAUSE_AFTER_HOURS: a subscription failing this long, nothing delivered, is paused. */
    pauseAfterMs: number;
    /** WEBHOOK_SEND_SECONDS: how often the trail and due retries are looked at (a commit also wakes it), ms. */
    everyMs: number;
    /** WEBHOOK_LOG_DAYS: how long deliveries and their attempts are kept, ms. */
    logMs: number;
  };
  /** BULK_MAX_ITEMS, BULK_APPROVAL_OVER (0: every job), BULK_RUN_SECONDS (config-bulk.ts). */
  bulk: { maxItems: number; approvalOver: number; everyMs: number };
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const minutesOrZero = (name: string, v: string | undefined, fallback: number): number =>
  (v === '0' ? 0 : positive(name, v, fallback)) * 60_000;

const nonNegative = (name: string, v: string | undefined, fallback: number): number => {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be zero or a positive number, got '${v}'`);
  return n;
};

const niceValue = (v: string | undefined): number => {
  if (v === undefined || v === '') return 10;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 19)
    throw new Error(`HELPER_THREAD_NICE must be a whole number from 0 to 19, got '${v}'`);
  return n;
};

/** An http(s) address for a footer link; the placeholder when unset. */
const footerUrl = (name: string, v: string | undefined, placeholder: string): string => {
  if (v === undefined || v.trim() === '') return placeholder;
  if (!/^https?:\/\/[^\s]+$/i.test(v.trim()))
    throw new Error(`${name} must be an http(s) address, got '${v}'`);
  return v.trim();
};

const accessReviewOf = (env: NodeJS.ProcessEnv): Config['accessReview'] => {
  const v = env.ACCESS_REVIEW_DAYS;
  const days = v === undefined || v === '' ? ACCESS_REVIEW_DEFAULT_DAYS : Number(v);
  if (!Number.isInteger(days) || days < ACCESS_REVIEW_MIN_DAYS || days > ACCESS_REVIEW_MAX_DAYS)
    throw new Error(
      `ACCESS_REVIEW_DAYS must be a whole number from ${ACCESS_REVIEW_MIN_DAYS} to ${ACCESS_REVIEW_MAX_DAYS}, got '${v}'`,
    );
  const auto = (env.ACCESS_REVIEW_AUTO_REVOKE ?? '').toLowerCase();
  if (!['', '0', '1', 'true', 'false', 'on', 'off'].includes(auto))
    throw new Error(`ACCESS_REVIEW_AUTO_REVOKE must be on or off, got '${env.ACCESS_REVIEW_AUTO_REVOKE}'`);
  return { days, autoRevoke: ['1', 'true', 'on'].includes(auto) };
};

const staffNames = (v: string | undefined): 'pseudonym' | 'email' => {
  if (v === undefined || v === '' || v === 'pseudonym') return 'pseudonym';
  if (v === 'email') return 'email';
  throw new Error(`SITE_ACCESS_STAFF_NAMES must be 'pseudonym' or 'email', got '${v}'`);
};

/** Proxy names proxy-addr knows, besides addresses and CIDRs. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset or `false` trusts no peer (X-Forwarded-For is ignored); `true` trusts every
 * peer; otherwise a comma-separated list of addresses, CIDRs or proxy-addr's names.
 */
export function parseTrustProxy(v: string | undefined): boolean | string[] {
  const raw = (v ?? '').trim();
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  const entries = list(raw);
  for (const e of entries) {
    const [addr, bits, ...rest] = e.split('/');
    const family = net.isIP(addr ?? '');
    const bitsOk =
      bits === undefined ||
      (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32)) ||
      (family === 4 && net.isIPv4(bits));
    const ok = PROXY_NAMES.has(e) || (family !== 0 && rest.length === 0 && bitsOk);
    if (!ok)
      throw new Error(
        `TRUST_PROXY: '${e}' is neither an address, a CIDR, nor one of ${[...PROXY_NAMES].join(', ')}`,
      );
  }
  return entries;
}

function demoDataWanted(v: string | undefined, external: boolean): boolean {
  if (v === undefined || v === '') return !external;
  if (['1', 'true', 'yes'].includes(v.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(v.toLowerCase())) return false;
  throw new Error(`DEMO_DATA must be 1 or 0, got '${v}'`);
}

function logFormatOf(v: string | undefined, terminal: boolean): 'json' | 'human' {
  if (v === undefined || v === '') return terminal ? 'human' : 'json';
  if (v === 'json' || v === 'human') return v;
  throw new Error(`LOG_FORMAT must be 'json' or 'human', got '${v}'`);
}

function staffMfaOf(v: string | undefined, demoData: boolean): 'required' | 'optional' {
  if (v === undefined || v === '') return demoData ? 'optional' : 'required';
  if (v === 'required' || v === 'optional') return v;
  throw new Error(`STAFF_MFA must be 'required' or 'optional', got '${v}'`);
}

function ownerUrl(env: NodeJS.ProcessEnv): string | undefined {
  const url = env.DATABASE_OWNER_URL || undefined;
  if (url && !env.DATABASE_URL)
    throw new Error(
      'DATABASE_OWNER_URL is the owner of the PostgreSQL database DATABASE_URL names: set both',
    );
  return url;
}

/** Settings no longer read, with what replaced them: an operator who still sets one is told at start. */
const RETIRED_SETTINGS: Record<string, string> = {
  REDIS_COMMAND_TIMEOUT_MS:
    'STORE_CALL_BUDGET_MS bounds how long a call waits for Redis, and STORE_CHECK_TIMEOUT_MS when it is taken for gone',
};

/** One line for each retired setting the environment still sets, saying what to set instead. */
export function retiredSettingsSet(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.entries(RETIRED_SETTINGS)
    .filter(([name]) => env[name] !== undefined)
    .map(([name, instead]) => `${name} is no longer read: ${instead}.`);
}

/** What the console is told in /runtime-config.json. */
function runtimeOf(env: NodeJS.ProcessEnv): Config['runtime'] {
  return {
    apiBaseUrl: env.API_BASE_URL ?? '',
    fixedIpHosts: list(env.FIXED_API_HOSTS),
    productName: env.PRODUCT_NAME?.trim() || null,
    links: {
      terms: footerUrl('FOOTER_TERMS_URL', env.FOOTER_TERMS_URL, 'https://www.example.com/terms'),
      privacy: footerUrl('FOOTER_PRIVACY_URL', env.FOOTER_PRIVACY_URL, 'https://www.example.com/privacy'),
      systemStatus: footerUrl('FOOTER_STATUS_URL', env.FOOTER_STATUS_URL, 'https://status.example.com/'),
    },
  };
}

/** How long a call waits for PostgreSQL or Redis, and when their circuits open (STORE_* settings). */
function storeTimeoutsOf(env: NodeJS.ProcessEnv): StoreTimeouts {
  return {
    callBudgetMs: positive('STORE_CALL_BUDGET_MS', env.STORE_CALL_BUDGET_MS, STORE_TIMEOUTS.callBudgetMs),
    connectMs: positive('STORE_CONNECT_TIMEOUT_MS', env.STORE_CONNECT_TIMEOUT_MS, STORE_TIMEOUTS.connectMs),
    checkTimeoutMs: positive(
      'STORE_CHECK_TIMEOUT_MS',
      env.STORE_CHECK_TIMEOUT_MS,
      STORE_TIMEOUTS.checkTimeoutMs,
    ),
    statementCheckMs: positive(
      'DB_STATEMENT_CHECK_MS',
      env.DB_STATEMENT_CHECK_MS,
      STORE_TIMEOUTS.statementCheckMs,
    ),
    failuresToOpen: Math.floor(
      positive('STORE_CIRCUIT_FAILURES', env.STORE_CIRCUIT_FAILURES, STORE_TIMEOUTS.failuresToOpen),
    ),
    probeEveryMs: positive('STORE_PROBE_MS', env.STORE_PROBE_MS, STORE_TIMEOUTS.probeEveryMs),
  };
}

/** Calls one client address may make to each group of public doors per window. */
function addressLimitsOf(env: NodeJS.ProcessEnv): Config['addressLimits'] {
  return {
    passwordReset: Math.floor(
      positive(
        'PASSWORD_RESET_CALLS_PER_HOUR',
        env.PASSWORD_RESET_CALLS_PER_HOUR,
        ADDRESS_LIMITS.passwordReset.calls,
      ),
    ),
    customerLinks: Math.floor(
      positive(
        'CUSTOMER_LINK_CALLS_PER_MINUTE',
        env.CUSTOMER_LINK_CALLS_PER_MINUTE,
        ADDRESS_LIMITS.customerLinks.calls,
      ),
    ),
    customerRequests: Math.floor(
      positive(
        'CUSTOMER_REQUEST_CALLS_PER_HOUR',
        env.CUSTOMER_REQUEST_CALLS_PER_HOUR,
        ADDRESS_LIMITS.customerRequests.calls,
      ),
    ),
    singleSignOn: Math.floor(
      positive('SSO_CALLS_PER_MINUTE', env.SSO_CALLS_PER_MINUTE, ADDRESS_LIMITS.singleSignOn.calls),
    ),
    scim: Math.floor(positive('SCIM_CALLS_PER_MINUTE', env.SCIM_CALLS_PER_MINUTE, ADDRESS_LIMITS.scim.calls)),
  };
}

function reasonsOf(env: NodeJS.ProcessEnv): ReasonSettings {
  const required = (env.IMPERSONATION_CASE_REQUIRED ?? '').trim().toLowerCase();
  if (!['', '0', '1', 'true', 'false', 'yes', 'no'].includes(required))
    throw new Error(
      `IMPERSONATION_CASE_REQUIRED must be true or false, got '${env.IMPERSONATION_CASE_REQUIRED}'`,
    );
  return {
    codes: parseReasonCodes(env.IMPERSONATION_REASON_CODES),
    caseRequired: ['1', 'true', 'yes'].includes(required),
    caseUrlPattern: parseCaseUrlPattern(env.IMPERSONATION_CASE_URL),
  };
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  terminal: boolean = process.stdout.isTTY === true,
): Config {
  const port = positive('PORT', env.PORT, 3001);
  const defaultOrigins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  const demoData = demoDataWanted(env.DEMO_DATA, Boolean(env.DATABASE_URL));
  return {
    port,
    // localhost answers on both loopbacks (127.0.0.1 and ::1); HOST=0.0.0.0 opens it to the network.
    host: env.HOST ?? 'localhost',
    databaseUrl: env.DATABASE_URL || undefined,
    databaseOwnerUrl: ownerUrl(env),
    dataDir: path.resolve(REPO_ROOT, env.DATA_DIR ?? 'data'),
    consoleOrigins: env.CONSOLE_ORIGINS ? list(env.CONSOLE_ORIGINS) : defaultOrigins,
    sessionIdleMs: positive('SESSION_IDLE_MINUTES', env.SESSION_IDLE_MINUTES, 15) * 60_000,
    sessionAbsoluteMs: positive('SESSION_ABSOLUTE_HOURS', env.SESSION_ABSOLUTE_HOURS, 12) * 3_600_000,
    stepUpWindowMs: positive('STEP_UP_MINUTES', env.STEP_UP_MINUTES, STEP_UP_DEFAULT_MINUTES) * 60_000,
    resetTokenTtlMs: 30 * 60_000,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Super Admin Console <no-reply@localhost>',
    webDistDir: path.resolve(REPO_ROOT, env.WEB_DIST_DIR ?? 'apps/web/dist'),
    // The console served by this API calls it on its own origin ('' = same origin) unless told
    // otherwise; the spec's host-based derivation applies when the console is hosted elsewhere.
    runtime: runtimeOf(env),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'sac:',
    storeTimeouts: storeTimeoutsOf(env),
    loginAddressDailyFailures: positive(
      'LOGIN_ADDRESS_DAILY_FAILURES',
      env.LOGIN_ADDRESS_DAILY_FAILURES,
      100,
    ),
    expiryNoticeMs: minutesOrZero('EXPIRY_NOTICE_MINUTES', env.EXPIRY_NOTICE_MINUTES, 1),
    noticeSendMs:
      env.NOTICE_SEND_SECONDS === '0'
        ? 0
        : positive('NOTICE_SEND_SECONDS', env.NOTICE_SEND_SECONDS, 10) * 1000,
    noticeBatchSize: Math.floor(positive('NOTICE_BATCH_SIZE', env.NOTICE_BATCH_SIZE, 200)),
    staffNotificationRetentionMs:
      nonNegative('STAFF_NOTIFICATION_RETENTION_DAYS', env.STAFF_NOTIFICATION_RETENTION_DAYS, 90) *
      86_400_000,
    noticeMaxRecipients: Math.floor(positive('NOTICE_MAX_RECIPIENTS', env.NOTICE_MAX_RECIPIENTS, 100_000)),
    staffStreamsPerUser: Math.floor(positive('STAFF_STREAMS_PER_USER', env.STAFF_STREAMS_PER_USER, 5)),
    staffStreamsMax: Math.floor(positive('STAFF_STREAMS_MAX', env.STAFF_STREAMS_MAX, 1000)),
    streamHeartbeatMs: positive('STREAM_HEARTBEAT_SECONDS', env.STREAM_HEARTBEAT_SECONDS, 15) * 1000,
    secretRetireMs: minutesOrZero('SECRET_RETIRE_MINUTES', env.SECRET_RETIRE_MINUTES, 1),
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownDrainMs: nonNegative('SHUTDOWN_DRAIN_SECONDS', env.SHUTDOWN_DRAIN_SECONDS, 0) * 1000,
    shutdownTimeoutMs: positive('SHUTDOWN_TIMEOUT_SECONDS', env.SHUTDOWN_TIMEOUT_SECONDS, 25) * 1000,
    hashConcurrency: Math.floor(
      positive('HASH_CONCURRENCY', env.HASH_CONCURRENCY, os.availableParallelism()),
    ),
    approverCoolDownMs: nonNegative('APPROVER_COOL_DOWN_HOURS', env.APPROVER_COOL_DOWN_HOURS, 24) * 3_600_000,
    accessReview: accessReviewOf(env),
    ssoKeyCooldownMs: nonNegative('SSO_KEY_COOLDOWN_SECONDS', env.SSO_KEY_COOLDOWN_SECONDS, 30) * 1000,
    ssoAllowHttpIssuer: ['1', 'true', 'yes'].includes((env.SSO_ALLOW_HTTP_ISSUER ?? '').toLowerCase()),
    demoPassword: env.DEMO_PASSWORD || undefined,
    demoData,
    staffMfa: staffMfaOf(env.STAFF_MFA, demoData),
    fieldEncryptionKey: env.FIELD_ENCRYPTION_KEY || undefined,
    hubDomain: env.HUB_DOMAIN ?? 'hub.sac-platform.example',
    dnsServers: list(env.DNS_SERVERS),
    domainRecheckMs: minutesOrZero('DOMAIN_RECHECK_MINUTES', env.DOMAIN_RECHECK_MINUTES, 10),
    domainVerifiedRecheckMs:
      minutesOrZero('DOMAIN_VERIFIED_RECHECK_HOURS', env.DOMAIN_VERIFIED_RECHECK_HOURS, 24) * 60,
    logLevel: env.LOG_LEVEL ?? 'info',
    logFormat: logFormatOf(env.LOG_FORMAT, terminal),
    searchWarmUpMs: nonNegative('SEARCH_WARM_UP_MS', env.SEARCH_WARM_UP_MS, 400),
    helperThreadNice: niceValue(env.HELPER_THREAD_NICE),
    userInputBudgetMs: positive('USER_INPUT_BUDGET_MS', env.USER_INPUT_BUDGET_MS, 1000),
    siteAccessStaffNames: staffNames(env.SITE_ACCESS_STAFF_NAMES),
    impersonationReasons: reasonsOf(env),
    breakGlassEnabled: breakGlassEnabledOf(env),
    addressLimits: addressLimitsOf(env),
    mailPollMs: positive('MAIL_OUTBOX_POLL_SECONDS', env.MAIL_OUTBOX_POLL_SECONDS, 2) * 1000,
    mailClaimMs: positive('MAIL_CLAIM_SECONDS', env.MAIL_CLAIM_SECONDS, 300) * 1000,
    trailStream: trailStreamOf(env),
    webhooks: webhooksOf(env),
    bulk: bulkOf(env),
  };
}
