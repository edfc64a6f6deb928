import type { Readable } from 'node:stream';
import type { searchCustomerExportQuery } from '@sac/contract/customer-export';
import {
  CUSTOMER_EXPORT_COLUMNS,
  CUSTOMER_EXPORT_ROW_LIMIT,
  criterionOf,
  SEARCH_COUNT_LIMIT,
  SEARCH_MESSAGES,
  type SearchCriterion,
} from '@sac/contract/customers';
import { sortParam } from '@sac/contract/list-sort';
import type { SiteScope } from '@sac/contract/role-scopes';
import type { z } from 'zod';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { csvFile, exportReading, fileStamp } from '../../lib/csv.ts';
import { recordEvent } from '../activity/activity.service.ts';
import { type ListedCriterion, matchesInOrder, rowsOfUids, searchCustomers } from './customer-search.repo.ts';
import { summary } from './customers.service.ts';
import { countMatches } from './search-counts.repo.ts';
import type { CustomerSort, SearchPosition, SearchRow } from './search-sql.ts';

/** The most customers an export writes (CUSTOMER_EXPORT_ROW_LIMIT). */
const LIMIT = CUSTOMER_EXPORT_ROW_LIMIT;
/** Rows an export reads per query: large enough to stream fast, small enough to interleave. */
const EXPORT_BATCH = 2000;

/**
 * Every customer a search matches, as CSV in the order its list shows them (under `sort`), read in
 * batches and streamed: its header names the columns, and x-export-rows how many rows follow. A
 * name, email or phone search in a list order (and a name in its own) reads its matches' uids in
 * that order in one statement, then their rows a batch at a time (matchesInOrder); the others walk
 * their index in keyset batches. On PostgreSQL every statement reads one snapshot, so a customer
 * renamed or added while the file streams is neither listed twice nor missed (consistentReader).
 * Refused past CUSTOMER_EXPORT_ROW_LIMIT matches. With `uids` (a selection), only those of the
 * matches (selectionSource). The export is recorded in the trail with its criterion, sort and row
 * count (and how many uids a selection named), not its term (a name, an address or a phone number:
 * personal data the trail would keep for ever, append-only).
 */
export async function exportSearch(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  q: z.output<typeof searchCustomerExportQuery>,
  release: () => void,
): Promise<{ rows: number; body: Readable; filename: string }> {
  const { criterion, term } = criterionOf(q);
  const { sort, uids } = q;
  return exportReading(ctx.db, release, async (db, end) => {
    const source = uids
      ? await selectionSource(db, criterion, term, sort, actor.scope, uids)
      : await exportSource(db, criterion, term, sort, actor.scope);
    const rows = source.rows;
    const exportedAt = ctx.clock.now().toISOString();
    // An event, not a change: the export changes no record, so there is nothing to lock and no
    // change to keep with its trail row. One statement of its own (on ctx.db, outside the
    // export's read-only snapshot), so not a write of the write path.
    await recordEvent(ctx.db, {
      at: new Date(exportedAt),
      action: 'customers.export',
      actorUid: actor.uid,
      actorEmail: actor.email,
      clientAddress: caller.clientAddress,
      details: {
        criterion,
        sort: sort ? sortParam(sort) : null,
        rows,
        ...(uids ? { selection: uids.length } : {}),
      },
    });
    const body = csvFile({
      header: CUSTOMER_EXPORT_COLUMNS,
      page: source.page,
      line: (r) => {
        const c = summary(r);
        return [c.Uid, c.FullName, c.Email, c.Status, c.Role, c.CreatedDate, c.ModifiedDate];
      },
      release: end,
    });
    const stamp = fileStamp(new Date(exportedAt));
    return { rows, body, filename: `customers-${criterion}-${stamp}.csv` };
  });
}

type ExportPage = (
  cursor: SearchPosition | number | undefined,
) => Promise<{ rows: readonly SearchRow[]; next: SearchPosition | number | undefined }>;

/** Whether the criterion's export reads its matches' uids in order first (matchesInOrder). */
const readsUidsFirst = (criterion: SearchCriterion, sort: CustomerSort | undefined) =>
  criterion === 'customerName' || (sort !== undefined && (criterion === 'emailid' || criterion === 'phone'));

/**
 * An export's row count and batches; refused past CUSTOMER_EXPORT_ROW_LIMIT matches. Where the
 * list sorts its matches (any list order, a name's substring tier), their uids are read once in
 * order, which is also the count, and a batch is the rows of the next EXPORT_BATCH of them. Where
 * the list walks an index in its order (an email or phone unsorted, a site name, a unique key),
 * a batch is the next page of that walk.
 */
async function exportSource(
  db: Queryable,
  criterion: SearchCriterion,
  term: string,
  sort: CustomerSort | undefined,
  scope: readonly SiteScope[] | undefined,
): Promise<{ rows: number; page: ExportPage }> {
  if (readsUidsFirst(criterion, sort)) {
    const uids = await matchesInOrder(db, criterion as ListedCriterion, term, sort, LIMIT + 1, scope);
    if (uids.length > LIMIT) throw new AppError('validation', SEARCH_MESSAGES.exportTooMany);
    return { rows: uids.length, page: batchesOf(db, uids) };
  }
  const count = await countMatches(db, criterion, term, LIMIT, scope);
  if (count.capped) throw new AppError('validation', SEARCH_MESSAGES.exportTooMany);
  return {
    rows: count.total,
    page: walkOf(db, criterion, term, sort, scope, count.total > SEARCH_COUNT_LIMIT),
  };
}

/** The rows of these uids, EXPORT_BATCH at a time, in their order. */
const batchesOf =
  (db: Queryable, uids: readonly string[]): ExportPage =>
  async (cursor) => {
    const from = typeof cursor === 'number' ? cursor : 0;
    const to = from + EXPORT_BATCH;
    const rows = uids.length > from ? await rowsOfUids(db, uids.slice(from, to)) : [];
    return { rows, next: to < uids.length ? to : undefined };
  };

/**
 * The list's own walk of its index, EXPORT_BATCH at a time, in the list's plan for the term
 * (`many`: more than SEARCH_COUNT_LIMIT match, where the list's count stops).
 */
const walkOf =
  (
    db: Queryable,
    criterion: SearchCriterion,
    term: string,
    sort: CustomerSort | undefined,
    scope: readonly SiteScope[] | undefined,
    many: boolean,
  ): ExportPage =>
  (cursor) =>
    searchCustomers(db, criterion, term, typeof cursor === 'number' ? undefined : cursor, {
      sort,
      many,
      pageSize: EXPORT_BATCH,
      ...(scope ? { scope } : {}),
    });

/**
 * The export of a selection: the customers picked that the search matches (in the caller's scope),
 * in the order the whole export lists them, with the same columns. Where the whole export reads
 * its matches' uids in order, the same statement reads those among the uids picked alone (its
 * sources narrowed by uid), wherever they stand among the matches. Where it walks an index, the
 * walk reads up to CUSTOMER_EXPORT_ROW_LIMIT matches and stops once every uid picked is found (the
 * rows picked are those the list showed, so usually in its first batch); a search matching more
 * than that bound is not refused, as a selection's rows are few.
 */
async function selectionSource(
  db: Queryable,
  criterion: SearchCriterion,
  term: string,
  sort: CustomerSort | undefined,
  scope: readonly SiteScope[] | undefined,
  picked: readonly string[],
): Promise<{ rows: number; page: ExportPage }> {
  const wanted = new Set(picked);
  if (readsUidsFirst(criterion, sort)) {
    // the matches among the picked alone (at most EXPORT_SELECTION_UIDS_MAX), in the list's order
    const found = await matchesInOrder(db, criterion as ListedCriterion, term, sort, wanted.size, scope, [
      ...wanted,
    ]);
    return { rows: found.length, page: batchesOf(db, found) };
  }
  const many = (await countMatches(db, criterion, term, SEARCH_COUNT_LIMIT, scope)).capped;
  const walk = walkOf(db, criterion, term, sort, scope, many);
  const found: SearchRow[] = [];
  let read = 0;
  let cursor: SearchPosition | number | undefined;
  do {
    const page = await walk(cursor);
    read += page.rows.length;
    found.push(...page.rows.filter((r) => wanted.has(r.uid)));
    cursor = page.next;
  } while (cursor !== undefined && found.length < wanted.size && read < LIMIT);
  return { rows: found.length, page: async () => ({ rows: found, next: undefined }) };
}
