import type { BreakGlassReviewItem } from '@sac/contract/break-glass';
import { consolePaths } from '@sac/contract/console-paths';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubApi, viewer } from '../../../testing/api-stub.tsx';
import BreakGlassReviewsPage from './break-glass-reviews-page.tsx';

const path = consolePaths.breakGlassReviews.path;
const renderPage = (at: string = path) => renderScreen(at, [{ path, element: <BreakGlassReviewsPage /> }]);
const superAdmin = viewer('SuperAdmin', ['team.read', 'impersonation.request', 'impersonation.approve']);

const item = (over: Partial<BreakGlassReviewItem>): BreakGlassReviewItem => ({
  RequestId: 7,
  AppId: 1,
  AppName: 'analytical-engine',
  OpenedBy: 'other@example.com',
  OpenedAt: '2026-01-10T10:00:00.000Z',
  ReasonCode: 'production-incident',
  ReasonLabel: 'Production incident',
  CaseReference: 'INC-1',
  CaseUrl: null,
  Minutes: 30,
  ExpiresAt: '2026-01-10T10:30:00.000Z',
  Status: 'Expired',
  DueAt: '2026-01-11T10:00:00.000Z',
  Overdue: false,
  ClosedAt: null,
  ClosedBy: null,
  Note: null,
  ...over,
});

describe('the break-glass reviews page', () => {
  it('lists every open review, overdue ones in red, a page at a time; another SuperAdmin closes one with a note', async () => {
    let open = [
      item({ RequestId: 7, Overdue: true }),
      item({ RequestId: 8, AppName: 'difference-engine', OpenedBy: 'superadmin@example.com' }),
    ];
    const { callsTo } = stubApi(superAdmin, {
      breakGlassReviews: ({ url }) =>
        url.searchParams.get('cursor') === 'c2'
          ? { body: { Data: [item({ RequestId: 9, AppName: 'jacquard-loom' })], NextCursor: null } }
          : { body: { Data: open, NextCursor: 'c2' } },
      breakGlassReviewClose: () => {
        const closed = {
          ...open[0]!,
          ClosedAt: new Date().toISOString(),
          ClosedBy: 'superadmin@example.com',
          Note: 'Checked.',
        };
        open = open.slice(1);
        return { body: { Data: closed, Message: 'The review of break-glass access 7 is closed.' } };
      },
    });
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Break-glass reviews' })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Break-glass reviews' });
    const [overdue, mine] = within(list).getAllByRole('listitem');
    expect(overdue!.textContent).toContain('overdue');
    expect(overdue!.className).toMatch(/overdue/);
    expect(overdue!.textContent).toContain('Production incident · INC-1');
    expect(screen.getByTestId('break-glass-page-overdue').textContent).toContain('1 shown overdue');
    expect(mine!.textContent).toContain('yours: another SuperAdmin reviews it');
    expect(within(mine!).queryByRole('button')).toBeNull();
    expect(callsTo('breakGlassReviews')[0]!.url.searchParams.get('state')).toBe('open');

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    expect(callsTo('breakGlassReviews').at(-1)!.url.searchParams.get('cursor')).toBe('c2');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    fireEvent.click(within(overdue!).getByRole('button', { name: 'Close review 7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close the review of break-glass access 7' });
    fireEvent.change(within(dialog).getByLabelText(/Review note/), { target: { value: 'Checked.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close the review' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo('breakGlassReviewClose')[0]!.body).toEqual({ RequestId: 7, Note: 'Checked.' });
    // read again: the closed one has left the open list
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Break-glass reviews' })).queryByText('analytical-engine'),
      ).toBeNull(),
    );
  });

  it('filters to the recently closed, kept in the address; a closed one shows who closed it and the note', async () => {
    const { callsTo } = stubApi(superAdmin, {
      breakGlassReviews: ({ url }) =>
        url.searchParams.get('state') === 'closed'
          ? {
              body: {
                Data: [
                  item({
                    RequestId: 5,
                    ClosedAt: '2026-01-10T12:00:00.000Z',
                    ClosedBy: 'peer@example.com',
                    Note: 'Rotated the key.',
                  }),
                ],
                NextCursor: null,
              },
            }
          : { body: { Data: [], NextCursor: null } },
    });
    renderPage();
    expect(await screen.findByText('No break-glass access waits for a review.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'closed' } });
    const list = await screen.findByRole('list', { name: 'Break-glass reviews' });
    const [row] = within(list).getAllByRole('listitem');
    expect(row!.textContent).toContain('closed');
    expect(row!.textContent).toContain('peer@example.com');
    expect(row!.textContent).toContain('Rotated the key.');
    expect(within(row!).queryByRole('button')).toBeNull();
    expect(callsTo('breakGlassReviews').at(-1)!.url.searchParams.get('state')).toBe('closed');
  });

  it('opens on the filter the address names', async () => {
    const { callsTo } = stubApi(superAdmin, {
      breakGlassReviews: () => ({ body: { Data: [], NextCursor: null } }),
    });
    renderPage(consolePaths.breakGlassReviews({ state: 'all' }));
    expect(
      await screen.findByText('No break-glass review is open, nor was one closed in the last 30 days.'),
    ).toBeTruthy();
    expect((screen.getByLabelText('Show') as HTMLSelectElement).value).toBe('all');
    expect(callsTo('breakGlassReviews')[0]!.url.searchParams.get('state')).toBe('all');
  });
});
