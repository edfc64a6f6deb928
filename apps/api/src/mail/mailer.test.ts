import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSmtpListener } from '../../test/smtp-listener.ts';
import { createMailer } from './mailer.ts';

const link = 'http://localhost:3001/login?vtype=reset&vtoken=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH';

describe('mailer', () => {
  it('writes .eml files to the outbox and logs the links when no SMTP server is configured', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-outbox-'));
    const logged: Array<{ obj: Record<string, unknown>; msg: string }> = [];
    const mailer = createMailer({
      outboxDir: dir,
      from: 'Console <no-reply@example.com>',
      log: { info: (obj, msg) => logged.push({ obj: obj as Record<string, unknown>, msg }), error() {} },
    });
    mailer.send({ to: 'a@example.com', subject: 'Hello', text: `Open ${link}` });
    await mailer.flush();
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = fs.readFileSync(path.join(dir, files[0]!), 'utf8');
    expect(eml).toContain('To: a@example.com');
    expect(eml).toContain('Subject: Hello');
    expect(logged[0]?.obj.links).toEqual([link]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('delivers to the SMTP server at SMTP_URL', async () => {
    const smtp = await startSmtpListener();
    const mailer = createMailer({
      smtpUrl: smtp.url,
      outboxDir: '/nonexistent',
      from: 'c@example.com',
      log: { info() {}, error() {} },
    });
    mailer.send({ to: 'b@example.com', subject: 'Reset', text: `Open ${link}` });
    await mailer.flush();
    const m = await smtp.waitFor((x) => x.to.includes('b@example.com'));
    expect(m.subject).toBe('Reset');
    expect(m.text).toContain(link);
    await smtp.close();
  });

  it('logs a delivery failure instead of throwing at the caller', async () => {
    const errors: string[] = [];
    const mailer = createMailer({
      smtpUrl: 'smtp://127.0.0.1:1',
      outboxDir: '/nonexistent',
      from: 'c@example.com',
      log: { info() {}, error: (_o, msg) => errors.push(msg) },
    });
    mailer.send({ to: 'b@example.com', subject: 'x', text: 'y' });
    await mailer.flush();
    expect(errors).toEqual(['mail delivery failed']);
  });
});
