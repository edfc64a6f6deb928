import fs from 'node:fs';
import path from 'node:path';
import { API_LOG, DATA_DIR } from './env.ts';

/** An email address anywhere in a line (what a log must not hold). */
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
/** The named demo customers' other personal data, as the demo seed writes it. */
const NAMES = ['Lovelace', 'Babbage'];

/**
 * Fails the browser run when the API's log (its JSON lines, at the default level) holds personal
 * data: any email address, the named demo customers' names, or a demo site's API key or secret.
 * The browser specs search by each of them, so each reached the server in a URL or a body.
 *
 * @public Playwright loads this default export by path (globalTeardown in playwright.config.ts).
 */
export default async function logTeardown(): Promise<void> {
  if (!fs.existsSync(API_LOG)) throw new Error(`no API log at ${API_LOG}`);
  const lines = fs
    .readFileSync(API_LOG, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'));
  const sites = (
    JSON.parse(fs.readFileSync(path.join(DATA_DIR, 'demo-sign-in.json'), 'utf8')) as {
      sites: { apiKey: string; secret: string }[];
    }
  ).sites;
  const secrets = sites.flatMap((s) => [s.apiKey, s.secret]);
  const found = lines.flatMap((line, i) => {
    const hits = [
      ...(line.match(EMAIL) ?? []),
      ...NAMES.filter((n) => line.includes(n)),
      ...secrets.filter((s) => line.includes(s)).map(() => '(a demo site key or secret)'),
    ];
    return hits.map((h) => `line ${i + 1}: ${h}`);
  });
  if (found.length > 0)
    throw new Error(`the API log holds personal data or secrets:\n${found.slice(0, 20).join('\n')}`);
  if (lines.length < 100) throw new Error(`the API log has only ${lines.length} JSON lines: is it logging?`);
  console.log(`log: ${lines.length} lines of the API's log, no email, name or secret in them`);
}
