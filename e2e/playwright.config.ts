import fs from 'node:fs';
import { defineConfig } from '@playwright/test';
import { nodeRuntime } from '../scripts/node-runtime.mjs';
import {
  API_LOG,
  API_PORT,
  BASE_URL,
  DATA_DIR,
  DEMO_PASSWORD,
  DNS_PORT,
  MAIL_DIR,
  ROOT,
  RUN_DIR,
  SMTP_PORT,
} from './support/env.ts';

// The runner loads this file first; workers load it again and must not wipe the run's state.
if (!process.env.E2E_RUN_STARTED) {
  process.env.E2E_RUN_STARTED = '1';
  fs.rmSync(RUN_DIR, { recursive: true, force: true });
  fs.mkdirSync(MAIL_DIR, { recursive: true });
}

// The sinks and the API run from their TypeScript on Node 24, as npm start runs the API.
const node = nodeRuntime().node;

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // The run shares two cores with the API's PostgreSQL suite (scripts/test.mjs): a test of many
  // steps took 35 s there against 15 s alone. The limits catch a hang, so they leave that room.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  outputDir: `${RUN_DIR}/results`,
  // Zero CSP violations over the run (the API's reports and every page's console, support/csp.ts);
  // no personal data in the API's log (support/log-teardown.ts).
  globalTeardown: ['./support/csp-teardown.ts', './support/log-teardown.ts'],
  use: {
    baseURL: BASE_URL,
    // A failing test keeps its trace of actions and DOM snapshots, but no screencast: recording
    // one for every test kept Chromium's compositor drawing and encoding frames, a quarter of the
    // browser tests' CPU (docs/decisions.md, "The suites that run alone use every core").
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Every page's console into a file, where the CSP check reads it. One file per worker:
        // Chromium empties its log file at launch, and a worker that restarts launches again.
        '--enable-logging',
        `--log-file=${RUN_DIR}/chromium-${process.env.TEST_WORKER_INDEX ?? 'runner'}.log`,
        '--log-level=0',
      ],
    },
  },
  projects: [
    { name: 'light' },
    {
      // The dark theme (followed from the system) under axe on the screens that change nothing.
      name: 'dark',
      testMatch: 'accessibility.spec.ts',
      grep: /public screens|the shell|customers: search|site configuration/,
      use: { colorScheme: 'dark' },
    },
  ],
  webServer: [
    {
      command: `${node} e2e/support/smtp-sink.ts`,
      cwd: ROOT,
      port: SMTP_PORT,
      reuseExistingServer: false,
    },
    {
      // TCP readiness: the sink listens on UDP and TCP at the same port.
      command: `${node} e2e/support/dns-sink.ts`,
      cwd: ROOT,
      port: DNS_PORT,
      reuseExistingServer: false,
    },
    {
      // The real API and console on a fresh embedded database, mailing through the sink. Its log,
      // at the default level, is kept too: the teardown checks it holds no personal data.
      command: `${node} apps/api/src/main.ts 2>&1 | tee -a ${API_LOG}`,
      cwd: ROOT,
      url: `${BASE_URL}/runtime-config.json`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(API_PORT),
        HOST: '127.0.0.1',
        DATA_DIR,
        DEMO_PASSWORD,
        // The specs sign in with a password alone; staff-mfa.spec.ts sets up its own factors.
        STAFF_MFA: 'optional',
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        CONSOLE_ORIGINS: `${BASE_URL},http://localhost:${API_PORT}`,
        LOG_LEVEL: 'info',
        DNS_SERVERS: `127.0.0.1:${DNS_PORT}`,
        HUB_DOMAIN: 'hub.e2e.test',
        // Every spec calls the public doors from 127.0.0.1; the limits have API tests of their own.
        PASSWORD_RESET_CALLS_PER_HOUR: '10000',
        CUSTOMER_LINK_CALLS_PER_MINUTE: '10000',
        CUSTOMER_REQUEST_CALLS_PER_HOUR: '10000',
        // sso.spec.ts runs its OpenID provider on loopback over plain http
        SSO_ALLOW_HTTP_ISSUER: '1',
        // impersonation.spec.ts sees the case of a request as a link to the tracker
        IMPERSONATION_CASE_URL: 'https://tickets.example.com/browse/{case}',
        // webhooks.spec.ts subscribes a receiver on loopback over plain http, sent to at once
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_SEND_SECONDS: '1',
      },
    },
  ],
});
