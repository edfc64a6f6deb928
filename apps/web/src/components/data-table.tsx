import { type ReactNode, useState } from 'react';
import { useT } from '../lib/i18n.tsx';
import { Pagination } from './pagination.tsx';
import { TableScroll } from './table-scroll.tsx';

export interface Column<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
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
}: DataTableProps<T>) {
  const t = useT('common');
  const [page, setPage] = useState(1);
  const all = rows ?? [];
  const totalPages = Math.max(1, Math.ceil(all.length / pageSize));
  const current = Math.min(page, totalPages);
  const visible = all.slice((current - 1) * pageSize, current * pageSize);
  const goTo = async (next: number) => {
    if (next > totalPages && more) await more.load();
    setPage(next);
  };

  let status: ReactNode = null;
  if (isLoading && !rows) {
    status = (
      <p className="table-status" role="status">
        {t('loading')}
      </p>
    );
  } else if (error) {
    status = (
      <p className="table-status table-error" role="alert">
        {error}
      </p>
    );
  } else if (all.length === 0) {
    status = <p className="table-status">{t('tableEmpty')}</p>;
  }

  return (
    <div className="data-table">
      <TableScroll label={label}>
        <table>
          <caption className="visually-hidden">{label}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.id} scope="col">
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {status ? (
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
        </table>
      </TableScroll>
      {status ? null : (
        <div className="table-footer">
          <p className="muted table-summary">
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
        </div>
      )}
    </div>
  );
}
