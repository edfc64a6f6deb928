import type { Page } from '@playwright/test';

/**
 * Screenshots of the page as it is now at 360, 1024 and 1920 px, light and dark, into
 * E2E_SHOTS_DIR (none when unset). Full pages, or the viewport alone for an open dialog.
 */
export async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  const shots = process.env.E2E_SHOTS_DIR;
  if (!shots) return;
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const scheme of ['light', 'dark'] as const)
    for (const width of [360, 1024, 1920]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${shots}/${name}-${width}-${scheme}.png`, fullPage });
    }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(size);
}
