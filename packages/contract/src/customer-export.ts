import { z } from 'zod';
import { exportSelectionUids } from './bulk.ts';
import { oneCriterion, searchShape } from './customers.ts';

/**
 * The customer search's export (its query and answer). A module apart from customers.ts, whose
 * search rules the console loads with its first screens: the export's query is the API's alone
 * (the console only sends it), so its selection's rules stay out of the console's bundles.
 */

/**
 * GET /admin/searchcustomer/export: the same criterion and sort as the search, every match as CSV
 * in the order the list shows them (no cursor); with `uids`, only those of them.
 */
export const searchCustomerExportQuery = z
  .object({
    ...searchShape,
    /** A selection's customers (the search's bulk bar): only these, as the search and scope allow. */
    uids: exportSelectionUids,
  })
  .superRefine(oneCriterion);
/** The export's body, described for the API document (the file itself is text, streamed). */
export const searchCustomerExportResponse = z.string();
