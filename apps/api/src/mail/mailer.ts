import fs from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (List-Unsubscribe of a customer notice); names and values are ours, never a user's. */
  headers?: Record<string, string>;
  /**
   * What names this message for good (the outbox row's `outbox-<id>.<key>`): the Message-ID is
   * `<messageKey@sender's domain>`, so every delivery of the row is the same message.
   */
  messageKey?: string;
}

/** How a message leaves: SMTP, or a file in the outbox directory. Throws when it could not. */
export interface MailTransport {
  deliver(message: MailMessage): Promise<void>;
  /** Where messages go, for the start-up banner. */
  readonly description: string;
  /** Closes the connections it keeps open. */
  close?(): void;
}

/**
 * The SMTP address with nodemailer's connection pool on unless it says `pool=false`: a new
 * connection per mail costs its TCP, greeting and EHLO round trips every time (a customer notice to
 * thousands went at a few mails a second), while a pool keeps up to 5 open, 100 mails each.
 */
export function pooledSmtpUrl(smtpUrl: string): string {
  const u = new URL(smtpUrl);
  if (u.searchParams.has('pool')) return smtpUrl;
  u.searchParams.set('pool', 'true');
  return u.toString();
}

/** The part of an address after its last '@' (what a log may say of a recipient). */
const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1);

/**
 * The subject as a header value that every client shows as the text given. nodemailer passes ASCII
 * through as it is, so a typed encoded-word (`=?utf-8?Q?Hi=0D=0ABcc:…?=`) reached clients, which
 * decoded it into a line break and a fake header. A subject holding `=?` is therefore encoded here
 * whole, as base64 encoded-words of at most 30 bytes each (whole characters; 52 characters a word,
 * nodemailer's own size, so its folding never cuts one), which decode to exactly the typed text.
 * Line breaks become spaces first, as nodemailer does for any header.
 */
function subjectHeader(subject: string): string {
  const text = subject.replace(/\r\n|\r|\n/g, ' ');
  if (!text.includes('=?')) return text;
  const words: string[] = [];
  let chunk = '';
  for (const ch of text) {
    if (Buffer.byteLength(chunk + ch) > 30) {
      words.push(chunk);
      chunk = '';
    }
    chunk += ch;
  }
  words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w).toString('base64')}?=`).join(' ');
}

/** The domain of a From such as `Console <no-reply@example.com>`, for the Message-IDs it sends. */
function senderDomain(from: string): string {
  const address = /<([^>]*)>\s*$/.exec(from)?.[1] ?? from;
  const domain = address.includes('@') ? domainOf(address).trim() : '';
  return /^[A-Za-z0-9.-]+$/.test(domain) ? domain : 'localhost';
}

interface Logger {
  info(obj: object, msg: string): void;
}

/**
 * nodemailer over SMTP when `smtpUrl` is set; otherwise each message is written as an .eml file
 * under `outboxDir`, and its links are logged so a developer can follow them. Messages reach it
 * through the outbox table (outbox.ts), which retries what it throws.
 */
export function createMailTransport(opts: {
  smtpUrl?: string | undefined;
  outboxDir: string;
  from: string;
  log: Logger;
}): MailTransport {
  // nodemailer is loaded with the first message, not at start-up (it is ~40 ms of a restart).
  let transport: Promise<Transporter> | undefined;
  const transporter = () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      opts.smtpUrl
        ? nodemailer.createTransport(pooledSmtpUrl(opts.smtpUrl))
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    );
    return transport;
  };
  const domain = senderDomain(opts.from);
  async function deliver(m: MailMessage): Promise<void> {
    const mail = {
      // Without a key (a message not from the outbox) nodemailer makes up a random one.
      ...(m.messageKey ? { messageId: `<${m.messageKey}@${domain}>` } : {}),
      from: opts.from,
      to: m.to,
      // Subjects are encoded here only: the mail bodies (modules/*/*.mails.ts) give plain text.
      subject: subjectHeader(m.subject),
      text: m.text,
      html: m.html,
      headers: m.headers,
    };
    const t = await transporter();
    if (opts.smtpUrl) {
      const sent = await t.sendMail(mail);
      // No address or subject in the log (personal data, customer names): the recipient's domain
      // and the Message-ID, which the mail server's own log names too.
      opts.log.info({ toDomain: domainOf(m.to), messageId: sent.messageId }, 'mail sent');
      return;
    }
    const info = await t.sendMail(mail);
    fs.mkdirSync(opts.outboxDir, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^a-zA-Z0-9.-]/g, '')}.eml`;
    const file = path.join(opts.outboxDir, name);
    // Written aside and renamed, so whoever watches the outbox never picks up half a message.
    fs.writeFileSync(`${file}.part`, info.message as Buffer, { mode: 0o600 });
    fs.renameSync(`${file}.part`, file);
    const links = m.text.match(/https?:\/\/\S+/g) ?? [];
    // Without SMTP (development) the links are logged, so a developer can follow them; the
    // recipient and subject are in the file.
    opts.log.info({ toDomain: domainOf(m.to), file, links }, 'mail written to outbox');
  }

  return {
    description: opts.smtpUrl ? 'SMTP' : `files in ${opts.outboxDir}`,
    deliver,
    close() {
      void transport?.then((t) => t.close());
    },
  };
}
