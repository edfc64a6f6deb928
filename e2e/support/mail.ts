import fs from 'node:fs';
import path from 'node:path';
import { API_PORT, MAIL_DIR } from './env.ts';

function decodeQuotedPrintable(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Waits for a message to `to` received by the SMTP sink after `since`, and answers its first link. */
export async function waitForLink(to: string, since: number, timeoutMs = 10_000): Promise<string> {
  return (await waitForLinks(to, since, timeoutMs))[0]!;
}

/**
 * Every link to the console in the newest message to `to` received after `since` (and holding
 * `holding`, when given: a message received in the same millisecond as `since` counts too).
 */
export async function waitForLinks(
  to: string,
  since: number,
  timeoutMs = 10_000,
  holding?: string,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of fs.existsSync(MAIL_DIR) ? fs.readdirSync(MAIL_DIR).sort().reverse() : []) {
      if (!f.endsWith('.json') || Number(f.split('-')[0]) < since) continue;
      const m = JSON.parse(fs.readFileSync(path.join(MAIL_DIR, f), 'utf8')) as { to: string[]; raw: string };
      if (!m.to.includes(to)) continue;
      const text = /quoted-printable/i.test(m.raw) ? decodeQuotedPrintable(m.raw) : m.raw;
      if (holding !== undefined && !text.includes(holding)) continue;
      const body = text
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join('\n');
      // The console's links: a request's case link goes to the provider's tracker (IMPERSONATION_CASE_URL).
      const links = body.match(/https?:\/\/[^\s"<>]+/g)?.filter((l) => new URL(l).port === String(API_PORT));
      if (links?.length) return links;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
}
