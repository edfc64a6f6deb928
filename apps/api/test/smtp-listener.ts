import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The names of the header fields, in order, as a client parses them (folded lines unfolded). */
  headerNames: string[];
  /** The Subject as a mail client shows it: unfolded, its encoded-words (RFC 2047) decoded. */
  subject: string;
  /** The Message-ID header as sent, with its angle brackets. */
  messageId: string;
  /** The decoded text body. */
  text: string;
}

/** Undoes quoted-printable: soft line breaks, then =XX escapes. */
function decodeQuotedPrintable(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The header block's fields, each folded line joined to its field. */
function headerFields(raw: string): Array<{ name: string; value: string }> {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const fields: Array<{ name: string; value: string }> = [];
  for (const line of head.split(/\r?\n/)) {
    const last = fields.at(-1);
    if (/^[ \t]/.test(line) && last) last.value += line;
    else {
      const colon = line.indexOf(':');
      fields.push({ name: line.slice(0, colon), value: line.slice(colon + 1).trim() });
    }
  }
  return fields;
}

/** Decodes the encoded-words of a header value, as a mail client does (space between two dropped). */
function decodeWords(value: string): string {
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(word, (_m, _charset, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function textOf(raw: string): string {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head ?? '')) return decodeQuotedPrintable(body);
  if (/content-transfer-encoding:\s*base64/i.test(head ?? ''))
    return Buffer.from(body, 'base64').toString('utf8');
  return body;
}

/**
 * A real SMTP server on loopback that keeps what it receives, for tests. `refuse` may answer a
 * recipient with an SMTP error text (a 4xx or 5xx reply), as a mail server refusing it would.
 * `hold` keeps each message and never answers its end of data: the sender cannot tell it arrived.
 */
export async function startSmtpListener(
  opts: { refuse?(address: string): string | undefined; hold?: boolean } = {},
): Promise<{
  url: string;
  messages: ReceivedMail[];
  waitFor(predicate: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** How many SMTP connections clients have opened so far. */
  connections(): number;
  close(): Promise<void>;
}> {
  let connections = 0;
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // smtp-server looks up each client's name in reverse DNS by default: ~100 ms a connection on
    // loopback, which made every mail of a test (and a 500-mail flush) wait on it.
    disableReverseLookup: true,
    // Closing waits this long for clients' pooled connections to quit, then drops them.
    closeTimeout: 1000,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onRcptTo(address, _session, callback) {
      const refusal = opts.refuse?.(address.address);
      if (!refusal) return callback();
      return callback(Object.assign(new Error(refusal), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const fields = headerFields(raw);
        const subject = decodeWords(fields.find((f) => f.name.toLowerCase() === 'subject')?.value ?? '');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          headerNames: fields.map((f) => f.name),
          subject,
          messageId: /^message-id:\s*(.*)$/im.exec(raw)?.[1]?.trim() ?? '',
          text: textOf(raw),
        });
        for (const w of waiters.splice(0)) w();
        if (!opts.hold) callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    connections: () => connections,
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(predicate);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received)`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
