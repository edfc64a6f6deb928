import { expect, test } from '@playwright/test';
import { signIn } from './support/sign-in.ts';

/**
 * The signed-in shell at phone, tablet, laptop (a 1280 px screen at 125 % zoom is 1024 px) and
 * desktop widths: no screen here scrolls sideways, and the user menu (Logout) stays in view.
 * A screenshot per screen and width is kept with the results.
 */
const WIDTHS = [360, 768, 1024, 1280, 1920];
const SCREENS = [
  ['dashboard', '/dashboard'],
  ['customer search', '/manage-customer/search-customer'],
  ['customer view', '/manage-customer/view-customer?uid=ada00000-0000-4000-8000-000000001815'],
  ['my sessions', '/account/sessions'],
] as const;

for (const width of WIDTHS) {
  test(`the shell and its screens fit ${width} px`, async ({ page }, info) => {
    await page.setViewportSize({ width, height: 800 });
    await signIn(page, 'superadmin@example.com');
    for (const [name, path] of SCREENS) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      const { scroll, inner } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        inner: window.innerWidth,
      }));
      await page.screenshot({
        path: info.outputPath(`${name.replace(/ /g, '-')}-${width}.png`),
        fullPage: true,
      });
      expect(scroll, `${name} at ${width} px is ${scroll} px wide`).toBeLessThanOrEqual(inner);
      const menu = await page.getByRole('button', { name: /superadmin@example.com/ }).boundingBox();
      expect(menu, `${name} at ${width} px: the user menu`).not.toBeNull();
      expect(menu!.x + menu!.width, `${name} at ${width} px: the user menu is in view`).toBeLessThanOrEqual(
        inner,
      );
    }
  });
}
