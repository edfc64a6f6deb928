import { csvLine } from '@sac/contract/csv';
import type { ListSort } from '@sac/contract/list-sort';
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import type { Download } from '../lib/api-client.ts';
import { useT } from '../lib/i18n.tsx';
import { type ListView, useListView } from '../lib/list-view.ts';
import styles from './data-table.module.css';
import { CsvExport } from './file-export.tsx';
import { Pagination } from './pagination.tsx';
import { TableScroll } from './table-scroll.tsx';

type Plain = string | number | null | undefined;

export interface Column<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /**
   * The column sorts by this value, on a list the table holds whole (texts by the reader's
   * collation, numbers and ISO dates in order, empty last). On a list the server orders (`view`
   * given), the columns whose ids are the view's keys sort, by the server.
   */
  sortValue?: (row: T) => Plain;
  /** The column's value in a CSV export (default: sortValue); a column with neither is not exported. */
  csv?: (row: T) => Plain;
  /** What its header cell holds instead of the header text (the row selection's page box). */
  headerCell?: ReactNode;
}

/**
 * Row checkboxes (bulk actions): the keys picked, and the keys after a box is used; the header's
 * box picks or unpicks the rows of the page shown. Each row's box is named by `rowLabel`.
 */
export interface RowSelection<T> {
  picked: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  rowLabel: (row: T) => string;
  pageLabel: string;
  /**
   * With a list the table exports itself (csvExport `name`): the name of a second export, of the
   * rows picked only, by the same code (same columns, same order).
   */
  exportLabel?: string;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
function compare(a: Plain, b: Plain): number {
  const emptyA = a === null || a === undefined || a === '';
  const emptyB = b === null || b === undefined || b === '';
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** The rows in the order of `sort` (stable: equal values keep the list's order). */
function sortRows<T>(rows: readonly T[], columns: readonly Column<T>[], sort: ListSort | undefined) {
  const by = sort && columns.find((c) => c.id === sort.key)?.sortValue;
  if (!sort || !by) return rows;
  const sign = sort.descending ? -1 : 1;
  return rows
    .map((row, i) => ({ row, i, v: by(row) }))
    .sort((x, y) => {
      const c = compare(x.v, y.v);
      // Empty values stay last in both directions.
      const empty =
        x.v === null || x.v === undefined || x.v === '' || y.v === null || y.v === undefined || y.v === '';
      return (empty ? c : sign * c) || x.i - y.i;
    })
    .map((x) => x.row);
}

/** The CSV of the rows as shown: a header of the exported columns' names, then a line per row. */
export function rowsCsv<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const exported = columns.flatMap((c) => {
    const value = c.csv ?? c.sortValue;
    return value ? [{ header: c.header, value }] : [];
  });
  return (
    csvLine(exported.map((c) => c.header)) +
    rows.map((row) => csvLine(exported.map((c) => c.value(row)))).join('')
  );
}

interface DataTableProps<T> {
  /** The table's accessible name (a visually hidden caption). */
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  isLoading: boolean;
  /** The text to show when the fetch failed (the server's text, else the table fetch error). */
  error?: string;
  /** Rows per page; the table paginates when there are more. */
  pageSize: number;
  /**
   * The server has rows past those given (a keyset-paged list): Next on the last page loads them
   * with `load`, then shows them; the summary says there are more.
   */
  more?: { load: () => Promise<unknown>; loading: boolean };
  /**
   * How many rows the server has in all, when it counts them (with `more`): the summary says
   * "of {count}", or "of more than {count}" when `more` says the count stopped there.
   */
  total?: { count: number; more: boolean };
  /**
   * The list's page and order, from useListView: given by a screen whose server orders the list
   * (the screen sends view.sort); else the table keeps its own, in the address when `inAddress`.
   */
  view?: ListView;
  /** The page and order live in the address (?page=&sort=): one table per screen may. */
  inAddress?: boolean;
  /** The list's own order, when it is one of its columns' (the audit trail: newest first). */
  ownOrder?: ListSort;
  /**
   * "Export CSV" under the table: the rows as sorted, written here (`name`: the file is
   * <name>-<date>.csv; a list the table holds whole), or a file the server streams (`download`,
   * a list it pages), or every page of a paged list read through the API and written here in the
   * table's order and columns (`name` and `readAll`, see everyPage in paged-table.tsx).
   */
  csvExport?: { name: string } | { download: Download } | { name: string; readAll: ReadAll<T> };
  /** Row checkboxes and a box for the page (bulk actions). */
  selection?: RowSelection<T>;
}

/** The checkbox column of a selection, over the rows of the page shown. */
function selectColumn<T>(sel: RowSelection<T>, visible: readonly T[], rowKey: (row: T) => string): Column<T> {
  const keys = visible.map(rowKey);
  const all = keys.length > 0 && keys.every((k) => sel.picked.has(k));
  const some = !all && keys.some((k) => sel.picked.has(k));
  const toggle = (ks: string[], on: boolean) => {
    const next = new Set(sel.picked);
    for (const k of ks) on ? next.add(k) : next.delete(k);
    sel.onChange(next);
  };
  return {
    id: 'select',
    header: sel.pageLabel,
    headerCell: (
      <input
        type="checkbox"
        aria-label={sel.pageLabel}
        checked={all}
        ref={(el) => {
          if (el) el.indeterminate = some;
        }}
        onChange={(e) => toggle(keys, e.currentTarget.checked)}
      />
    ),
    cell: (row) => (
      <input
        type="checkbox"
        aria-label={sel.rowLabel(row)}
        checked={sel.picked.has(rowKey(row))}
        onChange={(e) => toggle([rowKey(row)], e.currentTarget.checked)}
      />
    ),
  };
}

/** Reads every row of a paged list, saying how many it has so far; stops when `signal` aborts. */
export type ReadAll<T> = (onProgress: (rows: number) => void, signal: AbortSignal) => Promise<readonly T[]>;

const SKELETON_ROWS = 10;

/** Up and down arrows, the one of the column's order drawn solid (a drawing: no text to read). */
function SortMark({ order }: { order: 'ascending' | 'descending' | undefined }) {
  return (
    <svg
      className={styles.sortMark}
      width="8"
      height="12"
      viewBox="0 0 8 12"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M4 0 8 5H0z" opacity={order === 'ascending' ? 1 : order ? 0.25 : 0.5} />
      <path d="M4 12 0 7h8z" opacity={order === 'descending' ? 1 : order ? 0.25 : 0.5} />
    </svg>
  );
}

/** The header row: a column that sorts is a button that turns its order round. */
function TableHead<T>({
  columns,
  view,
  serverSorted,
  ownOrder,
}: {
  columns: readonly Column<T>[];
  view: ListView;
  serverSorted: boolean;
  ownOrder: ListSort | undefined;
}) {
  const t = useT('common');
  const sortable = (c: Column<T>) => (serverSorted ? view.keys?.includes(c.id) : c.sortValue !== undefined);
  const shown = view.sort ?? ownOrder;
  const onSort = (c: Column<T>) => {
    const s = shown?.key === c.id ? shown : undefined;
    // Ascending, descending, then the list's own order again; the own order's column turns round.
    let next: ListSort | undefined;
    if (!s) next = { key: c.id, descending: false };
    else if (!view.sort) next = { key: c.id, descending: !s.descending };
    else if (!s.descending) next = { key: c.id, descending: true };
    if (next && ownOrder && next.key === ownOrder.key && next.descending === ownOrder.descending)
      next = undefined;
    view.setSort(next);
  };
  return (
    <thead>
      <tr>
        {columns.map((c) => {
          const sorted = shown?.key === c.id ? shown : undefined;
          return (
            <th
              key={c.id}
              scope="col"
              aria-sort={sorted ? (sorted.descending ? 'descending' : 'ascending') : undefined}
            >
              {c.headerCell ? (
                c.headerCell
              ) : sortable(c) ? (
                <button
                  type="button"
                  className={styles.sortButton}
                  title={t('sortBy', { column: c.header })}
                  onClick={() => onSort(c)}
                >
                  {c.header}
                  <SortMark order={sorted ? (sorted.descending ? 'descending' : 'ascending') : undefined} />
                </button>
              ) : (
                c.header
              )}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/** The loading, fetch error or empty state, or null when there are rows to show. */
function TableStatus({ loading, error, empty }: { loading: boolean; error?: string; empty: boolean }) {
  const t = useT('common');
  if (loading) {
    return (
      <span className="visually-hidden" role="status">
        {t('loading')}
      </span>
    );
  }
  if (error) {
    return (
      <p className={`${styles.tableStatus} ${styles.tableError}`} role="alert">
        {error}
      </p>
    );
  }
  if (empty) return <p className={styles.tableStatus}>{t('tableEmpty')}</p>;
  return null;
}

/** Skeleton rows while loading (the status in the first cell), the status alone, or the page's rows. */
function TableBody<T>({
  columns,
  visible,
  rowKey,
  loading,
  status,
  pageSize,
}: {
  columns: readonly Column<T>[];
  visible: readonly T[];
  rowKey: (row: T) => string;
  loading: boolean;
  status: ReactNode;
  pageSize: number;
}) {
  return (
    <tbody aria-busy={loading ? true : undefined}>
      {loading ? (
        Array.from({ length: Math.min(pageSize, SKELETON_ROWS) }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
          <tr key={i} className="skeleton-row">
            {columns.map((c, j) => (
              <td key={c.id}>
                {i === 0 && j === 0 ? status : null}
                <span className="skeleton" />
              </td>
            ))}
          </tr>
        ))
      ) : status ? (
        <tr>
          <td colSpan={columns.length}>{status}</td>
        </tr>
      ) : (
        visible.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((c) => (
              <td key={c.id}>{c.cell(row)}</td>
            ))}
          </tr>
        ))
      )}
    </tbody>
  );
}

/** "Export CSV" of the rows as sorted, written here, or of the file the server streams. */
function TableCsvExport<T>({
  label,
  csvExport,
  all,
  columns,
  sort,
  named = false,
}: {
  label: string;
  /** The button names its list (the selection's export, beside the list's). */
  named?: boolean;
  csvExport: NonNullable<DataTableProps<T>['csvExport']>;
  all: readonly T[];
  columns: readonly Column<T>[];
  /** The order the table sorts its rows in itself (undefined: the server's order). */
  sort: ListSort | undefined;
}) {
  if ('download' in csvExport) return <CsvExport list={label} download={csvExport.download} />;
  const write = (rows: readonly T[]) => ({
    file: new Blob([rowsCsv(rows, columns)], { type: 'text/csv;charset=utf-8' }),
    filename: `${csvExport.name}-${new Date().toISOString().slice(0, 10)}.csv`,
  });
  return (
    <CsvExport
      list={label}
      named={named}
      download={
        'readAll' in csvExport
          ? async (onProgress, signal) => {
              const rows = await csvExport.readAll((n) => onProgress(n, undefined), signal);
              return write(sortRows(rows, columns, sort));
            }
          : async (onProgress) => {
              onProgress(all.length, all.length);
              return write(all);
            }
      }
    />
  );
}

/**
 * The page shown, kept in range when rows go away (e.g. after a delete); a page asked for by the
 * address (reload, a shared link) past the rows read so far reads on until it is there or the
 * list ends; a read that brings nothing stops it.
 */
function usePage<T>(all: readonly T[], view: ListView, pageSize: number, more: DataTableProps<T>['more']) {
  const totalPages = Math.max(1, Math.ceil(all.length / pageSize));
  const current = Math.min(view.page, totalPages);
  const visible = all.slice((current - 1) * pageSize, current * pageSize);
  const goTo = async (next: number) => {
    if (next > totalPages && more) await more.load();
    view.setPage(next);
  };
  const readFor = useRef(-1);
  useEffect(() => {
    if (view.page <= totalPages || !more || more.loading || readFor.current === all.length) return;
    readFor.current = all.length;
    void more.load();
  }, [view.page, totalPages, more, all.length]);
  return { totalPages, current, visible, goTo };
}

/**
 * A paginated table with the spec's states: loading, fetch error, empty ('No data available to
 * display.'). The page is kept in range when rows go away (e.g. after a delete).
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  isLoading,
  error,
  pageSize,
  more,
  total,
  view: given,
  inAddress = false,
  ownOrder,
  csvExport,
  selection,
}: DataTableProps<T>) {
  const t = useT('common');
  const own = useListView(inAddress && !given);
  const view = given ?? own;
  const serverSorted = given !== undefined;
  const all = useMemo(
    () => (serverSorted ? (rows ?? []) : sortRows(rows ?? [], columns, view.sort)),
    [rows, columns, view.sort, serverSorted],
  );
  const { totalPages, current, visible, goTo } = usePage(all, view, pageSize, more);
  const shownColumns = selection ? [selectColumn(selection, visible, rowKey), ...columns] : columns;
  const loading = isLoading && !rows;
  const hasStatus = loading || Boolean(error) || all.length === 0;
  const status = hasStatus ? <TableStatus loading={loading} error={error} empty={all.length === 0} /> : null;

  return (
    <div className="data-table">
      <TableScroll label={label}>
        <table>
          <caption className="visually-hidden">{label}</caption>
          <TableHead columns={shownColumns} view={view} serverSorted={serverSorted} ownOrder={ownOrder} />
          <TableBody
            columns={shownColumns}
            visible={visible}
            rowKey={rowKey}
            loading={loading}
            status={status}
            pageSize={pageSize}
          />
        </table>
      </TableScroll>
      {hasStatus ? null : (
        <div className={styles.tableFooter}>
          <p className={`muted ${styles.tableSummary}`}>
            {t((total ? total.more : more) ? 'pageSummaryMore' : 'pageSummary', {
              from: (current - 1) * pageSize + 1,
              to: (current - 1) * pageSize + visible.length,
              total: total ? total.count.toLocaleString('en-US') : all.length,
            })}
          </p>
          <Pagination
            page={current}
            totalPages={totalPages}
            onPageChange={(next) => void goTo(next)}
            of={label}
            hasMore={more !== undefined}
            busy={more?.loading}
          />
          {csvExport ? (
            <TableCsvExport
              label={label}
              csvExport={csvExport}
              all={all}
              columns={columns}
              sort={serverSorted ? undefined : view.sort}
            />
          ) : null}
          {csvExport && 'name' in csvExport && !('readAll' in csvExport) && selection?.exportLabel ? (
            <TableCsvExport
              label={selection.exportLabel}
              named
              csvExport={csvExport}
              all={all.filter((r) => selection.picked.has(rowKey(r)))}
              columns={columns}
              sort={serverSorted ? undefined : view.sort}
            />
          ) : null}
        </div>
      )}
    </div>
  );
}
