import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { nodeRuntime } from '../../scripts/node-runtime.mjs';
import { DEMO_PASSWORD, ROOT, RUN_DIR, SMTP_PORT } from './env.ts';

/**
 * An API process of a test's own, beside the run's server: for what the run's server is not
 * configured for (two processes on one PostgreSQL database, STAFF_MFA=required, a short
 * STEP_UP_MINUTES). Demo data, its
 * own data directory and port, the run's mail sink; `env` adds to or overrides that.
 */
export interface ApiProcess {
  url: string;
  child: ChildProcess;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

export async function startApi(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = path.join(RUN_DIR, `api-${port}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const log = fs.openSync(path.join(RUN_DIR, `api-${port}.log`), 'a');
  const child = spawn(nodeRuntime().node, ['apps/api/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: '1',
      DEMO_PASSWORD,
      STAFF_MFA: 'optional',
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      CONSOLE_ORIGINS: url,
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  const until = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API on ${port} exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { url, child };
    } catch {
      // not yet listening
    }
    if (Date.now() > until) throw new Error(`the API on ${port} was not ready in 90 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function stopApi(api: ApiProcess | undefined): Promise<void> {
  if (!api || api.child.exitCode !== null) return;
  const exited = new Promise((r) => api.child.once('exit', r));
  api.child.kill('SIGTERM');
  await exited;
}

/** A page of a fresh browser context on `baseURL` (an API process of the test's own). */
export async function pageOn(browser: Browser, baseURL: string) {
  return (await browser.newContext({ baseURL })).newPage();
}
