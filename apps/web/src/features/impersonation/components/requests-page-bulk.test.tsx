import type { BulkJob } from '@sac/contract/bulk';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen, stubApi } from '../../../testing/api-stub.tsx';
import { admin, request, superAdmin } from './impersonation-fixtures.ts';
import RequestsPage from './requests-page.tsx';

const PATH = '/manage-superuser/impersonation/assigned-requests';
const renderPage = (path = PATH) => renderScreen(path, [{ path: PATH, element: <RequestsPage /> }]);
const list = (rows: ReturnType<typeof request>[]) => ({
  impersonationList: () => ({ body: { Data: rows } }),
});

describe('bulk actions on the requests', () => {
  const plan: BulkJob = {
    Id: 7,
    Action: 'request.reject',
    List: 'impersonation-requests',
    Uid: null,
    StaffUid: null,
    Selection: { Kind: 'all' },
    Count: 7,
    Bound: 10_000,
    ApprovalOver: 100,
    ApprovalNeeded: false,
    State: 'planned',
    Failure: null,
    Actor: 'boss@example.com',
    ActorUid: 'u',
    ApiToken: null,
    ApprovedBy: null,
    CreatedAt: '2026-01-15T10:00:00.000Z',
    StartedAt: null,
    FinishedAt: null,
    UndoOf: null,
    UndoneBy: null,
    UndoUntil: null,
    Planned: { Change: 6, Refuse: 1 },
    Progress: { Changed: 0, Refused: 0, Cancelled: 0, Pending: 7 },
    Items: [
      {
        Seq: 1,
        Target: 20,
        AppId: 20,
        Key: null,
        Label: '#20 app-0',
        Planned: 'refuse',
        PlannedReason: 'You cannot approve or reject your own request.',
        Outcome: null,
        OutcomeReason: null,
      },
    ],
    ItemsNext: null,
  };

  it('lets an approver pick rows, then all matching the filter, and plans the rejection of those', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => request(20 - i, { AppName: `app-${i}` }));
    const { calls } = stubApi(superAdmin, {
      ...list(rows),
      bulkRequestsDryRun: () => ({ body: { Data: plan } }),
    });
    renderPage(`${PATH}?status=Pending`);
    const box = await screen.findByRole('checkbox', { name: 'Select request 20' });
    fireEvent.click(box);
    const bar = screen.getByRole('region', { name: 'Bulk actions on the selected requests' });
    expect(within(bar).getByText('1 selected')).toBeTruthy();
    fireEvent.click(within(bar).getByRole('button', { name: 'Select all 7 matching this filter' }));
    expect(within(bar).getByText('All 7 requests matching this filter selected')).toBeTruthy();
    fireEvent.click(within(bar).getByRole('button', { name: 'Reject requests' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject pending requests' });
    // the comment first, told to each requester: the job keeps it for its items
    const comment = within(dialog).getByRole('textbox', { name: 'Comment (optional)' });
    await waitFor(() => expect(document.activeElement).toBe(comment));
    expect(calls.some((c) => c.id === 'bulkRequestsDryRun')).toBe(false);
    fireEvent.change(comment, { target: { value: '  Duplicate of the request made on Monday. ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check what would change' }));
    expect(await within(dialog).findByText('6 pending requests will be rejected.')).toBeTruthy();
    expect(
      within(dialog).getByText('Each requester is told: “Duplicate of the request made on Monday.”'),
    ).toBeTruthy();
    expect(within(dialog).getByRole('listitem').textContent).toBe(
      '#20 app-0: You cannot approve or reject your own request.',
    );
    expect(within(dialog).getByText('This cannot be undone.')).toBeTruthy();
    expect(calls.find((c) => c.id === 'bulkRequestsDryRun')!.body).toEqual({
      Action: 'request.reject',
      Selection: { Kind: 'all', Status: 'Pending' },
      Comments: 'Duplicate of the request made on Monday.',
    });
  });

  it('bounds the comment as a single rejection’s: a longer one is not planned', async () => {
    const { calls } = stubApi(superAdmin, {
      ...list([request(20)]),
      bulkRequestsDryRun: () => ({ body: { Data: plan } }),
    });
    renderPage(`${PATH}?status=Pending`);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select request 20' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions on the selected requests' });
    fireEvent.click(within(bar).getByRole('button', { name: 'Reject requests' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject pending requests' });
    const comment = within(dialog).getByRole('textbox', { name: 'Comment (optional)' });
    fireEvent.change(comment, { target: { value: 'x'.repeat(2001) } });
    expect(within(dialog).getByText('A comment takes at most 2000 characters.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check what would change' }));
    expect(document.activeElement).toBe(comment);
    expect(calls.some((c) => c.id === 'bulkRequestsDryRun')).toBe(false);
    // without a comment the plan says so
    fireEvent.change(comment, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check what would change' }));
    expect(
      await within(dialog).findByText('No comment: each requester is told the decision alone.'),
    ).toBeTruthy();
    expect(calls.find((c) => c.id === 'bulkRequestsDryRun')!.body).toMatchObject({ Comments: '' });
  });

  it('exports the rows picked through the list’s own export (ids), and all matching without them', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => request(20 - i, { AppName: `app-${i}` }));
    const { calls } = stubApi(superAdmin, {
      ...list(rows),
      impersonationRequestsExport: () => ({
        body: 'Request Id,App Name\r\n20,app-0\r\n',
        headers: {
          'x-export-rows': '1',
          'Content-Disposition': 'attachment; filename="impersonation-requests-x.csv"',
        },
      }),
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderPage(`${PATH}?status=Pending`);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select request 20' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select request 18' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions on the selected requests' });
    fireEvent.click(within(bar).getByRole('button', { name: 'Export CSV of the selected requests' }));
    await screen.findByText('Exported 1 row to impersonation-requests-x.csv.');
    fireEvent.click(within(bar).getByRole('button', { name: 'Select all 3 matching this filter' }));
    fireEvent.click(within(bar).getByRole('button', { name: 'Export CSV of the selected requests' }));
    await waitFor(() => expect(calls.filter((c) => c.id === 'impersonationRequestsExport')).toHaveLength(2));
    expect(calls.filter((c) => c.id === 'impersonationRequestsExport').map((c) => c.url.search)).toEqual([
      '?status=Pending&ids=20%2C18',
      '?status=Pending',
    ]);
  });

  it('offers no selection to a requester who is no approver', async () => {
    stubApi(admin, list([request(3)]));
    renderPage();
    await screen.findByRole('cell', { name: '3' });
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});
