import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { nodeRuntime } from '../../scripts/node-runtime.mjs';
import { DEMO_PASSWORD, ROOT, RUN_DIR, SMTP_PORT } from './env.ts';

/*
 * An API process of a spec's own, beside the run's server: for what needs another configuration
 * (a short step-up window) or a second process (events across instances). Demo data, the run's
 * mail sink, its own data directory and log under the run's directory.
 */

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

export interface Api {
  url: string;
  child: ChildProcess;
}

export async function startApi(env: Record<string, string>): Promise<Api> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = path.join(RUN_DIR, `notify-${port}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const log = fs.openSync(path.join(RUN_DIR, `notify-api-${port}.log`), 'a');
  const child = spawn(nodeRuntime().node, ['apps/api/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: '1',
      DEMO_PASSWORD,
      STAFF_MFA: 'optional',
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      CONSOLE_ORIGINS: url,
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

export async function stopApi(api: Api | undefined): Promise<void> {
  if (!api || api.child.exitCode !== null) return;
  const exited = new Promise((r) => api.child.once('exit', r));
  api.child.kill('SIGTERM');
  await exited;
}

export async function pageOn(browser: Browser, baseURL: string) {
  return (await browser.newContext({ baseURL })).newPage();
}
