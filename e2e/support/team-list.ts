import { expect, type Locator, type Page } from '@playwright/test';
import { rowsIn } from './loading.ts';

/**
 * The row of `email` in the Super users table, on the page shown: the row whose email cell is it
 * (another row may name the address too, as who last confirmed its roles).
 */
export const rowOf = (page: Page, email: string): Locator =>
  page
    .getByRole('table', { name: 'Super users' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: email, exact: true }) });

/**
 * Pages forward through the Super users list until the row of `email` shows. Each page is read
 * only once it is the current page and its rows are in: counting right after Next would read the
 * page before it and could step over the row.
 */
export async function showRow(page: Page, email: string): Promise<Locator> {
  const table = page.getByRole('table', { name: 'Super users' });
  const pager = page.getByRole('navigation', { name: 'Pagination' });
  for (let n = 1; n <= 20; n++) {
    await expect(pager.getByRole('button', { name: `Page ${n}`, exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await rowsIn(table);
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    if ((await rowOf(page, email).count()) > 0) return rowOf(page, email);
    await pager.getByRole('button', { name: 'Next' }).click();
  }
  throw new Error(`no row for ${email}`);
}
