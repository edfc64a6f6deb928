import type { BreakGlassReviewItem } from '@sac/contract/break-glass';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubApi, viewer } from '../../../testing/api-stub.tsx';
import DashboardPage from './dashboard-page.tsx';

const renderPage = () => renderScreen('/dashboard', [{ path: '/dashboard', element: <DashboardPage /> }]);
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

describe('the break-glass review card', () => {
  it('lists the open reviews, overdue ones in red; the opener has no close; another closes with a note', async () => {
    let open = [
      item({ RequestId: 7, Overdue: true, CaseUrl: 'https://tickets.example.com/browse/INC-1' }),
      item({ RequestId: 8, AppName: 'difference-engine', OpenedBy: 'superadmin@example.com' }),
    ];
    const { calls } = stubApi(superAdmin, {
      dashboard: () => ({
        body: {
          GeneratedAt: new Date().toISOString(),
          BreakGlassReview: {
            Enabled: true,
            Open: open.length,
            Overdue: open.filter((i) => i.Overdue).length,
            Items: open,
          },
        },
      }),
      breakGlassReviewClose: () => {
        const closed = { ...open[0]!, ClosedBy: 'superadmin@example.com', Note: 'Checked.' };
        open = open.slice(1);
        return { body: { Data: closed, Message: 'The review of break-glass access 7 is closed.' } };
      },
    });
    renderPage();
    const card = await screen.findByRole('region', { name: 'Break-glass reviews' });
    expect(within(card).getByTestId('break-glass-open').textContent).toBe('2');
    expect(within(card).getByTestId('break-glass-overdue').textContent).toBe('1');
    const [overdue, mine] = within(card).getAllByRole('listitem');
    expect(overdue!.textContent).toContain('overdue');
    // red while overdue: the entry, its count and the card itself
    expect(overdue!.className).toMatch(/overdue/);
    expect(within(card).getByTestId('break-glass-overdue').className).toMatch(/overdue/);
    expect(card.className).toMatch(/overdue/);
    expect(mine!.className).not.toMatch(/overdue/);
    expect(overdue!.textContent).toContain('Production incident · INC-1');
    expect(
      within(overdue!).getByRole('link', { name: 'Open case INC-1 (new tab)' }).getAttribute('href'),
    ).toBe('https://tickets.example.com/browse/INC-1');
    // the opener's own: no close
    expect(mine!.textContent).toContain('yours: another SuperAdmin reviews it');
    expect(within(mine!).queryByRole('button')).toBeNull();
    expect(within(card).getByRole('link', { name: 'See all break-glass reviews' }).getAttribute('href')).toBe(
      '/manage-superuser/impersonation/break-glass-reviews',
    );

    fireEvent.click(within(overdue!).getByRole('button', { name: 'Close review 7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close the review of break-glass access 7' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close the review' }));
    expect(await within(dialog).findByText('Please write a note on what was done and why.')).toBeTruthy();
    expect(calls.some((c) => c.id === 'breakGlassReviewClose')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText(/Review note/), { target: { value: 'Checked.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close the review' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.id === 'breakGlassReviewClose')?.body).toEqual({
      RequestId: 7,
      Note: 'Checked.',
    });
    await waitFor(() => expect(within(card).getByTestId('break-glass-open').textContent).toBe('1'));
  });
});
