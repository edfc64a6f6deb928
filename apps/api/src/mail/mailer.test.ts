import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSmtpListener } from '../../test/smtp-listener.ts';
import { createMailTransport, pooledSmtpUrl } from './mailer.ts';

const link = 'http://localhost:3001/login?vtype=reset&vtoken=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH';

describe('mailer', () => {
  it('writes .eml files to the outbox and logs the links when no SMTP server is configured', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-outbox-'));
    const logged: Array<{ obj: Record<string, unknown>; msg: string }> = [];
    const mailer = createMailTransport({
      outboxDir: dir,
      from: 'Console <no-reply@example.com>',
      log: { info: (obj, msg) => logged.push({ obj: obj as Record<string, unknown>, msg }) },
    });
    await mailer.deliver({ to: 'a@example.com', subject: 'Hello', text: `Open ${link}` });
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
    const mailer = createMailTransport({
      smtpUrl: smtp.url,
      outboxDir: '/nonexistent',
      from: 'c@example.com',
      log: { info() {} },
    });
    await mailer.deliver({ to: 'b@example.com', subject: 'Reset', text: `Open ${link}` });
    const m = await smtp.waitFor((x) => x.to.includes('b@example.com'));
    expect(m.subject).toBe('Reset');
    expect(m.text).toContain(link);
    mailer.close?.();
    await smtp.close();
  });

  it('keeps its SMTP connections open for the next mails, unless SMTP_URL says pool=false', async () => {
    const smtp = await startSmtpListener();
    const send = async (smtpUrl: string) => {
      const mailer = createMailTransport({
        smtpUrl,
        outboxDir: '/nonexistent',
        from: 'c@example.com',
        log: { info() {} },
      });
      for (let i = 0; i < 6; i++)
        await mailer.deliver({ to: `p${i}@example.com`, subject: 'Notice', text: 'x' });
      mailer.close?.();
    };
    await send(smtp.url);
    expect(smtp.connections()).toBe(1);
    await send(`${smtp.url}/?pool=false`);
    expect(smtp.connections()).toBe(7);
    expect(smtp.messages).toHaveLength(12);
    await smtp.close();
    expect(pooledSmtpUrl('smtp://user:p%40ss@mail.example:587')).toBe(
      'smtp://user:p%40ss@mail.example:587?pool=true',
    );
    expect(pooledSmtpUrl('smtps://mail.example/?pool=false')).toBe('smtps://mail.example/?pool=false');
  });

  it('throws when the SMTP server cannot be reached, for the outbox to retry', async () => {
    const mailer = createMailTransport({
      smtpUrl: 'smtp://127.0.0.1:1',
      outboxDir: '/nonexistent',
      from: 'c@example.com',
      log: { info() {} },
    });
    await expect(mailer.deliver({ to: 'b@example.com', subject: 'x', text: 'y' })).rejects.toThrow();
  });

  it('sends a subject as the text typed: an encoded-word in it stays literal, and adds no header', async () => {
    const smtp = await startSmtpListener();
    const mailer = createMailTransport({
      smtpUrl: smtp.url,
      outboxDir: '/nonexistent',
      from: 'c@example.com',
      log: { info() {} },
    });
    const subjects = [
      '=?utf-8?Q?Hi=0D=0ABcc:_x@evil.example?=',
      'Plan =?UTF-8?B?SGkNCkJjYzogeEBldmlsLmV4YW1wbGU=?= change',
      `Ünïcödé ${'=?utf-8?q?a?= '.repeat(12)}end`,
      'Plain subject, 50% off = good?',
    ];
    for (const [i, subject] of subjects.entries())
      await mailer.deliver({ to: `s${i}@example.com`, subject, text: 'x' });
    for (const [i, subject] of subjects.entries()) {
      const m = await smtp.waitFor((x) => x.to.includes(`s${i}@example.com`));
      expect(m.subject).toBe(subject);
      expect(m.headerNames.map((n) => n.toLowerCase())).not.toContain('bcc');
      expect(m.headerNames.filter((n) => n.toLowerCase() === 'subject')).toHaveLength(1);
    }
    mailer.close?.();
    await smtp.close();
  });
});
