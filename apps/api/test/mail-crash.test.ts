import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HEADERS } from '@sac/contract/constants';
import { afterAll, describe, expect, it } from 'vitest';
import { startApi } from './api-process.ts';
import { startSmtpListener } from './smtp-listener.ts';

/**
 * Durable mail: invitations acknowledged by the real server while its mail cannot leave (an SMTP
 * server that accepts the connection and never answers) are all delivered, once each, by the
 * server started again on the same data after a SIGKILL. Process-level, so it runs in the PGlite
 * leg only (the outbox's own tests run on both engines).
 */
const postgresLeg = process.env.TEST_DB === 'postgres';
const DEMO_PASSWORD = 'Crash#Mail2026';
const INVITES = 12;
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe.skipIf(postgresLeg)('kill -9 with mail waiting', () => {
  it('loses no acknowledged invitation and sends each once after the restart', async () => {
    const mute = net.createServer(() => {}); // takes connections, never greets
    await new Promise<void>((r) => mute.listen(0, '127.0.0.1', r));
    const mutePort = (mute.address() as net.AddressInfo).port;
    const smtp = await startSmtpListener();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-mail-crash-'));
    const env = {
      DATA_DIR: dataDir,
      DEMO_PASSWORD,
      DOMAIN_RECHECK_MINUTES: '0',
      MAIL_CLAIM_SECONDS: '1',
      MAIL_OUTBOX_POLL_SECONDS: '1',
    };
    try {
      const first = await startApi(
        { ...env, SMTP_URL: `smtp://127.0.0.1:${mutePort}` },
        { untilReady: true, readyTimeoutMs: 120_000 },
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
      first.child.kill('SIGKILL');
      await first.exited;
      expect(smtp.messages).toEqual([]);

      const second = await startApi(
        { ...env, SMTP_URL: smtp.url },
        { untilReady: true, readyTimeoutMs: 120_000 },
      );
      children.add(second.child);
      for (const email of emails) await smtp.waitFor((m) => m.to.includes(email), 20_000);
      // one more poll and claim time: nothing is sent twice
      await new Promise((r) => setTimeout(r, 2_500));
      const counts = emails.map((e) => smtp.messages.filter((m) => m.to.includes(e)).length);
      expect(counts).toEqual(emails.map(() => 1));
      second.child.kill('SIGTERM');
      await second.exited;
    } finally {
      mute.close();
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
