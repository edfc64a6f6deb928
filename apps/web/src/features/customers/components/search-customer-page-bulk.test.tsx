import type { BulkJob } from '@sac/contract/bulk';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen, stubApi, viewer } from '../../../testing/api-stub.tsx';
import BulkCustomersBar from './bulk-customers-bar.tsx';
import { customer, support } from './customers-fixtures.ts';
import SearchCustomerPage from './search-customer-page.tsx';

const PATH = '/manage-customer/search-customer';
const renderSearch = (path: string) => renderScreen(path, [{ path: PATH, element: <SearchCustomerPage /> }]);
const found = (n: number, capped = false) => ({
  searchCustomer: () => ({
    body: {
      Data: Array.from({ length: n }, (_, i) => customer(i)),
      Criterion: 'customerName' as const,
      Capped: capped,
      Limit: 1000,
      Total: capped ? 1000 : n,
      NextCursor: '',
    },
  }),
});
const writer = viewer('Admin', ['customers.read', 'sites.read', 'sites.write']);

const plan: BulkJob = {
  Id: 9,
  Action: 'customer.deactivate-sites',
  List: 'customers',
  Uid: null,
  StaffUid: null,
  Selection: { Kind: 'all', Criterion: 'customerName' },
  Count: 3,
  Bound: 10_000,
  ApprovalOver: 100,
  ApprovalNeeded: false,
  State: 'planned',
  Failure: null,
  Actor: 'admin@example.com',
  ActorUid: 'u-admin',
  ApiToken: null,
  ApprovedBy: null,
  CreatedAt: '2026-01-15T10:00:00.000Z',
  StartedAt: null,
  FinishedAt: null,
  UndoOf: null,
  UndoneBy: null,
  UndoUntil: null,
  Planned: { Change: 2, Refuse: 1 },
  Progress: { Changed: 0, Refused: 0, Cancelled: 0, Pending: 3 },
  Items: [
    ['shop-a (customer0@example.com)', 'change', null],
    ['shop-b (customer0@example.com)', 'refuse', 'Already inactive.'],
    ['shop-c (customer1@example.com)', 'change', null],
  ].map(([Label, Planned, PlannedReason], i) => ({
    Seq: i + 1,
    Target: 100 + i,
    AppId: 100 + i,
    Key: customer(i === 2 ? 1 : 0).Uid,
    Label: Label as string,
    Planned: Planned as 'change' | 'refuse',
    PlannedReason: PlannedReason as string | null,
    Outcome: null,
    OutcomeReason: null,
  })),
  ItemsNext: null,
};

describe('bulk actions on the customer search', () => {
  it('lets a writer pick customers, then all the search matches, and plans their sites, each with its customer', async () => {
    const { calls } = stubApi(writer, {
      ...found(3),
      bulkCustomersDryRun: () => ({ body: { Data: plan } }),
    });
    renderSearch(`${PATH}?customerName=cust`);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select Customer 0' }));
    const bar = await screen.findByRole('region', { name: 'Bulk actions on the selected customers' });
    expect(within(bar).getByText('1 selected')).toBeTruthy();
    fireEvent.click(within(bar).getByRole('button', { name: 'Select all 3 matching this search' }));
    expect(within(bar).getByText('All 3 customers matching this search selected')).toBeTruthy();
    expect(screen.getAllByRole('checkbox', { checked: true })).toHaveLength(4);
    fireEvent.click(within(bar).getByRole('button', { name: 'Deactivate their sites' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate sites' });
    expect(await within(dialog).findByText('2 sites will be deactivated.')).toBeTruthy();
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'shop-a (customer0@example.com)',
      'shop-c (customer1@example.com)',
      'shop-b (customer0@example.com): Already inactive.',
    ]);
    expect(calls.find((c) => c.id === 'bulkCustomersDryRun')!.body).toEqual({
      Action: 'customer.deactivate-sites',
      Selection: { Kind: 'all', Search: { customerName: 'cust' } },
    });
  });

  it('plans the rows picked by uid; a count past the search’s limit is left to the dry run', async () => {
    const { calls } = stubApi(writer, {
      ...found(2, true),
      bulkCustomersDryRun: () => ({ body: { Data: plan } }),
    });
    renderSearch(`${PATH}?customerName=cust`);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select Customer 1' }));
    const bar = await screen.findByRole('region', { name: 'Bulk actions on the selected customers' });
    expect(within(bar).getByRole('button', { name: 'Select all matching this search' })).toBeTruthy();
    fireEvent.click(within(bar).getByRole('button', { name: 'Activate their sites' }));
    await screen.findByRole('dialog', { name: 'Activate sites' });
    await waitFor(() =>
      expect(calls.find((c) => c.id === 'bulkCustomersDryRun')?.body).toEqual({
        Action: 'customer.activate-sites',
        Selection: { Kind: 'rows', Uids: [customer(1).Uid] },
      }),
    );
  });

  it('exports the customers picked through the search’s own export (uids), for a reader too, who gets no actions', async () => {
    const { calls } = stubApi(support, {
      ...found(3),
      searchCustomerExport: () => ({
        body: 'Uid,Customer Name\r\na,A\r\nc,C\r\n',
        headers: {
          'x-export-rows': '2',
          'Content-Disposition': 'attachment; filename="customers-customerName-x.csv"',
        },
      }),
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderSearch(`${PATH}?customerName=cust&sort=-created`);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select Customer 0' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Customer 2' }));
    const bar = await screen.findByRole('region', { name: 'Bulk actions on the selected customers' });
    expect(within(bar).queryByRole('button', { name: 'Deactivate their sites' })).toBeNull();
    fireEvent.click(within(bar).getByRole('button', { name: 'Export CSV of the selected customers' }));
    await screen.findByText('Exported 2 rows to customers-customerName-x.csv.');
    const exports = calls.filter((c) => c.id === 'searchCustomerExport');
    expect(exports.map((c) => Object.fromEntries(c.url.searchParams))).toEqual([
      { customerName: 'cust', sort: '-created', uids: `${customer(0).Uid},${customer(2).Uid}` },
    ]);
  });

  /** The bar alone over a search for 'cust' matching `total`, with the first `picked` customers picked. */
  function barOver(picked: number, total: number | undefined) {
    const { calls } = stubApi(support, {
      searchCustomerExport: () => ({
        body: 'Uid,Customer Name\r\na,A\r\n',
        headers: { 'x-export-rows': '1', 'Content-Disposition': 'attachment; filename="c.csv"' },
      }),
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const picks = { picked: new Set(Array.from({ length: picked }, (_, i) => customer(i).Uid)), all: false };
    renderScreen(PATH, [
      {
        path: PATH,
        element: (
          <BulkCustomersBar
            search={{ criterion: 'customerName', term: 'cust' }}
            sort={undefined}
            total={total}
            picks={picks}
            setPicks={() => {}}
          />
        ),
      },
    ]);
    return { calls, exports: () => calls.filter((c) => c.id === 'searchCustomerExport') };
  }

  it('tells a pick of more than 200 customers, before any request, that at most 200 are exported, and offers all matching', async () => {
    const { exports } = barOver(201, 500);
    const bar = await screen.findByRole('region', { name: 'Bulk actions on the selected customers' });
    expect(
      within(bar).getByText(
        'At most 200 picked customers can be exported at once; 201 are picked. Export all customers matching this search instead, or pick fewer.',
      ),
    ).toBeTruthy();
    expect(within(bar).queryByRole('button', { name: 'Export CSV of the selected customers' })).toBeNull();
    expect(exports()).toEqual([]);
    fireEvent.click(
      within(bar).getByRole('button', { name: 'Export CSV of all customers matching this search' }),
    );
    await screen.findByText('Exported 1 row to c.csv.');
    expect(exports().map((c) => Object.fromEntries(c.url.searchParams))).toEqual([{ customerName: 'cust' }]);
  });

  it('exports all matching, not their uids, when every customer the search matches is picked', async () => {
    const { exports } = barOver(250, 250);
    const bar = await screen.findByRole('region', { name: 'Bulk actions on the selected customers' });
    expect(within(bar).queryByText(/At most 200/)).toBeNull();
    fireEvent.click(within(bar).getByRole('button', { name: 'Export CSV of the selected customers' }));
    await screen.findByText('Exported 1 row to c.csv.');
    expect(exports().map((c) => Object.fromEntries(c.url.searchParams))).toEqual([{ customerName: 'cust' }]);
  });

  it('clears the selection when the search changes', async () => {
    stubApi(writer, found(3));
    renderSearch(`${PATH}?customerName=cust`);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select Customer 0' }));
    const bar = await screen.findByRole('region', { name: 'Bulk actions on the selected customers' });
    expect(within(bar).getByText('1 selected')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Customer Name'), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Bulk actions on the selected customers' })).toBeNull(),
    );
  });
});
