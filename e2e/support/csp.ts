import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR, RUN_DIR } from './env.ts';

/**
 * Two records of Content-Security-Policy violations over a browser run:
 * - the reports Chromium sends to the API's report-uri, which the API appends to
 *   DATA_DIR/csp-violations.ndjson;
 * - the console of every page of every context, which Chromium writes to chromium-*.log when
 *   launched with --enable-logging --log-file (see playwright.config.ts): a page's CSP errors
 *   land there without any code in the specs.
 * The deliberate violation of csp.spec.ts is marked: its report samples carry CANARY, and its
 * console lines are logged between CANARY_BEGIN and CANARY_END.
 */
const CSP_REPORTS_FILE = path.join(DATA_DIR, 'csp-violations.ndjson');
/** Chromium's log files of the run, one per worker (see playwright.config.ts). */
export function chromiumLogs(): string[] {
  if (!fs.existsSync(RUN_DIR)) return [];
  return fs
    .readdirSync(RUN_DIR)
    .filter((f) => /^chromium-.*\.log$/.test(f))
    .map((f) => path.join(RUN_DIR, f));
}
export const CANARY = 'csp-canary';
export const CANARY_BEGIN = 'csp-canary-begin';
export const CANARY_END = 'csp-canary-end';

export interface CspReport {
  at: string;
  documentUrl: string;
  blockedUrl: string;
  directive: string;
  sourceFile: string;
  line: number | null;
  column: number | null;
  sample: string;
}

/** Every report the API received in this run, in arrival order. */
export function cspReports(): CspReport[] {
  if (!fs.existsSync(CSP_REPORTS_FILE)) return [];
  return fs
    .readFileSync(CSP_REPORTS_FILE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CspReport);
}

const isCspConsoleLine = (l: string) => /:CONSOLE[:(]/.test(l) && /Content.Security.Policy/i.test(l);

/** The console lines about CSP in Chromium's log, split by whether they fall in a canary window. */
export function cspConsoleLines(): { canary: string[]; other: string[] } {
  const out = { canary: [] as string[], other: [] as string[] };
  let inCanary = false;
  const lines = chromiumLogs().flatMap((f) => fs.readFileSync(f, 'utf8').split('\n'));
  for (const l of lines) {
    if (/:CONSOLE[:(]/.test(l) && l.includes(`"${CANARY_BEGIN}"`)) inCanary = true;
    else if (/:CONSOLE[:(]/.test(l) && l.includes(`"${CANARY_END}"`)) inCanary = false;
    else if (isCspConsoleLine(l)) (inCanary ? out.canary : out.other).push(l);
  }
  return out;
}

/** The violations of the run that are not the deliberate one, as lines to print. */
export function unexpectedViolations(): string[] {
  const reports = cspReports()
    .filter((r) => !r.sample.includes(CANARY))
    .map(
      (r) =>
        `report ${r.at}: ${r.directive} blocked ${r.blockedUrl || '(none)'} on ${r.documentUrl}` +
        `${r.sourceFile ? ` at ${r.sourceFile}:${r.line}:${r.column}` : ''}${r.sample ? ` sample ${JSON.stringify(r.sample)}` : ''}`,
    );
  const consoleLines = cspConsoleLines().other.map((l) => `console: ${l.slice(0, 400)}`);
  return [...reports, ...consoleLines];
}
