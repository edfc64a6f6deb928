import { expect, test } from '@playwright/test';
import { CANARY, CANARY_BEGIN, CANARY_END, cspConsoleLines, cspReports } from './support/csp.ts';

/**
 * The suite fails on any Content-Security-Policy violation (support/csp-teardown.ts). This proves
 * that both detectors see one: a deliberate inline event handler and inline style, marked so the
 * final check leaves them out, reach the API's report endpoint and Chromium's console log, and
 * the handler never runs.
 */
test('a CSP violation in a page is reported to the API and logged from the console', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  const before = cspReports().length;
  await page.evaluate((m) => console.log(m), CANARY_BEGIN);
  await page.evaluate((marker) => {
    const d = document.createElement('div');
    d.innerHTML = `<img alt="" src="data:," onerror="/*${marker}*/window.__canary=1"><b style="--${marker}:1;color:red">${marker}</b>`;
    document.body.append(d);
  }, CANARY);

  await expect
    .poll(() =>
      cspReports()
        .slice(before)
        .filter((r) => r.sample.includes(CANARY))
        .map((r) => r.directive)
        .sort(),
    )
    .toEqual(['script-src-attr', 'style-src-attr']);
  await expect.poll(() => cspConsoleLines().canary.length).toBeGreaterThanOrEqual(2);
  await page.evaluate((m) => console.log(m), CANARY_END);

  expect(await page.evaluate(() => (window as { __canary?: number }).__canary)).toBeUndefined();
  await expect(page.getByText(CANARY, { exact: true })).not.toHaveCSS('color', 'rgb(255, 0, 0)');
});
