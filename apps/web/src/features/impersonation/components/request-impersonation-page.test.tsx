import { MESSAGES } from '@sac/contract/messages';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBase } from '../../../lib/api-base.ts';
import { clearToasts } from '../../../lib/toast-store.ts';
import {
  admin,
  CUSTOMER_ROLES,
  renderScreen,
  request,
  stubApi,
  support,
  TEAM,
} from './impersonation-test-kit.tsx';
import RequestImpersonationPage, { REQUESTS_PATH } from './request-impersonation-page.tsx';

const PATH = '/manage-customer/impersonate';
const renderPage = (search = '?uid=u-ada&appId=11') =>
  renderScreen(`${PATH}${search}`, [
    { path: PATH, element: <RequestImpersonationPage /> },
    { path: REQUESTS_PATH, element: <p>requests tab</p> },
  ]);
const site = {
  appId: 11,
  AppName: 'analytical-engine',
  ApiKey: 'k',
  uid: 'u-ada',
  Status: 'active',
  Plan: 'Free',
  Role: 'Owner',
  CreatedDate: '2024-01-01T00:00:00Z',
};

beforeEach(() => {
  localStorage.clear();
  setApiBase('http://api.test');
});
afterEach(() => {
  cleanup();
  clearToasts();
  vi.unstubAllGlobals();
});

describe('request impersonation', () => {
  it('creates a request for the site and opens the requests tab with the server message', async () => {
    const { calls } = stubApi(admin, {
      'GET /admin/appbyid': () => ({ body: { Data: site } }),
      'GET /admin/impersonation/requests': () => ({ body: { Data: [] } }),
      'GET /admin/customer/roles': () => ({ body: { Data: CUSTOMER_ROLES } }),
      'GET /admin/team': () => ({ body: { Data: TEAM } }),
      'POST /admin/impersonation/requests': () => ({
        body: {
          Data: request(5),
          Message: 'Impersonation request 5 for analytical-engine has been created.',
        },
      }),
    });
    const router = renderPage();
    expect(await screen.findByText(/Ask for time-boxed access to analytical-engine/)).toBeTruthy();
    const permissions = await screen.findByRole('group', { name: 'Additional permissions' });
    expect(
      within(permissions)
        .getAllByRole('checkbox')
        .map((c) => (c as HTMLInputElement).value),
    ).toEqual(['EditData', 'ViewData', 'ManageSite', 'ManageSettings']);
    expect((screen.getByRole('spinbutton', { name: 'Duration (minutes)' }) as HTMLInputElement).value).toBe(
      '60',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Request impersonation' }));
    expect(screen.getByText(MESSAGES.approveRolesRequired)).toBeTruthy();
    expect(screen.getByText(MESSAGES.editAssigneesRequired)).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /admin/impersonation/requests')).toBe(false);

    fireEvent.change(screen.getByRole('combobox', { name: 'Priority' }), { target: { value: 'High' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Description' }), {
      target: { value: 'Login broken' },
    });
    const assignees = screen.getByRole('group', { name: 'Assignees' });
    fireEvent.click(within(assignees).getByRole('checkbox', { name: 'boss@example.com' }));
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Roles' })).getByRole('checkbox', { name: 'Analyst' }),
    );
    fireEvent.click(within(permissions).getByRole('checkbox', { name: 'ViewData' }));
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Duration (minutes)' }), {
      target: { value: '45' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Request impersonation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(REQUESTS_PATH));
    expect((await screen.findByTestId('toast-success')).textContent).toContain(
      'Impersonation request 5 for analytical-engine has been created.',
    );
    expect(calls.find((c) => c.key === 'POST /admin/impersonation/requests')?.body).toEqual({
      data: {
        AppId: 11,
        Priority: 'High',
        Description: 'Login broken',
        Assignees: ['boss@example.com'],
        ProxyRoles: ['Analyst'],
        AdditionalPermissions: ['ViewData'],
        Duration: 45,
      },
    });
  });

  it("shows the customer roles failure, and an email input when the team can't be listed", async () => {
    stubApi(support, {
      'GET /admin/appbyid': () => ({ body: { Data: site } }),
      'GET /admin/impersonation/requests': () => ({ body: { Data: [] } }),
      'GET /admin/customer/roles': () => ({ status: 400, body: {} }),
    });
    renderPage();
    expect((await screen.findAllByText(MESSAGES.customerRolesFailed)).length).toBeGreaterThan(0);
    expect(screen.getByRole('textbox', { name: 'Assignee emails' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('tells a viewer who already holds approved access when it ends, and that sessions come later', async () => {
    stubApi(admin, {
      'GET /admin/appbyid': () => ({ body: { Data: site } }),
      'GET /admin/impersonation/requests': () => ({
        body: {
          Data: [
            request(8, {
              Action: {
                Status: 'Approved',
                ExpiresAt: '2999-01-02T03:04:00Z',
                ApprovedProxyRoles: ['Analyst'],
              },
            }),
          ],
        },
      }),
      'GET /admin/customer/roles': () => ({ body: { Data: CUSTOMER_ROLES } }),
      'GET /admin/team': () => ({ body: { Data: TEAM } }),
    });
    renderPage();
    const note = await screen.findByText(/You already have approved access/);
    expect(note.textContent).toContain('01-02-2999 03:04 UTC');
    expect(note.textContent).toContain('coming soon');
    // The approved request's roles are not offered again.
    const roles = await screen.findByRole('group', { name: 'Roles' });
    expect(within(roles).queryByRole('checkbox', { name: 'Analyst' })).toBeNull();
  });

  it('says so when the link is incomplete', async () => {
    stubApi(admin, {});
    renderPage('?uid=u-ada');
    expect((await screen.findByRole('alert')).textContent).toContain('not complete');
  });
});
