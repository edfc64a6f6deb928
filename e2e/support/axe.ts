import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/** Which rules a run holds the page to: `tags` (axe's own default set without), and Label in Name. */
interface AxeRules {
  tags?: readonly string[];
  labelInName?: boolean;
}

/** WCAG 2.1 A and AA and axe's best practices: the rules every screen of the console is held to. */
export const CONSOLE_AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * axe on the page as it is now, once its entry transitions (toasts, dialogs) have settled, so
 * colours are measured at rest. `tags` picks the rules (axe's own default set without it);
 * `labelInName` turns on Label in Name (WCAG 2.5.3), an experimental rule of axe: a control's
 * accessible name must hold its visible text, or speech users cannot say what they see.
 * Only violations and incomplete checks are read, so axe builds full node lists for those alone
 * (one node each for passed and inapplicable rules); the suite's time did not measurably change.
 */
export async function runAxe(page: Page, opts: AxeRules = {}): Promise<AxeResults> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {}))));
  let axe = new AxeBuilder({ page });
  if (opts.tags) axe = axe.withTags([...opts.tags]);
  return axe
    .options({
      ...(opts.labelInName ? { rules: { 'label-content-name-mismatch': { enabled: true } } } : {}),
      resultTypes: ['violations', 'incomplete'],
    })
    .analyze();
}

/** The serious and critical violations of a result, a line per node: `impact rule: target — why`. */
export function seriousOf(result: AxeResults): string[] {
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) => `${v.impact} ${v.id}: ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1] ?? ''}`,
      ),
    );
}

/** The serious and critical violations on the page as it is now (runAxe's options). */
export async function axeSerious(page: Page, opts: AxeRules = {}): Promise<string[]> {
  return seriousOf(await runAxe(page, opts));
}
