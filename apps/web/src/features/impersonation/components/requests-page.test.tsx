import { MESSAGES } from '@sac/contract/messages';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen, stubApi, type Viewer } from '../../../testing/api-stub.tsx';
import {
  APPROVERS,
  admin,
  CUSTOMER_ROLES,
  REASONS,
  request,
  superAdmin,
  support,
} from './impersonation-fixtures.ts';
import RequestsPage from './requests-page.tsx';

const PATH = '/manage-superuser/impersonation/assigned-requests';
const renderPage = (path = PATH) => renderScreen(path, [{ path: PATH, element: <RequestsPage /> }]);

const row = (id: number) => screen.getByRole('cell', { name: String(id) }).closest('tr')!;
const openRequest = async (id: number) => {
  fireEvent.click(await screen.findByRole('button', { name: `View request ${id}` }));
  return screen.getByRole('dialog', { name: `Impersonation request ${id}` });
};
const list = (rows: ReturnType<typeof request>[]) => ({
  impersonationList: () => ({ body: { Data: rows } }),
});

describe('impersonation requests table', () => {
  it('shows the columns in the server order, 5 a page', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => request(20 - i, { AppName: `app-${i}` }));
    stubApi(superAdmin, list(rows));
    renderPage();
    const table = await screen.findByRole('table', { name: 'Impersonation requests' });
    await screen.findByText('app-0');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
      // an approver's table opens with the row checkboxes (bulk actions)
    ).toEqual(['', 'Request Id', 'App Name', 'Priority', 'Status', 'Actions']);
    expect(
      within(row(20))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['', '20', 'app-0Support ticket · SUP-42', 'High', 'Pending', 'View']);
    expect(screen.getAllByRole('row')).toHaveLength(6);
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(screen.getAllByRole('row')).toHaveLength(3);
    expect(screen.getByText('app-6')).toBeTruthy();
  });

  it('pages through the server: Next on the last page read asks for the next page with its cursor', async () => {
    const { calls } = stubApi(superAdmin, {
      impersonationList: ({ url }) =>
        url.searchParams.get('cursor') === 'c1'
          ? { body: { Data: [request(9_001), request(9_002)], NextCursor: null } }
          : { body: { Data: Array.from({ length: 50 }, (_, i) => request(100 + i)), NextCursor: 'c1' } },
    });
    renderPage(`${PATH}?status=Pending`);
    expect(await screen.findByText('Showing 1–5 of more than 50')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Page 10' }));
    expect(screen.getByText('Showing 46–50 of more than 50')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /next/i }));
    expect(await screen.findByText('Showing 51–52 of 52')).toBeTruthy();
    expect(screen.getByRole('cell', { name: '9001' })).toBeTruthy();
    const asked = calls.filter((c) => c.id === 'impersonationList').map((c) => c.url.search);
    expect(asked).toEqual(['?status=Pending', '?status=Pending&cursor=c1']);
  });

  it('asks the server for the order of a column header, keeps it in the address, and exports that list', async () => {
    const { calls } = stubApi(superAdmin, {
      impersonationList: ({ url }) => ({
        body: {
          Data:
            url.searchParams.get('sort') === '-priority'
              ? [request(2), request(1)]
              : [request(1), request(2)],
          NextCursor: null,
        },
      }),
      impersonationRequestsExport: ({ url }) => ({
        body: `Request Id,App Name\r\n2,${url.searchParams.get('sort')}\r\n1,x\r\n`,
        headers: {
          'x-export-rows': '2',
          'Content-Disposition': 'attachment; filename="impersonation-requests-x.csv"',
        },
      }),
    });
    const router = renderPage(`${PATH}?status=Pending`);
    const table = await screen.findByRole('table', { name: 'Impersonation requests' });
    await screen.findByRole('cell', { name: '1' });
    // The table is drawn again for each order: find the header each time.
    const priority = () =>
      within(screen.getByRole('table', { name: 'Impersonation requests' })).getByRole('columnheader', {
        name: 'Priority',
      });
    expect(
      within(within(table).getByRole('columnheader', { name: 'Actions' })).queryByRole('button'),
    ).toBeNull();
    fireEvent.click(within(priority()).getByRole('button'));
    await waitFor(() => expect(priority().getAttribute('aria-sort')).toBe('ascending'));
    fireEvent.click(within(priority()).getByRole('button'));
    await waitFor(() => expect(priority().getAttribute('aria-sort')).toBe('descending'));
    expect(router.state.location.search).toBe('?status=Pending&sort=-priority');
    await waitFor(() => expect(row(2).rowIndex).toBe(1));
    const asked = calls.filter((c) => c.id === 'impersonationList').map((c) => c.url.search);
    expect(asked).toContain('?status=Pending&sort=-priority');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV of Impersonation requests' }));
    await screen.findByText('Exported 2 rows to impersonation-requests-x.csv.');
    expect(calls.filter((c) => c.id === 'impersonationRequestsExport').map((c) => c.url.search)).toEqual([
      '?status=Pending&sort=-priority',
    ]);
  });

  it('updates a row read on a later page in place, without reading the list again', async () => {
    const { calls } = stubApi(admin, {
      impersonationList: ({ url }) =>
        url.searchParams.get('cursor') === 'c1'
          ? { body: { Data: [request(61), request(62)], NextCursor: null } }
          : { body: { Data: Array.from({ length: 5 }, (_, i) => request(10 + i)), NextCursor: 'c1' } },
      impersonationDelete: ({ url }) => ({
        body: {
          IsDeleted: true,
          Id: Number(url.searchParams.get('requestId')),
          Message: `Request ${url.searchParams.get('requestId')} for analytical-engine has been deleted.`,
        },
      }),
    });
    renderPage();
    await screen.findByText('Showing 1–5 of more than 5');
    fireEvent.click(screen.getByRole('button', { name: /next/i }));
    await screen.findByText('Showing 6–7 of 7');
    fireEvent.click(within(await openRequest(61)).getByRole('button', { name: 'Delete' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Delete request 61' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('cell', { name: '61' })).toBeNull());
    expect(screen.getByText('Showing 6–6 of 6')).toBeTruthy();
    expect(calls.filter((c) => c.id === 'impersonationList')).toHaveLength(2);
  });

  it('filters by status through the server', async () => {
    const { calls } = stubApi(superAdmin, {
      impersonationList: ({ body: _b, url }) => ({
        body: {
          Data:
            url.searchParams.get('status') === 'Approved'
              ? [request(3, { Action: { Status: 'Approved' } })]
              : [],
        },
      }),
    });
    const router = renderPage();
    const filter = await screen.findByRole('combobox', { name: 'Status' });
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All', 'Pending', 'Approved', 'Rejected', 'Revoked', 'Expired']);
    expect(await screen.findByText(MESSAGES.tableEmpty)).toBeTruthy();
    fireEvent.change(filter, { target: { value: 'Approved' } });
    expect(await screen.findByRole('cell', { name: '3' })).toBeTruthy();
    expect(router.state.location.search).toBe('?status=Approved');
    expect(calls.some((c) => c.url.search === '?status=Approved')).toBe(true);
  });

  it('shows the empty state', async () => {
    stubApi(superAdmin, list([]));
    renderPage();
    expect(await screen.findByText(MESSAGES.tableEmpty)).toBeTruthy();
  });

  it("shows the server's error text, else the table fetch error", async () => {
    stubApi(superAdmin, {
      impersonationList: () => ({
        status: 403,
        body: { ErrorCode: 902, Description: 'You do not have permission to perform this action.' },
      }),
    });
    renderPage();
    expect(await screen.findByText('You do not have permission to perform this action.')).toBeTruthy();
    cleanup();
    stubApi(superAdmin, { impersonationList: () => ({ status: 400, body: {} }) });
    renderPage();
    expect(await screen.findByText(MESSAGES.tableFetchError)).toBeTruthy();
  });

  it('tells a user without impersonation access', async () => {
    const { calls } = stubApi({ ...support, Role: ['Billing'], Permissions: ['customers.read'] }, list([]));
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.noImpersonationAccess);
    expect(calls.some((c) => c.id === 'impersonationList')).toBe(false);
  });
});

describe('request popup', () => {
  it('opens the request a link names (?request=), asking for it by Id when no page read holds it', async () => {
    const { callsTo } = stubApi(superAdmin, {
      impersonationList: ({ url }) => ({
        body: {
          Data: url.searchParams.get('requestId') === '77' ? [request(77)] : [request(1)],
          NextCursor: null,
        },
      }),
    });
    const router = renderPage(`${PATH}?request=77`);
    const dialog = await screen.findByRole('dialog', { name: 'Impersonation request 77' });
    expect(callsTo('impersonationList').some((c) => c.url.searchParams.get('requestId') === '77')).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says so when the linked request is not one the viewer can see', async () => {
    stubApi(superAdmin, {
      impersonationList: ({ url }) => ({
        body: { Data: url.searchParams.has('requestId') ? [] : [request(1)], NextCursor: null },
      }),
    });
    renderPage(`${PATH}?request=404`);
    expect(
      await screen.findByText('Request 404 is not one you can see, or it has been deleted.'),
    ).toBeTruthy();
  });

  it('shows the approver the reason and the case, linked to the tracker in a new tab without this page', async () => {
    stubApi(
      superAdmin,
      list([
        request(6),
        request(7, { Request: { ReasonCode: null, ReasonLabel: null, CaseReference: null, CaseUrl: null } }),
      ]),
    );
    renderPage();
    const dialog = await openRequest(6);
    expect(dialog.textContent).toContain('ReasonSupport ticket');
    const link = within(dialog).getByRole('link', {
      name: 'Open case SUP-42 (new tab)',
    }) as HTMLAnchorElement;
    expect(link.href).toBe('https://tickets.example.com/browse/SUP-42');
    expect(link.target).toBe('_blank');
    expect(link.rel).toBe('noopener noreferrer');
    expect(within(row(6)).getByRole('link', { name: 'Open case SUP-42 (new tab)' })).toBeTruthy();
    // an older request, from before reasons had codes: as it was
    expect(within(row(7)).getAllByRole('cell')[2]!.textContent).toBe('analytical-engine');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    const older = await openRequest(7);
    expect(older.textContent).toContain('ReasonNone');
    expect(within(older).queryByRole('link')).toBeNull();
  });

  it('shows the details and no action once expired', async () => {
    stubApi(
      superAdmin,
      list([
        request(5, {
          Action: {
            Status: 'Expired',
            ExpiresAt: '2025-01-02T05:04:05.000Z',
            ActionTakenBy: 'superadmin@example.com',
            ActionTakenAt: '2025-01-02T03:34:05.000Z',
            ApprovedProxyRoles: ['Analyst'],
          },
        }),
      ]),
    );
    renderPage();
    const dialog = await openRequest(5);
    expect(dialog.textContent).toMatch(/Expires at[a-z0-9 ]+ \(01-02-2025 05:04:05 \(UTC\)\)/);
    expect(dialog.textContent).toContain('Customer cannot save settings.');
    expect(within(dialog).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Revoke' })).toBeNull();
  });

  it('turns a live grant Expired in place when its time is up, and takes its actions away', async () => {
    const ends = new Date(Date.now() + 400).toISOString();
    stubApi(
      superAdmin,
      list([
        request(8, {
          Action: {
            Status: 'Approved',
            ExpiresAt: ends,
            ActionTakenBy: 'superadmin@example.com',
            ActionTakenAt: '2025-01-02T03:34:05.000Z',
            ApprovedProxyRoles: ['Analyst'],
          },
        }),
      ]),
    );
    renderPage();
    const dialog = await openRequest(8);
    expect(within(dialog).getByRole('button', { name: 'Revoke' })).toBeTruthy();
    expect(
      await within(dialog).findByText(
        'This access has expired, so it can no longer be used, changed or revoked. Ask again if access is still needed.',
        {},
        { timeout: 3000 },
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Revoke' })).toBeNull();
    const table = screen.getByRole('table', { name: 'Impersonation requests' });
    expect(within(table).getByText('Expired')).toBeTruthy();
  });

  it('disables Approve with the reason while the customer has not granted permission', async () => {
    stubApi(superAdmin, list([request(6, { Impersonation: false })]));
    renderPage();
    const dialog = await openRequest(6);
    const approve = within(dialog).getByRole('button', { name: 'Approve' }) as HTMLButtonElement;
    expect(approve.disabled).toBe(true);
    expect(approve.title).toBe(MESSAGES.customerNotGrantedImpersonation);
    const described = document.getElementById(approve.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe(MESSAGES.customerNotGrantedImpersonation);
    expect((within(dialog).getByRole('button', { name: 'Reject' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('disables Approve with the reason while a new SuperAdmin is in the approval cool-down', async () => {
    const from = '2999-01-02T03:04:00.000Z';
    stubApi({ ...superAdmin, CanApproveImpersonationFrom: from }, list([request(16)]));
    renderPage();
    const dialog = await openRequest(16);
    const text =
      'You became a SuperAdmin recently: you can approve impersonation requests from 01-02-2999 03:04 UTC (a cool-down after every promotion).';
    await waitFor(() =>
      expect((within(dialog).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(
        true,
      ),
    );
    const approve = within(dialog).getByRole('button', { name: 'Approve' }) as HTMLButtonElement;
    expect(approve.title).toBe(text);
    expect(document.getElementById(approve.getAttribute('aria-describedby') ?? '')?.textContent).toBe(text);
    expect((within(dialog).getByRole('button', { name: 'Reject' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('enables Approve once the cool-down has passed', async () => {
    stubApi({ ...superAdmin, CanApproveImpersonationFrom: '2000-01-01T00:00:00.000Z' }, list([request(17)]));
    renderPage();
    const dialog = await openRequest(17);
    expect((within(dialog).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('offers no approval of an own request, and edit and delete only to the requester', async () => {
    stubApi(admin, list([request(7), request(8, { Initiator: 'support@example.com' })]));
    renderPage();
    let dialog = await openRequest(7);
    expect(within(dialog).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    dialog = await openRequest(8);
    expect(within(dialog).queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it("approves with the approve form's rules and updates the row from the answer", async () => {
    const { calls } = stubApi(superAdmin, {
      ...list([request(9)]),
      impersonationAction: () => ({
        body: {
          Data: {
            Id: 9,
            AppName: 'analytical-engine',
            Action: { Status: 'Approved' },
            ApprovedProxyRoles: ['Analyst'],
            ApprovedAdditionalPermissions: [],
            ExpiresAt: '2099-01-02T05:04:05.000Z',
            Initiator: 'admin@example.com',
          },
          userStatus: 'existingUser',
          Message: 'Request 9 for analytical-engine approved with 1 role and 0 additional permissions.',
        },
      }),
    });
    renderPage();
    const dialog = await openRequest(9);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    const form = screen.getByRole('dialog', { name: 'Approve request 9' });
    const roles = within(form).getByRole('group', { name: 'Roles to grant' });
    expect(
      within(roles)
        .getAllByRole('checkbox')
        .map((c) => (c as HTMLInputElement).checked),
    ).toEqual([true, true]);
    const duration = within(form).getByRole('spinbutton', { name: 'Duration (minutes)' }) as HTMLInputElement;
    expect(duration.value).toBe('90');
    fireEvent.click(within(roles).getByRole('checkbox', { name: 'Administrator' }));
    fireEvent.click(within(roles).getByRole('checkbox', { name: 'Analyst' }));
    expect(within(form).getByText(MESSAGES.approveRolesRequired)).toBeTruthy();
    fireEvent.change(duration, { target: { value: '43201' } });
    expect(within(form).getByText(MESSAGES.approveDurationRange)).toBeTruthy();
    fireEvent.change(duration, { target: { value: '0' } });
    expect(within(form).getByText(MESSAGES.approveDurationRange)).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Approve' }));
    expect(calls.some((c) => c.id === 'impersonationAction')).toBe(false);

    fireEvent.click(within(roles).getByRole('checkbox', { name: 'Analyst' }));
    fireEvent.click(within(form).getByRole('checkbox', { name: 'ManageSite' }));
    fireEvent.change(duration, { target: { value: '30' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Comments (Optional)' }), {
      target: { value: ' Go ahead ' },
    });
    expect(within(form).queryByText(MESSAGES.approveRolesRequired)).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const call = calls.find((c) => c.id === 'impersonationAction')!;
    expect(call.url.search).toBe('?requestId=9');
    expect(call.body).toEqual({
      Status: 'Approve',
      ProxyRoles: ['Analyst'],
      AdditionalPermissions: [],
      Duration: 30,
      Comments: 'Go ahead',
    });
    expect((await screen.findByTestId('toast-success')).textContent).toContain(
      'Request 9 for analytical-engine approved with 1 role',
    );
    expect(within(row(9)).getAllByRole('cell')[4]!.textContent).toBe('Approved');
    expect(calls.filter((c) => c.id === 'impersonationList')).toHaveLength(1);
  });

  it('rejects with comments', async () => {
    const { calls } = stubApi(superAdmin, {
      ...list([request(10)]),
      impersonationAction: () => ({
        body: {
          Data: {
            Id: 10,
            AppName: 'analytical-engine',
            Action: { Status: 'Rejected' },
            ApprovedProxyRoles: [],
            ApprovedAdditionalPermissions: [],
            ExpiresAt: null,
            Initiator: 'admin@example.com',
          },
          userStatus: 'existingUser',
          Message: 'Request 10 for analytical-engine has been rejected.',
        },
      }),
    });
    renderPage();
    fireEvent.click(within(await openRequest(10)).getByRole('button', { name: 'Reject' }));
    const form = screen.getByRole('dialog', { name: 'Reject request 10' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Comments (Optional)' }), {
      target: { value: 'Not needed' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Reject' }));
    expect((await screen.findByTestId('toast-success')).textContent).toContain('has been rejected');
    expect(calls.find((c) => c.id === 'impersonationAction')?.body).toEqual({
      Status: 'Reject',
      Comments: 'Not needed',
    });
    expect(within(row(10)).getAllByRole('cell')[4]!.textContent).toBe('Rejected');
  });

  it('revokes only some roles: Revoke stays disabled until one is chosen', async () => {
    const approved = request(11, {
      Action: {
        Status: 'Approved',
        ExpiresAt: '2999-01-01T00:00:00.000Z',
        ApprovedProxyRoles: ['Administrator', 'Analyst'],
        ApprovedAdditionalPermissions: ['ManageSite'],
        ActionTakenBy: 'superadmin@example.com',
        ActionTakenAt: '2025-01-02T03:04:05.000Z',
      },
    });
    const { calls } = stubApi(superAdmin, {
      ...list([approved]),
      impersonationAction: () => ({
        body: {
          Data: {
            Id: 11,
            AppName: 'analytical-engine',
            Action: { Status: 'Approved' },
            ApprovedProxyRoles: ['Administrator'],
            ApprovedAdditionalPermissions: ['ManageSite'],
            ExpiresAt: '2999-01-01T00:00:00.000Z',
            Initiator: 'admin@example.com',
          },
          userStatus: 'existingUser',
          Message: 'Some access of request 11 to analytical-engine has been revoked.',
        },
      }),
    });
    renderPage();
    fireEvent.click(within(await openRequest(11)).getByRole('button', { name: 'Revoke' }));
    const form = screen.getByRole('dialog', { name: 'Revoke request 11' });
    const proceed = within(form).getByRole('button', { name: 'Revoke' }) as HTMLButtonElement;
    expect(within(form).getByRole('radio', { name: 'Revoke whole site access' })).toHaveProperty(
      'checked',
      true,
    );
    expect(proceed.disabled).toBe(false);
    fireEvent.click(within(form).getByRole('radio', { name: 'Revoke only some roles' }));
    expect(proceed.disabled).toBe(true);
    const roles = within(form).getByRole('group', { name: 'Roles to revoke' });
    fireEvent.click(within(roles).getByRole('checkbox', { name: 'Analyst' }));
    expect(proceed.disabled).toBe(false);
    fireEvent.click(within(roles).getByRole('checkbox', { name: 'Analyst' }));
    expect(proceed.disabled).toBe(true);
    fireEvent.click(
      within(within(form).getByRole('group', { name: 'Permissions to revoke' })).getByRole('checkbox', {
        name: 'ManageSite',
      }),
    );
    expect(proceed.disabled).toBe(false);
    fireEvent.click(within(roles).getByRole('checkbox', { name: 'Analyst' }));
    fireEvent.click(proceed);
    expect((await screen.findByTestId('toast-success')).textContent).toContain('Some access of request 11');
    const call = calls.find((c) => c.id === 'impersonationAction')!;
    expect(call.url.searchParams.get('revokeAction')).toBe('roles');
    expect(call.body).toEqual({
      Status: 'Revoke',
      ProxyRoles: ['Analyst'],
      AdditionalPermissions: ['ManageSite'],
      Comments: '',
    });
  });

  it('revokes the whole site access with revokeAction=site', async () => {
    const approved = request(12, {
      Action: { Status: 'Approved', ExpiresAt: '2999-01-01T00:00:00.000Z', ApprovedProxyRoles: ['Analyst'] },
    });
    const { calls } = stubApi(superAdmin, {
      ...list([approved]),
      impersonationAction: () => ({
        body: {
          Data: {
            Id: 12,
            AppName: 'analytical-engine',
            Action: { Status: 'Revoked' },
            ApprovedProxyRoles: ['Analyst'],
            ApprovedAdditionalPermissions: [],
            ExpiresAt: '2999-01-01T00:00:00.000Z',
            Initiator: 'admin@example.com',
          },
          userStatus: 'existingUser',
          Message: 'Access of request 12 to analytical-engine has been revoked.',
        },
      }),
    });
    renderPage();
    fireEvent.click(within(await openRequest(12)).getByRole('button', { name: 'Revoke' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    await screen.findByTestId('toast-success');
    expect(calls.find((c) => c.id === 'impersonationAction')?.url.search).toBe(
      '?requestId=12&revokeAction=site',
    );
    expect(within(row(12)).getAllByRole('cell')[4]!.textContent).toBe('Revoked');
  });

  it("toasts the server's error when an action fails", async () => {
    stubApi(superAdmin, {
      ...list([request(13)]),
      impersonationAction: () => ({
        status: 409,
        body: { ErrorCode: 950, Description: 'Only a pending request can be changed this way.' },
      }),
    });
    renderPage();
    fireEvent.click(within(await openRequest(13)).getByRole('button', { name: 'Reject' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Reject' }));
    expect((await screen.findByTestId('toast-error')).textContent).toContain(
      'Only a pending request can be changed this way.',
    );
    expect(screen.getByRole('dialog', { name: 'Reject request 13' })).toBeTruthy();
  });
});

describe('edit and delete', () => {
  const editRoutes = (
    rows: ReturnType<typeof request>[],
    viewer: Viewer = admin,
    more: Parameters<typeof stubApi>[1] = {},
    approvers: typeof APPROVERS = APPROVERS,
  ) =>
    stubApi(viewer, {
      ...more,
      ...list(rows),
      customerRoles: () => ({ body: { Data: CUSTOMER_ROLES } }),
      impersonationApprovers: () => ({ body: { Data: approvers } }),
      impersonationReasons: () => ({ body: { Data: REASONS } }),
      impersonationEdit: ({ body, url }) => ({
        body: {
          Data: {
            ...rows.find((r) => r.Id === Number(url.searchParams.get('requestId')))!,
            Request: {
              ...rows[0]!.Request,
              ...(body as object),
            },
          },
          Message: `Request ${url.searchParams.get('requestId')} for analytical-engine has been updated.`,
        },
      }),
      impersonationDelete: ({ body: _b, url }) => ({
        body: {
          IsDeleted: true,
          Id: Number(url.searchParams.get('requestId')),
          Message: `Request ${url.searchParams.get('requestId')} for analytical-engine has been deleted.`,
        },
      }),
    });

  it('leaves out the roles the server says other live requests hold, and asks for an assignee', async () => {
    const { calls } = editRoutes(
      [request(21, { Request: { ProxyRoles: ['Analyst'], Priority: 'Low' } })],
      admin,
      {
        impersonationTakenRoles: () => ({ body: { Data: { AppId: 11, Roles: ['Developer', 'Support'] } } }),
      },
    );
    renderPage();
    fireEvent.click(within(await openRequest(21)).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('dialog', { name: 'Edit request 21' });
    const roles = await within(form).findByRole('group', { name: 'Roles' });
    expect(
      within(roles)
        .getAllByRole('checkbox')
        .map((c) => (c as HTMLInputElement).value),
    ).toEqual(['Administrator', 'Analyst']);
    expect(form.textContent).toContain('Developer, Support');
    const asked = calls.find((c) => c.id === 'impersonationTakenRoles')!;
    expect(Object.fromEntries(asked.url.searchParams)).toEqual({ appId: '11', exceptId: '21' });
    const assignees = await within(form).findByRole('group', { name: 'Assignees' });
    expect(
      within(assignees)
        .getAllByRole('checkbox')
        .map((c) => (c as HTMLInputElement).value),
    ).toEqual(['superadmin@example.com', 'boss@example.com']);
    fireEvent.click(within(assignees).getByRole('checkbox', { name: 'superadmin@example.com' }));
    expect(within(form).getByText(MESSAGES.editAssigneesRequired)).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(calls.some((c) => c.id === 'impersonationEdit')).toBe(false);
    fireEvent.click(within(assignees).getByRole('checkbox', { name: 'boss@example.com' }));
    fireEvent.click(within(roles).getByRole('checkbox', { name: 'Administrator' }));
    fireEvent.change(within(form).getByRole('combobox', { name: 'Priority' }), {
      target: { value: 'Critical' },
    });
    // the reason and case, as the request had them, changed; the case stays required
    const reason = within(form).getByRole('combobox', { name: 'Reason' }) as HTMLSelectElement;
    expect(reason.value).toBe('support-ticket');
    const caseField = within(form).getByRole('textbox', { name: 'Case or ticket' }) as HTMLInputElement;
    expect(caseField.value).toBe('SUP-42');
    fireEvent.change(reason, { target: { value: 'production-incident' } });
    fireEvent.change(caseField, { target: { value: '' } });
    expect(within(form).getByText('Please give the case or ticket reference.')).toBeTruthy();
    fireEvent.change(caseField, { target: { value: 'INC-7' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const call = calls.find((c) => c.id === 'impersonationEdit')!;
    expect(call.url.search).toBe('?requestId=21');
    expect(call.body).toEqual({
      Priority: 'Critical',
      Description: 'Customer cannot save settings.',
      ReasonCode: 'production-incident',
      CaseReference: 'INC-7',
      Assignees: ['boss@example.com'],
      ProxyRoles: ['Administrator', 'Analyst'],
      AdditionalPermissions: ['ManageSite'],
    });
    expect(within(row(21)).getAllByRole('cell')[2]!.textContent).toBe('Critical');
    expect((await screen.findByTestId('toast-success')).textContent).toContain('has been updated');
  });

  it('edits from the Version listed; an edit over a change made meanwhile shows theirs and loads them on request', async () => {
    let rows = [request(22, { Request: { Priority: 'Low' } })];
    const { calls } = stubApi(admin, {
      impersonationList: () => ({ body: { Data: rows } }),
      customerRoles: () => ({ body: { Data: CUSTOMER_ROLES } }),
      impersonationApprovers: () => ({ body: { Data: APPROVERS } }),
      impersonationReasons: () => ({ body: { Data: REASONS } }),
      impersonationEdit: () => {
        rows = [request(22, { Request: { Priority: 'High', Description: 'Their reason' }, Version: 2 })];
        return {
          status: 412,
          body: { ErrorCode: 930, Description: 'The record was changed by someone else.' },
        };
      },
    });
    renderPage();
    fireEvent.click(within(await openRequest(22)).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('dialog', { name: 'Edit request 22' });
    const description = await within(form).findByRole('textbox', { name: 'Description' });
    fireEvent.change(description, { target: { value: 'My reason' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const notice = await within(form).findByRole('alert');
    expect(notice.textContent).toContain('Priority: High');
    expect(notice.textContent).toContain('Description: Their reason');
    expect((within(form).getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement).value).toBe(
      'My reason',
    );
    fireEvent.click(within(notice).getByRole('button', { name: 'Load their values' }));
    expect((within(form).getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement).value).toBe(
      'Their reason',
    );
    expect(calls.filter((c) => c.id === 'impersonationEdit').map((c) => c.headers['If-Match'])).toEqual([
      '"1"',
    ]);
  });

  it('asks for a role, and lets a Support requester choose SuperAdmins (with a search when many)', async () => {
    const many = Array.from({ length: 8 }, (_, i) => ({
      Email: `sa${i}@example.com`,
      Name: `Admin Number ${i}`,
    }));
    const { calls } = editRoutes([request(31, { Initiator: 'support@example.com' })], support, {}, [
      ...APPROVERS,
      ...many,
    ]);
    renderPage();
    fireEvent.click(within(await openRequest(31)).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('dialog', { name: 'Edit request 31' });
    const roles = await within(form).findByRole('group', { name: 'Roles' });
    fireEvent.click(within(roles).getByRole('checkbox', { name: 'Administrator' }));
    fireEvent.click(within(roles).getByRole('checkbox', { name: 'Analyst' }));
    expect(within(form).getByText(MESSAGES.approveRolesRequired)).toBeTruthy();
    const assignees = await within(form).findByRole('group', { name: 'Assignees' });
    expect(
      (within(assignees).getByRole('checkbox', { name: 'superadmin@example.com' }) as HTMLInputElement)
        .checked,
    ).toBe(true);
    fireEvent.click(within(assignees).getByRole('checkbox', { name: 'superadmin@example.com' }));
    expect(within(form).getByText(MESSAGES.editAssigneesRequired)).toBeTruthy();
    fireEvent.change(within(form).getByRole('searchbox', { name: 'Find a SuperAdmin (name or email)' }), {
      target: { value: 'number 7' },
    });
    expect(within(assignees).getAllByRole('checkbox')).toHaveLength(1);
    fireEvent.click(within(assignees).getByRole('checkbox', { name: 'sa7@example.com' }));
    fireEvent.click(within(roles).getByRole('checkbox', { name: 'Analyst' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.id === 'teamList')).toBe(false);
    expect(
      (calls.find((c) => c.id === 'impersonationEdit')!.body as { Assignees: string[] }).Assignees,
    ).toEqual(['sa7@example.com']);
  });

  it('deletes after confirmation and removes the row without refetching', async () => {
    const { calls } = editRoutes([request(41), request(42)]);
    renderPage();
    fireEvent.click(within(await openRequest(41)).getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete request 41' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: '41' })).toBeNull());
    expect(screen.getByRole('cell', { name: '42' })).toBeTruthy();
    expect((await screen.findByTestId('toast-success')).textContent).toContain('has been deleted');
    expect(calls.filter((c) => c.id === 'impersonationList')).toHaveLength(1);
  });
});
