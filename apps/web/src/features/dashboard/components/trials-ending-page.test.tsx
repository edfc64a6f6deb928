import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, stubApi, viewer } from '../../../testing/api-stub.tsx';
import type { EndingTrial } from '../api/dashboard-api.ts';
import TrialsEndingPage from './trials-ending-page.tsx';

const PATH = '/manage-customer/trials-ending';
const renderPage = (search = '') =>
  renderScreen(`${PATH}${search}`, [{ path: PATH, element: <TrialsEndingPage /> }]);
const support = viewer('Support', ['customers.read', 'sites.read', 'site-settings.read']);
const DAY = 86_400_000;

const trial = (name: string, endsIn: number, extra: Partial<EndingTrial> = {}): EndingTrial => ({
  AppId: name.length,
  AppName: name,
  OwnerUid: 'c-1',
  CustomerName: 'Grace Hopper',
  Plan: 'Developer',
  DataCenter: 'eu-west',
  DataCenterName: 'EU West (Ireland)',
  TrialEndsAt: new Date(Date.now() + endsIn).toISOString(),
  ...extra,
});

afterEach(cleanup);

describe('trials ending', () => {
  it('asks for the window in the address, shows names, the data center by name and the days left', async () => {
    const { calls } = stubApi(support, {
      trialsEnding: () => ({
        body: {
          Data: [
            trial('shop', 5 * 3_600_000),
            trial('ledger', 1.5 * DAY),
            trial('atlas', 12.5 * DAY, { DataCenter: null, DataCenterName: null }),
          ],
          NextCursor: null,
        },
      }),
    });
    renderPage('?days=14');
    const table = await screen.findByRole('table', { name: 'Sites whose trial ends soon' });
    await within(table).findByText('ledger');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers.slice(0, 4)).toEqual(['Site', 'Customer', 'Plan', 'Data center']);
    expect(headers[4]).toMatch(/^Trial ends \(/);
    expect(within(table).getByText('less than a day')).toBeTruthy();
    expect(within(table).getByText('1 day left')).toBeTruthy();
    expect(within(table).getByText('12 days left')).toBeTruthy();
    expect(within(table).getAllByText('EU West (Ireland)')[0]!.getAttribute('title')).toBe('Code: eu-west');
    expect(screen.getByRole('link', { name: 'ledger' }).getAttribute('href')).toBe(
      '/manage-customer/site-configuration?uid=c-1&appId=6',
    );
    expect(screen.getAllByRole('link', { name: 'Grace Hopper' })[0]!.getAttribute('href')).toBe(
      '/manage-customer/view-customer?uid=c-1',
    );
    expect(screen.getByRole('combobox', { name: 'Ending within' })).toHaveProperty('value', '14');
    expect(calls.filter((c) => c.id === 'trialsEnding').map((c) => c.url.search)).toEqual(['?days=14']);
  });

  it('keeps the window and the order in the address, ordered by the server, and exports every page', async () => {
    const { calls } = stubApi(support, {
      trialsEnding: ({ url }) => {
        const second = url.searchParams.get('cursor') === 'c2';
        return {
          body: {
            Data: [trial(second ? 'early' : 'late', second ? DAY : 2 * DAY)],
            NextCursor: url.searchParams.get('limit') && !second ? 'c2' : null,
          },
        };
      },
    });
    const router = renderPage();
    const table = await screen.findByRole('table', { name: 'Sites whose trial ends soon' });
    await within(table).findByText('late');
    fireEvent.change(screen.getByRole('combobox', { name: 'Ending within' }), { target: { value: '30' } });
    await vi.waitFor(() => expect(router.state.location.search).toBe('?days=30'));
    const header = within(await screen.findByRole('table')).getByRole('columnheader', {
      name: /^Trial ends/,
    });
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(header).getByRole('button'));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?days=30&sort=-ends'));
    await vi.waitFor(() =>
      expect(calls.filter((c) => c.id === 'trialsEnding').at(-1)?.url.search).toBe('?days=30&sort=-ends'),
    );
    const saved: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (b: Blob) => {
          saved.push(b);
          return 'blob:trials';
        },
        revokeObjectURL: vi.fn(),
      }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fireEvent.click(await screen.findByRole('button', { name: 'Export CSV of Sites whose trial ends soon' }));
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    const lines = (await saved[0]!.text()).split('\r\n');
    expect(lines[0]).toMatch(/^Site,Customer,Plan,Data center,"?Trial ends \(/);
    expect(lines.slice(1, 3).map((l) => l.split(',')[0])).toEqual(['late', 'early']);
    expect(click).toHaveBeenCalledOnce();
    click.mockRestore();
    vi.unstubAllGlobals();
  });
});
