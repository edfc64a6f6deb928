import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../lib/i18n.tsx';
import { Pagination, pageItems } from './pagination.tsx';

const links = (items: ReturnType<typeof pageItems>) => items.filter((i) => typeof i === 'number');

describe('pageItems', () => {
  it('lists every page up to 10 pages', () => {
    expect(pageItems(1, 0)).toEqual([]);
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(3, 4)).toEqual([1, 2, 3, 4]);
    expect(pageItems(10, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('keeps first and last and adds ellipses beyond 10 pages', () => {
    expect(pageItems(1, 11)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 'end-ellipsis', 11]);
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 'end-ellipsis', 20]);
    expect(pageItems(20, 20)).toEqual([1, 'start-ellipsis', 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(pageItems(10, 20)).toEqual([1, 'start-ellipsis', 7, 8, 9, 10, 11, 12, 13, 14, 'end-ellipsis', 20]);
  });

  it('never shows more than 10 page links and always the current page', () => {
    for (let total = 1; total <= 40; total++) {
      for (let page = 1; page <= total; page++) {
        const items = pageItems(page, total);
        expect(links(items).length).toBe(Math.min(total, 10));
        expect(items).toContain(page);
        expect(items[0]).toBe(1);
        expect(items[items.length - 1]).toBe(total);
      }
    }
  });

  it('clamps an out-of-range current page', () => {
    expect(pageItems(99, 3)).toEqual([1, 2, 3]);
    expect(pageItems(0, 12)).toEqual(pageItems(1, 12));
  });
});

function renderPagination(
  page: number,
  totalPages: number,
  more: { hasMore?: boolean; busy?: boolean } = {},
) {
  const onPageChange = vi.fn();
  render(
    <I18nProvider initial="en">
      <Pagination page={page} totalPages={totalPages} onPageChange={onPageChange} {...more} />
    </I18nProvider>,
  );
  return { nav: screen.getByRole('navigation', { name: 'Pagination' }), onPageChange };
}

describe('Pagination', () => {
  it('renders pages 1..N with the current one marked, previous disabled on the first page', () => {
    const { nav, onPageChange } = renderPagination(1, 3);
    const buttons = within(nav).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Previous', '1', '2', '3', 'Next']);
    expect(within(nav).getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    expect((within(nav).getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(nav).getByRole('button', { name: 'Next' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
    fireEvent.click(within(nav).getByRole('button', { name: 'Page 3' }));
    expect(onPageChange).toHaveBeenCalledWith(3);
    expect(within(nav).queryByText('…')).toBeNull();
  });

  it('shows ellipses beyond 10 page links', () => {
    const { nav, onPageChange } = renderPagination(12, 25);
    expect(within(nav).getAllByText('…')).toHaveLength(2);
    expect(within(nav).getAllByRole('button', { name: /^Page / })).toHaveLength(10);
    expect(within(nav).getByRole('button', { name: 'Page 1' })).toBeTruthy();
    expect(within(nav).getByRole('button', { name: 'Page 25' })).toBeTruthy();
    expect((within(nav).getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(within(nav).getByRole('button', { name: 'Previous' }));
    expect(onPageChange).toHaveBeenCalledWith(11);
  });

  it('names its landmark after what it pages, so two paged tables get distinct landmarks', () => {
    render(
      <I18nProvider initial="en">
        <Pagination page={1} totalPages={2} onPageChange={() => {}} of="Owned sites" />
        <Pagination page={1} totalPages={2} onPageChange={() => {}} of="Last logins" />
      </I18nProvider>,
    );
    expect(screen.getByRole('navigation', { name: 'Pagination: Owned sites' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Pagination: Last logins' })).toBeTruthy();
  });

  it('disables next on the last page', () => {
    const { nav } = renderPagination(25, 25);
    expect((within(nav).getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(nav).getAllByText('…')).toHaveLength(1);
  });

  it('keeps next enabled on the last page when more pages can be loaded, and waits while they load', () => {
    const { nav, onPageChange } = renderPagination(5, 5, { hasMore: true });
    const next = within(nav).getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    expect(next.disabled).toBe(false);
    fireEvent.click(next);
    expect(onPageChange).toHaveBeenCalledWith(6);
    cleanup();
    const busy = renderPagination(5, 5, { hasMore: true, busy: true });
    const waiting = within(busy.nav).getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    expect(waiting.disabled).toBe(true);
    expect(waiting.getAttribute('aria-busy')).toBe('true');
  });
});
