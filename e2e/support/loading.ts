import { expect, type Locator, type Page } from '@playwright/test';

/**
 * What shows while something loads: a table body of skeleton rows or a busy button
 * (aria-busy), a skeleton, a "Loading" line in the content.
 */
const LOADING = '[aria-busy="true"], .skeleton, main [role="status"]:text("Loading")';

/**
 * Waits until a data table holds its rows (or its empty or error line): while they load it shows
 * skeleton rows, which count as rows and show, so a read before then sees none of the data.
 */
export async function rowsIn(table: Locator): Promise<Locator> {
  await expect(table).toBeVisible();
  await expect(table.locator('tbody[aria-busy="true"]')).toHaveCount(0);
  return table;
}

/** Waits until nothing on the page is loading or busy: what is read then is what the screen shows. */
export async function loaded(page: Page, message?: string): Promise<void> {
  await expect(page.locator(LOADING), message).toHaveCount(0);
}
