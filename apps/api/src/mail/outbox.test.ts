import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../test/harness.ts';
import { startSmtpListener } from '../../test/smtp-listener.ts';
import type { Db } from '../db/db.ts';
import { ManualClock } from '../lib/clock.ts';
import { createMailTransport, type MailMessage, type MailTransport } from './mailer.ts';
import { createOutboxMailer, MAIL_MAX_ATTEMPTS, retryDelayMs } from './outbox.ts';

// The outbox: mail is a row written with the change that causes it, sent after the commit, retried
// after a failure, and sent once however many instances look through the table.

let db: Db;
let drop: () => Promise<void>;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
const log = { info() {}, error() {} };

beforeAll(async () => {
  ({ db, drop } = await freshDb());
  smtp = await startSmtpListener();
});
afterAll(async () => {
  await smtp.close();
  await drop();
});

const smtpTransport = () =>
  createMailTransport({ smtpUrl: smtp.url, outboxDir: '/nonexistent', from: 'c@example.com', log });
const received = (to: string) => smtp.messages.filter((m) => m.to.includes(to)).length;
const mail = (to: string): MailMessage => ({ to, subject: `For ${to}`, text: 'Hello' });

describe('mail outbox', () => {
  it('sends what a committed transaction queued, once, and nothing of one rolled back', async () => {
    const mailer = createOutboxMailer({ db, clock: new ManualClock(), transport: smtpTransport(), log });
    await db.transaction(async (tx) => {
      await mailer.send(tx, mail('kept@example.com'));
    });
    await db
      .transaction(async (tx) => {
        await mailer.send(tx, mail('rolled-back@example.com'));
        throw new Error('the change failed');
      })
      .catch(() => {});
    await smtp.waitFor((m) => m.to.includes('kept@example.com'));
    await mailer.flush();
    await mailer.flush();
    expect(received('kept@example.com')).toBe(1);
    expect(received('rolled-back@example.com')).toBe(0);
    mailer.close();
  });

  it('retries a failed delivery after its delay, and gives up after MAIL_MAX_ATTEMPTS', async () => {
    const clock = new ManualClock();
    let failing = true;
    const real = smtpTransport();
    const flaky: MailTransport = {
      description: 'flaky',
      deliver: (m) => (failing ? Promise.reject(new Error('421 try later')) : real.deliver(m)),
    };
    const mailer = createOutboxMailer({ db, clock, transport: flaky, log });
    await mailer.send(db, mail('retry@example.com'));
    await mailer.flush();
    expect(received('retry@example.com')).toBe(0);
    const row = await db.query<{ attempts: number; last_error: string }>(
      `SELECT attempts, last_error FROM mail_outbox WHERE to_address = 'retry@example.com'`,
    );
    expect(row.rows[0]).toEqual({ attempts: 1, last_error: '421 try later' });
    // not before its time
    await mailer.flush();
    expect(
      (await db.query(`SELECT attempts FROM mail_outbox WHERE to_address = 'retry@example.com'`)).rows[0],
    ).toEqual({ attempts: 1 });
    failing = false;
    clock.advance(retryDelayMs(1));
    await mailer.flush();
    expect(received('retry@example.com')).toBe(1);

    failing = true;
    await mailer.send(db, mail('doomed@example.com'));
    for (let i = 1; i <= MAIL_MAX_ATTEMPTS + 2; i++) {
      await mailer.flush();
      clock.advance(retryDelayMs(i));
    }
    const doomed = await db.query<{ attempts: number; failed: boolean }>(
      `SELECT attempts, failed_at IS NOT NULL AS failed FROM mail_outbox WHERE to_address = 'doomed@example.com'`,
    );
    expect(doomed.rows[0]).toEqual({ attempts: MAIL_MAX_ATTEMPTS, failed: true });
    mailer.close();
  });

  it('two instances looking through one outbox at once send each message once', async () => {
    const clock = new ManualClock();
    const a = createOutboxMailer({ db, clock, transport: smtpTransport(), log });
    const b = createOutboxMailer({ db, clock, transport: smtpTransport(), log });
    a.close();
    b.close(); // no watching: only the two flushes below send
    const to = Array.from({ length: 30 }, (_, i) => `pair${i}@example.com`);
    await db.transaction(async (tx) => {
      for (const t of to) await a.send(tx, mail(t));
    });
    await Promise.all([a.flush(), b.flush(), a.flush(), b.flush()]);
    expect(to.map(received)).toEqual(to.map(() => 1));
  });

  it('a message left by an instance that stopped before sending is sent by the next one', async () => {
    const clock = new ManualClock();
    const gone = createOutboxMailer({ db, clock, transport: smtpTransport(), log });
    gone.close();
    await gone.send(db, mail('left@example.com'));
    const next = createOutboxMailer({ db, clock, transport: smtpTransport(), log });
    await next.flush();
    expect(received('left@example.com')).toBe(1);
    next.close();
  });

  it('a message delivered but not marked sent (a crash between the two) is sent again as the same message', async () => {
    const clock = new ManualClock();
    const first = createOutboxMailer({ db, clock, transport: smtpTransport(), log });
    first.close();
    await first.send(db, mail('twice@example.com'));
    await first.flush();
    // As if the instance died after the server took the mail and before its sent_at was written.
    await db.query(
      `UPDATE mail_outbox SET sent_at = NULL, claimed_until = NULL WHERE to_address = 'twice@example.com'`,
    );
    const next = createOutboxMailer({ db, clock, transport: smtpTransport(), log });
    next.close();
    await next.flush();
    const copies = smtp.messages.filter((m) => m.to.includes('twice@example.com'));
    expect(copies).toHaveLength(2);
    const id = (
      await db.query<{ id: string }>(`SELECT id FROM mail_outbox WHERE to_address = 'twice@example.com'`)
    ).rows[0]!.id;
    // One Message-ID, named after the outbox row, at the sender's domain: a receiver drops the copy.
    expect(copies[0]!.messageId).toMatch(new RegExp(`^<outbox-${id}\\.[0-9a-f]{32}@example\\.com>$`));
    expect(copies[1]!.messageId).toBe(copies[0]!.messageId);
  });
});
