import { PAGINATION_MAX_PAGE_LINKS } from '@sac/contract/constants';
import { useT } from '../lib/i18n.tsx';
import styles from './pagination.module.css';

export type PageItem = number | 'start-ellipsis' | 'end-ellipsis';

/**
 * The page links to show (spec section 2: up to 10 page links, then ellipses). With more pages
 * than `maxLinks`, the first and last page stay visible and a window around the current page
 * fills the rest; skipped ranges become ellipses. The number of page links never exceeds maxLinks.
 */
export function pageItems(
  current: number,
  totalPages: number,
  maxLinks: number = PAGINATION_MAX_PAGE_LINKS,
): PageItem[] {
  if (totalPages <= 0) return [];
  if (totalPages <= maxLinks) return Array.from({ length: totalPages }, (_, i) => i + 1);
  const page = Math.min(Math.max(1, current), totalPages);
  const inner = Math.max(1, maxLinks - 2);
  let start = page - Math.floor((inner - 1) / 2);
  start = Math.min(Math.max(2, start), totalPages - inner);
  const end = start + inner - 1;
  const out: PageItem[] = [1];
  if (start > 2) out.push('start-ellipsis');
  for (let p = start; p <= end; p++) out.push(p);
  if (end < totalPages - 1) out.push('end-ellipsis');
  out.push(totalPages);
  return out;
}

interface PaginationProps {
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  maxLinks?: number;
  /** What is paged (a table's name): two paged tables on a screen get distinct landmarks. */
  of?: string;
  /** More pages exist past totalPages (not loaded yet): Next stays enabled on the last page. */
  hasMore?: boolean;
  /** The next page is being loaded: Next waits. */
  busy?: boolean;
}

/**
 * A navigation landmark named 'Pagination' ('Pagination: {of}' when it says what it pages):
 * previous, page links with ellipses, next.
 */
export function Pagination({
  page,
  totalPages,
  onPageChange,
  maxLinks,
  of,
  hasMore = false,
  busy = false,
}: PaginationProps) {
  const t = useT('common');
  if (totalPages < 1) return null;
  return (
    <nav className={styles.pagination} aria-label={of ? `${t('pagination')}: ${of}` : t('pagination')}>
      <ul>
        <li>
          <button
            type="button"
            className={`${styles.paginationButton} pagination-step`}
            disabled={page <= 1}
            onClick={() => onPageChange(page - 1)}
          >
            {t('previousPage')}
          </button>
        </li>
        {pageItems(page, totalPages, maxLinks).map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <button
                type="button"
                className={styles.paginationButton}
                aria-label={t('pageN', { page: item })}
                aria-current={item === page ? 'page' : undefined}
                onClick={() => onPageChange(item)}
              >
                {item}
              </button>
            </li>
          ) : (
            <li key={item} className={styles.paginationEllipsis}>
              {t('ellipsis')}
            </li>
          ),
        )}
        <li>
          <button
            type="button"
            className={`${styles.paginationButton} pagination-step`}
            disabled={busy || (page >= totalPages && !hasMore)}
            aria-busy={busy || undefined}
            onClick={() => onPageChange(page + 1)}
          >
            {t('nextPage')}
          </button>
        </li>
      </ul>
    </nav>
  );
}
