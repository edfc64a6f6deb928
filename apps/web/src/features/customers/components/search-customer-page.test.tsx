import { SEARCH_MESSAGES } from '@sac/contract/customers';
import { MESSAGES } from '@sac/contract/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, type StubCall, stubApi } from '../../../testing/api-stub.tsx';
import { customer, support } from './customers-fixtures.ts';
import SearchCustomerPage from './search-customer-page.tsx';

const PATH = '/manage-customer/search-customer';
const renderSearch = (path = PATH) =>
  renderScreen(path, [
    { path: PATH, element: <SearchCustomerPage /> },
    { path: '/manage-customer/view-customer', element: <p>customer view</p> },
  ]);

const found = (n: number, capped = false, from = 0, next = '', total = n) => ({
  body: {
    Data: Array.from({ length: n }, (_, i) => customer(from + i)),
    Criterion: 'customerName' as const,
    Capped: capped,
    Limit: 1000,
    Total: capped ? 1000 : total,
    NextCursor: next,
  },
});
const searches = (calls: readonly StubCall[]) =>
  calls.filter((c) => c.url.pathname === '/admin/searchcustomer').map((c) => c.url);
const input = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

describe('customer search form', () => {
  it('has the four labelled fields, phone and UID, an advanced API secret, and uses one criterion at a time', async () => {
    stubApi(support, {});
    renderSearch();
    await screen.findByRole('heading', { level: 1, name: 'Search Customer' });
    expect(screen.getByRole('search', { name: 'Search customers' })).toBeTruthy();
    for (const name of [
      'Customer Name',
      'Email Address',
      'API Key',
      'Site Name',
      'Phone Number',
      'UID',
      'API Secret',
    ]) {
      expect(input(name)).toBeTruthy();
    }
    fireEvent.change(input('Customer Name'), { target: { value: 'Ada' } });
    fireEvent.change(input('Email Address'), { target: { value: 'ada@' } });
    expect(input('Customer Name').value).toBe('');
    expect(input('Email Address').value).toBe('ada@');
    fireEvent.change(input('API Secret'), { target: { value: 's3cret' } });
    expect(input('Email Address').value).toBe('');
    expect(input('API Secret').value).toBe('s3cret');
    // Name and site-name terms under three letters match name starts only: the fields say so.
    const hint =
      'Fewer than 3 letters find names that start with them; 3 or more find them anywhere in the name.';
    expect(input('Customer Name').getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getAllByText(hint)).toHaveLength(2);
  });

  it('says what to try next when nothing matches', async () => {
    stubApi(support, { searchCustomer: () => found(0) });
    renderSearch(`${PATH}?customerName=zyx`);
    expect(await screen.findByText(MESSAGES.tableEmpty)).toBeTruthy();
    expect(
      screen.getByText(
        'No customer matches. Check the spelling, try fewer letters, or search by email address, phone number, API key or site name.',
      ),
    ).toBeTruthy();
  });

  it('asks for a criterion when every field is blank, without calling the API', async () => {
    const { calls } = stubApi(support, {});
    renderSearch();
    fireEvent.change(await screen.findByLabelText('Site Name'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect((await screen.findByRole('alert')).textContent).toBe(SEARCH_MESSAGES.noCriterion);
    expect(searches(calls)).toHaveLength(0);
  });

  it('submits with Enter, escapes + in the query, and keeps the search in the address', async () => {
    const { calls } = stubApi(support, { searchCustomer: () => found(1) });
    const router = renderSearch();
    const field = await screen.findByLabelText('Email Address');
    fireEvent.change(field, { target: { value: ' ada+test@example.com ' } });
    fireEvent.submit(field.closest('form')!);
    await screen.findByRole('table', { name: 'Customers found' });
    await waitFor(() => expect(searches(calls)).toHaveLength(1));
    expect(searches(calls)[0]!.search).toBe('?emailid=ada%2Btest%40example.com');
    expect(new URLSearchParams(router.state.location.search).get('emailid')).toBe('ada+test@example.com');
  });

  it('runs the search of the address and prefills its field (Back returns to the results)', async () => {
    const { calls } = stubApi(support, { searchCustomer: () => found(2) });
    renderSearch(`${PATH}?sitename=shop%20one`);
    expect(await screen.findByText('Customer 1')).toBeTruthy();
    expect(input('Site Name').value).toBe('shop one');
    expect(searches(calls)[0]!.searchParams.get('sitename')).toBe('shop one');
    // Site owners come by name: the column says so, and turns the list round from there.
    const header = screen.getByRole('columnheader', { name: /Customer Name/ });
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(searches(calls).at(-1)!.searchParams.get('sort')).toBe('-name'));
    expect(screen.getByRole('columnheader', { name: /Customer Name/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );
  });

  it('marks no column sorted for a name search, whose own order is the rank', async () => {
    stubApi(support, { searchCustomer: () => found(2) });
    renderSearch(`${PATH}?customerName=cust`);
    await screen.findByText('Customer 1');
    expect(screen.getByRole('columnheader', { name: /Customer Name/ }).getAttribute('aria-sort')).toBeNull();
  });

  it('keeps an API secret out of the address', async () => {
    const { calls } = stubApi(support, { searchCustomer: () => found(1) });
    const router = renderSearch();
    fireEvent.change(await screen.findByLabelText('API Secret'), { target: { value: 'top-secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('Customer 0');
    expect(searches(calls)[0]!.searchParams.get('apisecret')).toBe('top-secret');
    expect(router.state.location.search).toBe('');
  });
});

describe('customer search results', () => {
  it('shows the spec columns, MM-DD-YYYY dates and a View link per row', async () => {
    stubApi(support, { searchCustomer: () => found(1) });
    const router = renderSearch(`${PATH}?customerName=cust`);
    const table = await screen.findByRole('table', { name: 'Customers found' });
    await screen.findByText('Customer 0');
    // the first column holds the row boxes (bulk actions, the export of a selection)
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['', 'Customer Name', 'Status', 'Role', 'Created Date', 'Modified Date', 'Action']);
    expect(within(table).getByRole('checkbox', { name: 'Select the customers of this page' })).toBeTruthy();
    const row = screen.getByRole('cell', { name: 'Customer 0' }).closest('tr')!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['', 'Customer 0', 'Active', 'Owner', '03-07-2024', '05-01-2024', 'View']);
    expect(within(row).getByRole('checkbox', { name: 'Select Customer 0' })).toBeTruthy();
    const view = within(row).getByRole('link', { name: 'View' });
    expect(view.getAttribute('href')).toBe(
      '/manage-customer/view-customer?uid=00000000-0000-4000-8000-000000000000',
    );
    fireEvent.click(view);
    await screen.findByText('customer view');
    expect(router.state.location.state).toEqual({ fromSearch: '?customerName=cust' });
  });

  it('shows 10 rows a page and "More than 1,000 results" past the count limit', async () => {
    stubApi(support, { searchCustomer: () => found(23, true, 0, 'c2') });
    renderSearch(`${PATH}?customerName=cust`);
    await screen.findByText('Customer 0');
    expect((await screen.findByRole('status')).textContent).toBe('More than 1,000 results');
    expect(screen.getByText('Showing 1–10 of more than 1,000')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Customers found' });
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(screen.getByText('Customer 22')).toBeTruthy();
  });

  it('asks for the next 50 with the cursor when Next is pressed on the last loaded page', async () => {
    const { calls } = stubApi(support, {
      searchCustomer: ({ url }) =>
        url.searchParams.get('cursor') === 'c2' ? found(5, false, 50, '', 55) : found(50, false, 0, 'c2', 55),
    });
    renderSearch(`${PATH}?customerName=cu`);
    await screen.findByText('Customer 0');
    const table = screen.getByRole('table', { name: 'Customers found' });
    expect(screen.getByText('Showing 1–10 of 55')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Page 5' }));
    expect(searches(calls)).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await within(table).findByText('Customer 50')).toBeTruthy();
    expect(searches(calls).map((u) => u.searchParams.get('cursor'))).toEqual([null, 'c2']);
    expect(searches(calls)[1]!.searchParams.get('customerName')).toBe('cu');
    expect(screen.getByText('Showing 51–55 of 55')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(table).getAllByRole('row')).toHaveLength(6);
  });

  it('says so when the next 50 cannot be fetched, and keeps the loaded rows', async () => {
    stubApi(support, {
      searchCustomer: ({ url }) =>
        url.searchParams.get('cursor')
          ? { status: 400, body: { ErrorCode: 900, Description: SEARCH_MESSAGES.badCursor } }
          : found(10, false, 0, 'c2'),
    });
    renderSearch(`${PATH}?customerName=cu`);
    await screen.findByText('Customer 0');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect((await screen.findByRole('alert')).textContent).toBe(SEARCH_MESSAGES.badCursor);
    expect(screen.getByText('Customer 9')).toBeTruthy();
  });

  it('says the exact count up to the limit', async () => {
    stubApi(support, { searchCustomer: () => found(3) });
    renderSearch(`${PATH}?customerName=cust`);
    await screen.findByText('Customer 2');
    expect(screen.getByRole('status').textContent).toBe('3 results');
    expect(screen.getByText('Showing 1–3 of 3')).toBeTruthy();
  });

  it("searches by phone number and by UID, and shows the API's refusal of a term that is neither", async () => {
    const { calls } = stubApi(support, {
      searchCustomer: ({ url }) =>
        url.searchParams.get('uid') === 'nope'
          ? {
              status: 400,
              body: {
                ErrorCode: 900,
                Description: 'Validation failed.',
                FieldErrors: [{ Field: 'uid', Message: SEARCH_MESSAGES.badUid }],
              },
            }
          : found(1),
    });
    renderSearch();
    fireEvent.change(await screen.findByLabelText('Phone Number'), { target: { value: '+44 20 7946' } });
    expect(input('Phone Number').getAttribute('inputmode')).toBe('tel');
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('Customer 0');
    expect(screen.getByRole('status').textContent).toBe('1 result');
    expect(searches(calls)[0]!.searchParams.get('phone')).toBe('+44 20 7946');
    fireEvent.change(input('UID'), { target: { value: '00000000-0000-4000-8000-000000000000' } });
    expect(input('Phone Number').value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(searches(calls)).toHaveLength(2));
    expect(searches(calls)[1]!.searchParams.get('uid')).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('checks a UID and a phone number before calling the API', async () => {
    const { calls } = stubApi(support, {});
    renderSearch();
    fireEvent.change(await screen.findByLabelText('UID'), { target: { value: '1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(SEARCH_MESSAGES.badUid)).toBeTruthy();
    fireEvent.change(input('Phone Number'), { target: { value: 'call me' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(SEARCH_MESSAGES.badPhone)).toBeTruthy();
    expect(searches(calls)).toHaveLength(0);
  });

  it("shows 'Not Found, Please try again with some other information!' for 927", async () => {
    stubApi(support, {
      searchCustomer: () => ({
        status: 404,
        body: { ErrorCode: 927, Description: 'Not Found, Please try again with some other information!' },
      }),
    });
    renderSearch(`${PATH}?apikey=nope`);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(MESSAGES.searchNotFound);
    expect(within(screen.getByRole('table', { name: 'Customers found' })).getByRole('alert')).toBe(alert);
  });

  it("shows the server's text for other errors", async () => {
    stubApi(support, {
      searchCustomer: () => ({
        status: 400,
        body: { ErrorCode: 910, Description: 'The search term is too long.' },
      }),
    });
    renderSearch(`${PATH}?apikey=x`);
    expect((await screen.findByRole('alert')).textContent).toBe('The search term is too long.');
  });

  it("shows the spec's fetch error when the server sends no text", async () => {
    stubApi(support, { searchCustomer: () => ({ status: 400, body: {} }) });
    renderSearch(`${PATH}?apikey=x`);
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.tableFetchError);
  });

  it('shows the empty state', async () => {
    stubApi(support, { searchCustomer: () => found(0) });
    renderSearch(`${PATH}?customerName=cust`);
    expect(await screen.findByText(MESSAGES.tableEmpty)).toBeTruthy();
  });
});
