import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, stubApi, viewer } from '../../../testing/api-stub.tsx';
import type { ListedDomain } from '../api/custom-domains-api.ts';
import CustomDomainsPage from './custom-domains-page.tsx';

const PATH = '/manage-customer/custom-domains';
const renderPage = (search = '') =>
  renderScreen(`${PATH}${search}`, [{ path: PATH, element: <CustomDomainsPage /> }]);
const support = viewer('Support', ['customers.read', 'site-settings.read']);

const domain = (name: string, extra: Partial<ListedDomain> = {}): ListedDomain => ({
  Domain: name,
  AppId: 42,
  AppName: 'acme-shop',
  OwnerUid: 'c-1',
  Status: 'Verified',
  CreatedAt: '2026-01-02T03:04:05.000Z',
  LastCheckedAt: '2026-01-03T03:04:05.000Z',
  LastCheckResult: 'The CNAME and the TXT verification token are in place.',
  VerifiedAt: '2026-01-02T04:04:05.000Z',
  FailingSince: null,
  ...extra,
});

afterEach(cleanup);

describe("every site's custom domains", () => {
  it('asks the server for the status in the address, shows failing ones with why, and links each to its site', async () => {
    const { calls } = stubApi(support, {
      customDomainsAll: () => ({
        body: {
          Data: [
            domain('id.acme.example', {
              FailingSince: '2026-01-05T00:00:00.000Z',
              LastCheckResult: 'No CNAME record for id.acme.example was found (ENOTFOUND).',
            }),
          ],
          NextCursor: null,
        },
      }),
    });
    renderPage('?status=failing');
    const table = await screen.findByRole('table', { name: 'Custom domains of every site' });
    await within(table).findByText('id.acme.example');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Domain', 'Site', 'Status', 'Added', 'Last check']);
    expect(within(table).getByText('Failing re-check')).toBeTruthy();
    expect(within(table).getByText(/No CNAME record/)).toBeTruthy();
    expect(
      screen
        .getByRole('link', { name: 'Custom domains of acme-shop (id.acme.example)' })
        .getAttribute('href'),
    ).toBe('/manage-customer/site-configuration?uid=c-1&appId=42&section=custom-domains');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveProperty('value', 'failing');
    expect(calls.filter((c) => c.id === 'customDomainsAll').map((c) => c.url.search)).toEqual([
      '?status=failing',
    ]);
  });

  it('changes the filter through the server, and reads the next page on Next', async () => {
    const { calls } = stubApi(support, {
      customDomainsAll: ({ url }) =>
        url.searchParams.get('cursor') === 'd1'
          ? { body: { Data: [domain('z.acme.example')], NextCursor: null } }
          : {
              body: {
                Data: Array.from({ length: 10 }, (_, i) => domain(`d${i}.acme.example`)),
                NextCursor: 'd1',
              },
            },
    });
    renderPage();
    expect(await screen.findByText('Showing 1–10 of more than 10')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /next/i }));
    expect(await screen.findByText('z.acme.example')).toBeTruthy();
    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: 'pending' } });
    await vi.waitFor(() => expect(calls.some((c) => c.url.search === '?status=pending')).toBe(true));
    expect(
      calls
        .filter((c) => c.id === 'customDomainsAll')
        .map((c) => c.url.search)
        .slice(0, 2),
    ).toEqual(['', '?cursor=d1']);
  });
});

describe("every site's custom domains, ordered", () => {
  it('sorts by domain on the server, Z to A in the address, and exports every page as CSV', async () => {
    const { calls } = stubApi(support, {
      customDomainsAll: ({ url }) => {
        const second = url.searchParams.get('cursor') === 'c2';
        return {
          body: {
            Data: [domain(second ? 'a.example' : 'b.example', { AppName: second ? 'shop-a' : 'shop-b' })],
            NextCursor: url.searchParams.get('limit') && !second ? 'c2' : null,
          },
        };
      },
    });
    const router = renderPage('?status=verified');
    const table = await screen.findByRole('table', { name: 'Custom domains of every site' });
    await within(table).findByText('b.example');
    const header = within(table).getByRole('columnheader', { name: 'Domain' });
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(header).getByRole('button'));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?status=verified&sort=-domain'));
    await vi.waitFor(() =>
      expect(
        calls
          .filter((c) => c.id === 'customDomainsAll')
          .at(-1)
          ?.url.searchParams.get('sort'),
      ).toBe('-domain'),
    );
    const saved: Blob[] = [];
    const created = vi.fn((b: Blob) => {
      saved.push(b);
      return 'blob:domains';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fireEvent.click(
      await screen.findByRole('button', { name: 'Export CSV of Custom domains of every site' }),
    );
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    const text = await saved[0]!.text();
    expect(text.split('\r\n').slice(0, 3)).toEqual([
      'Domain,Site,Status,Added,Last check',
      'b.example,shop-b,Verified,2026-01-02T03:04:05.000Z,2026-01-03T03:04:05.000Z',
      'a.example,shop-a,Verified,2026-01-02T03:04:05.000Z,2026-01-03T03:04:05.000Z',
    ]);
    const reads = calls.filter(
      (c) => c.id === 'customDomainsAll' && c.url.searchParams.get('limit') === '200',
    );
    expect(reads.map((c) => c.url.searchParams.get('sort'))).toEqual(['-domain', '-domain']);
    expect(click).toHaveBeenCalledOnce();
    click.mockRestore();
    vi.unstubAllGlobals();
  });
});

describe("every site's custom domains, by status or when added", () => {
  it('sorts by the Status and Added columns on the server, the order kept in the address', async () => {
    const { calls } = stubApi(support, {
      customDomainsAll: () => ({ body: { Data: [domain('b.example')], NextCursor: null } }),
    });
    const router = renderPage('?status=pending');
    const table = await screen.findByRole('table', { name: 'Custom domains of every site' });
    await within(table).findByText('b.example');
    // Site and Last check do not sort: the site's name is another table's, a check may never have run.
    for (const name of ['Site', 'Last check'])
      expect(within(within(table).getByRole('columnheader', { name })).queryByRole('button')).toBeNull();
    for (const [column, key] of [
      ['Status', 'status'],
      ['Added', 'created'],
    ] as const) {
      const now = await screen.findByRole('table', { name: 'Custom domains of every site' });
      await within(now).findByText('b.example');
      const header = within(now).getByRole('columnheader', { name: column });
      fireEvent.click(within(header).getByRole('button'));
      await vi.waitFor(() => expect(router.state.location.search).toBe(`?status=pending&sort=${key}`));
      await vi.waitFor(() =>
        expect(
          calls
            .filter((c) => c.id === 'customDomainsAll')
            .at(-1)
            ?.url.searchParams.get('sort'),
        ).toBe(key),
      );
      // the table is drawn anew for each order
      const again = await screen.findByRole('table', { name: 'Custom domains of every site' });
      await within(again).findByText('b.example');
      fireEvent.click(within(within(again).getByRole('columnheader', { name: column })).getByRole('button'));
      await vi.waitFor(() => expect(router.state.location.search).toBe(`?status=pending&sort=-${key}`));
    }
  });
});
