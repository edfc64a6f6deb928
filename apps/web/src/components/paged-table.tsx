import { errorText } from '../lib/api-client.ts';
import type { ReadAll } from './data-table.tsx';

/** The parts of a list read a page at a time (useInfiniteQuery) that its table shows. */
export interface PagedList {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * DataTable's props for a paged list: loading until the first page, the first read's error (a
 * later page's error keeps the rows, see NextPageError), and Load more while pages remain.
 */
export function pagedTableProps(list: PagedList, hasRows: boolean, fetchError: string) {
  return {
    isLoading: list.isPending,
    error: list.isError && !hasRows ? errorText(list.error, fetchError) : undefined,
    more: list.hasNextPage
      ? { load: () => list.fetchNextPage(), loading: list.isFetchingNextPage }
      : undefined,
  };
}

/** A further page that could not be read, said under the table it belongs to. */
export function NextPageError({ list, fetchError }: { list: PagedList; fetchError: string }) {
  return list.isFetchNextPageError ? (
    <p className="form-alert" role="alert">
      {errorText(list.error, fetchError)}
    </p>
  ) : null;
}

/** The button that reads a list's next page, under a list that is not a table, while pages remain. */
export function NextPageButton({ list, label }: { list: PagedList; label: string }) {
  return list.hasNextPage ? (
    <div className="form-actions">
      <button
        type="button"
        className="button"
        aria-busy={list.isFetchingNextPage}
        disabled={list.isFetchingNextPage}
        onClick={() => void list.fetchNextPage()}
      >
        {label}
      </button>
    </div>
  ) : null;
}

/** A page of a keyset-paged list as the API answers it. */
interface ListPage<T> {
  Data: readonly T[];
  NextCursor: string | null;
}

/**
 * Every row of a keyset-paged list, read page after page from the first (`read` asks the API for
 * the page after `cursor`, in the list's order): the rows a CSV export of the list writes.
 */
export function everyPage<T>(
  read: (cursor: string | undefined, signal: AbortSignal) => Promise<ListPage<T>>,
): ReadAll<T> {
  return async (onProgress, signal) => {
    const rows: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await read(cursor, signal);
      rows.push(...page.Data);
      onProgress(rows.length);
      cursor = page.NextCursor ?? undefined;
    } while (cursor);
    return rows;
  };
}
