import { chromiumLogs, unexpectedViolations } from './csp.ts';

/**
 * Fails the browser run when any page met a Content-Security-Policy violation: zero over the
 * whole suite, whichever spec ran. Runs after every worker (and so every browser) has closed.
 *
 * @public Playwright loads this default export by path (globalTeardown in playwright.config.ts).
 */
export default async function cspTeardown(): Promise<void> {
  const found = unexpectedViolations();
  if (found.length > 0) {
    throw new Error(
      `${found.length} Content-Security-Policy violation(s) during the browser run:\n${found.join('\n')}`,
    );
  }
  if (chromiumLogs().length === 0) console.warn("csp: no Chromium log; only the API's reports were checked");
  console.log('csp: no Content-Security-Policy violation during the browser run');
}
