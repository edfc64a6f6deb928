import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { API_NODE } from './api-process.ts';

// A busy port is one line that names PORT, and exit code 1: not a stack trace. Process-level, once.
describe.skipIf(process.env.TEST_DB === 'postgres')('a busy port', () => {
  it('says so in one line naming PORT and exits 1', async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as net.AddressInfo).port;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-busy-port-'));
    try {
      const child = spawn(API_NODE, [path.join(REPO_ROOT, 'apps/api/src/main.ts')], {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? os.tmpdir(),
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DEMO_PASSWORD: 'Busy#Port-2026',
          SEARCH_WARM_UP_MS: '0',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d) => {
        err += d;
      });
      child.stdout.resume();
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(err).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(err).toContain('PORT=');
      expect(err).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
