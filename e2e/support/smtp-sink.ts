// A real SMTP server on loopback for the browser tests: each message it receives is written as
// JSON to MAIL_DIR, where the specs (in other processes) read it.
import fs from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { MAIL_DIR, SMTP_PORT } from './env.ts';

fs.mkdirSync(MAIL_DIR, { recursive: true });
let n = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  // No reverse DNS look-up of each client: ~100 ms a connection that every mail would wait on.
  disableReverseLookup: true,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const to = session.envelope.rcptTo.map((r) => r.address);
      const file = path.join(MAIL_DIR, `${Date.now()}-${n++}.json`);
      // Written aside and renamed, so a spec polling the directory never reads half a message.
      fs.writeFileSync(`${file}.part`, JSON.stringify({ to, raw: Buffer.concat(chunks).toString('utf8') }));
      fs.renameSync(`${file}.part`, file);
      callback();
    });
  },
});
server.listen(SMTP_PORT, '127.0.0.1', () => console.log(`SMTP sink on ${SMTP_PORT}`));
