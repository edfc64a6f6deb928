import { MESSAGES } from '@sac/contract/messages';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen, stubApi } from '../../../testing/api-stub.tsx';
import type { LogEntry } from '../api/impersonation-api.ts';
import { request, superAdmin, support } from './impersonation-fixtures.ts';
import LogsPage from './logs-page.tsx';

const PATH = '/manage-superuser/impersonation/logs';
const renderPage = () => renderScreen(PATH, [{ path: PATH, element: <LogsPage /> }]);

const entry = (id: number, requestId: number, extra: Partial<LogEntry> = {}): LogEntry => ({
  Id: id,
  RequestId: requestId,
  AppName: 'analytical-engine',
  Status: 'Pending',
  Event: 'request',
  Actor: 'admin@example.com',
  LastModified: '2025-01-02T03:04:05.000Z',
  Details: { roles: ['Analyst'], duration: 60 },
  ...extra,
});

describe('impersonation logs table', () => {
  it('shows the columns, 5 a page, and a popup with the step and the request', async () => {
    const logs = Array.from({ length: 6 }, (_, i) => entry(100 - i, 7));
    logs[0] = entry(100, 7, {
      Event: 'approve',
      Status: 'Approved',
      Actor: 'superadmin@example.com',
      Details: { roles: ['Analyst'], reasonCode: 'support-ticket', caseReference: 'SUP-42' },
    });
    stubApi(superAdmin, {
      impersonationLogs: () => ({ body: { Data: logs } }),
      impersonationList: () => ({ body: { Data: [request(7)] } }),
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Impersonation log entries' });
    await screen.findAllByText('analytical-engine');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Request Id', 'App Name', 'Status', 'Last Modified', 'Actions']);
    expect(
      within(screen.getAllByRole('row')[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      '7',
      'analytical-engine',
      'Approved',
      expect.stringContaining('(01-02-2025 03:04:05 (UTC))'),
      'View',
    ]);
    expect(screen.getAllByRole('row')).toHaveLength(6);
    fireEvent.click(screen.getByRole('button', { name: 'View log entry 100' }));
    const dialog = screen.getByRole('dialog', { name: 'Log entry 100' });
    expect(dialog.textContent).toContain('superadmin@example.com');
    // the step's reason and case, as they were at that step, under their own words
    expect(dialog.textContent).toContain('Reason codesupport-ticket');
    expect(dialog.textContent).toContain('Case or ticketSUP-42');
    expect(await within(dialog).findByText('Customer cannot save settings.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Approve' })).toBeTruthy();
  });

  it('pages through the server and reads the request of an entry by its Id', async () => {
    const { calls } = stubApi(superAdmin, {
      impersonationLogs: ({ url }) =>
        url.searchParams.get('cursor') === 'l1'
          ? { body: { Data: [entry(1, 7)], NextCursor: null } }
          : { body: { Data: Array.from({ length: 5 }, (_, i) => entry(50 - i, 8)), NextCursor: 'l1' } },
      impersonationList: ({ url }) => ({
        body: { Data: url.searchParams.get('requestId') === '7' ? [request(7)] : [], NextCursor: null },
      }),
    });
    renderPage();
    expect(await screen.findByText('Showing 1–5 of more than 5')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /next/i }));
    expect(await screen.findByText('Showing 6–6 of 6')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'View log entry 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Log entry 1' });
    expect(await within(dialog).findByText('Customer cannot save settings.')).toBeTruthy();
    expect(calls.filter((c) => c.id === 'impersonationLogs').map((c) => c.url.search)).toEqual([
      '',
      '?cursor=l1',
    ]);
    expect(calls.filter((c) => c.id === 'impersonationList').map((c) => c.url.search)).toEqual([
      '?requestId=7',
    ]);
  });

  it('filters by status through the server', async () => {
    const { calls } = stubApi(support, {
      impersonationLogs: () => ({ body: { Data: [] } }),
    });
    renderPage();
    fireEvent.change(await screen.findByRole('combobox', { name: 'Status' }), {
      target: { value: 'Expired' },
    });
    await screen.findByText(MESSAGES.tableEmpty);
    await vi.waitFor(() => expect(calls.some((c) => c.url.search === '?status=Expired')).toBe(true));
  });

  it('shows the empty state', async () => {
    stubApi(support, { impersonationLogs: () => ({ body: { Data: [] } }) });
    renderPage();
    expect(await screen.findByText(MESSAGES.tableEmpty)).toBeTruthy();
  });

  it("shows the server's error text, else the table fetch error", async () => {
    stubApi(support, {
      impersonationLogs: () => ({
        status: 403,
        body: { ErrorCode: 902, Description: 'You do not have permission to perform this action.' },
      }),
    });
    renderPage();
    expect(await screen.findByText('You do not have permission to perform this action.')).toBeTruthy();
    cleanup();
    stubApi(support, { impersonationLogs: () => ({ status: 400, body: {} }) });
    renderPage();
    expect(await screen.findByText(MESSAGES.tableFetchError)).toBeTruthy();
  });

  it('tells a user without the logs permission', async () => {
    const { calls } = stubApi(
      { ...support, Role: ['Billing'], Permissions: ['impersonation.request'] },
      { impersonationLogs: () => ({ body: { Data: [] } }) },
    );
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.noImpersonationAccess);
    expect(calls.some((c) => c.id === 'impersonationLogs')).toBe(false);
  });
});

describe('a log entry whose request is not listed', () => {
  it('says the request was deleted, or that the viewer may not see it', async () => {
    stubApi(support, {
      impersonationLogs: () => ({
        body: {
          Data: [
            entry(21, 9, { Event: 'delete', Status: 'Deleted' }),
            entry(20, 9),
            entry(19, 8, { Actor: 'boss@example.com' }),
          ],
        },
      }),
      impersonationList: () => ({ body: { Data: [] } }),
    });
    renderPage();
    await screen.findAllByText('analytical-engine');
    fireEvent.click(screen.getByRole('button', { name: 'View log entry 20' }));
    expect(await screen.findByText('This request was deleted.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(screen.getByRole('button', { name: 'View log entry 19' }));
    expect(
      await screen.findByText(
        'You cannot open this request: only its requester, its assignees and SuperAdmins can see it.',
      ),
    ).toBeTruthy();
  });
});
