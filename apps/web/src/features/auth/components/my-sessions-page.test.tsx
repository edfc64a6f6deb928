import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chooseTimeZone } from '../../../lib/time-zone.ts';
import { renderScreen, stubApi, viewer } from '../../../testing/api-stub.tsx';
import MySessionsPage from './my-sessions-page.tsx';

const PATH = '/account/sessions';
const session = (Id: number, over: object = {}) => ({
  Id,
  StartedAt: '2026-11-26T08:00:00.000Z',
  LastUsedAt: '2026-11-26T09:30:00.000Z',
  ClientAddress: `198.51.100.${Id}`,
  Browser: 'Chrome 142 on Linux',
  Current: false,
  ImpersonatedSite: null,
  ...over,
});

// The relative times read from a fixed now, three minutes after the session's last use.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-26T09:33:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('My sessions', () => {
  it('lists my sessions with this one marked, ends one, then all the others', async () => {
    chooseTimeZone('utc');
    let rows = [session(1, { Current: true }), session(2, { Browser: 'Firefox 133 on macOS' }), session(3)];
    const { calls } = stubApi(viewer('Support', ['customers.read']), {
      mySessions: () => ({ body: { Data: rows } }),
      endMySessions: ({ body }) => {
        const b = body as { Id?: number; AllOthers?: true };
        const before = rows.length;
        rows = rows.filter((r) => r.Current || (b.Id !== undefined && r.Id !== b.Id));
        const n = before - rows.length;
        return { body: { Ended: n, Message: n === 1 ? '1 session ended.' : `${n} sessions ended.` } };
      },
    });
    renderScreen(PATH, [{ path: PATH, element: <MySessionsPage /> }]);
    const table = await screen.findByRole('table', { name: 'My sessions' });
    const row = (address: string) => within(table).getByText(address).closest('tr')!;
    await within(table).findByText('198.51.100.2');
    expect(within(row('198.51.100.1')).getByText('This session')).toBeTruthy();
    // this session is ended by signing out, not from here
    expect(within(row('198.51.100.1')).queryByRole('button', { name: 'End' })).toBeNull();
    expect(within(row('198.51.100.2')).getByText(/Firefox 133 on macOS/)).toBeTruthy();
    // A relative time, with the exact time (in the chosen zone, here UTC) as its name.
    const used = within(row('198.51.100.2')).getByTitle('11-26-2026 09:30:00 (UTC)');
    expect(used.tagName).toBe('TIME');
    expect(used.textContent).toBe('3 minutes ago (11-26-2026 09:30:00 (UTC))');

    fireEvent.click(within(row('198.51.100.2')).getByRole('button', { name: 'End' }));
    expect(await screen.findByText('1 session ended.')).toBeTruthy();
    await waitFor(() => expect(within(table).queryByText('198.51.100.2')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'End all other sessions' }));
    expect(await screen.findByText('1 session ended.', {}, { timeout: 3000 })).toBeTruthy();
    await waitFor(() => expect(within(table).queryByText('198.51.100.3')).toBeNull());
    expect(
      (screen.getByRole('button', { name: 'End all other sessions' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(calls.filter((c) => c.id === 'endMySessions').map((c) => c.body)).toEqual([
      { Id: 2 },
      { AllOthers: true },
    ]);
  });
});
