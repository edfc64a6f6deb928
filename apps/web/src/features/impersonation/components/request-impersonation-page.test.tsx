import { REASON_MESSAGES } from '@sac/contract/access-reasons';
import { consolePaths } from '@sac/contract/console-paths';
import { STORAGE_KEYS } from '@sac/contract/constants';
import { IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session-messages';
import { MESSAGES } from '@sac/contract/messages';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IMPERSONATION_STORAGE_KEY } from '../../../lib/impersonation-mode.ts';
import { renderScreen, stubApi } from '../../../testing/api-stub.tsx';
import {
  APPROVERS,
  admin,
  CUSTOMER_ROLES,
  REASONS,
  request,
  superAdmin,
  support,
} from './impersonation-fixtures.ts';
import RequestImpersonationPage from './request-impersonation-page.tsx';

const PATH = '/manage-customer/impersonate';
const renderPage = (search = '?uid=u-ada&appId=11') =>
  renderScreen(`${PATH}${search}`, [
    { path: PATH, element: <RequestImpersonationPage /> },
    { path: consolePaths.impersonationRequests(), element: <p>requests tab</p> },
  ]);
const site = {
  appId: 11,
  AppName: 'analytical-engine',
  ApiKey: 'k',
  uid: 'u-ada',
  Status: 'active' as const,
  Plan: 'Free' as const,
  Role: 'Owner',
  CreatedDate: '2024-01-01T00:00:00Z',
};

const noGrant = () => ({
  status: 403,
  body: { ErrorCode: 947, Description: IMPERSONATION_SESSION_MESSAGES.noGrant, Message: 'm', RequestId: 'r' },
});

/** The request form's reads, for a site where the viewer holds no grant. */
const formStubs = {
  updateAccess: noGrant,
  appById: () => ({ body: { Data: site } }),
  impersonationList: () => ({ body: { Data: [] } }),
  customerRoles: () => ({ body: { Data: CUSTOMER_ROLES } }),
  impersonationApprovers: () => ({ body: { Data: APPROVERS } }),
  impersonationReasons: () => ({ body: { Data: REASONS } }),
};

describe('request impersonation', () => {
  it('creates a request for the site and opens the requests tab with the server message', async () => {
    const { calls } = stubApi(admin, {
      updateAccess: noGrant,
      appById: () => ({ body: { Data: site } }),
      impersonationList: () => ({ body: { Data: [] } }),
      customerRoles: () => ({ body: { Data: CUSTOMER_ROLES } }),
      impersonationApprovers: () => ({ body: { Data: APPROVERS } }),
      impersonationReasons: () => ({ body: { Data: REASONS } }),
      impersonationCreate: () => ({
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
    // the operator's reasons, from the server; the case is required (the operator's setting)
    const reason = screen.getByRole('combobox', { name: 'Reason' }) as HTMLSelectElement;
    expect([...reason.options].map((o) => o.textContent)).toEqual([
      'Choose a reason',
      'Support ticket',
      'Production incident',
    ]);
    const caseField = screen.getByRole('textbox', { name: 'Case or ticket' }) as HTMLInputElement;
    expect(caseField.required).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Request impersonation' }));
    expect(screen.getByText(MESSAGES.approveRolesRequired)).toBeTruthy();
    expect(screen.getByText(MESSAGES.editAssigneesRequired)).toBeTruthy();
    expect(screen.getByText(REASON_MESSAGES.codeRequired)).toBeTruthy();
    expect(calls.some((c) => c.id === 'impersonationCreate')).toBe(false);
    fireEvent.change(reason, { target: { value: 'production-incident' } });
    expect(await screen.findByText(REASON_MESSAGES.caseRequired)).toBeTruthy();
    fireEvent.change(caseField, { target: { value: 'INC\u000742' } });
    expect(await screen.findByText(REASON_MESSAGES.caseCharacters)).toBeTruthy();
    fireEvent.change(caseField, { target: { value: ' INC-42 ' } });

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
    await waitFor(() => expect(router.state.location.pathname).toBe(consolePaths.impersonationRequests()));
    expect((await screen.findByTestId('toast-success')).textContent).toContain(
      'Impersonation request 5 for analytical-engine has been created.',
    );
    expect(calls.find((c) => c.id === 'impersonationCreate')?.body).toEqual({
      data: {
        AppId: 11,
        Priority: 'High',
        Description: 'Login broken',
        ReasonCode: 'production-incident',
        CaseReference: 'INC-42',
        Assignees: ['boss@example.com'],
        ProxyRoles: ['Analyst'],
        AdditionalPermissions: ['ViewData'],
        Duration: 45,
      },
    });
  });

  it('shows the customer roles failure, and the SuperAdmins to a Support requester', async () => {
    stubApi(support, {
      updateAccess: noGrant,
      appById: () => ({ body: { Data: site } }),
      impersonationList: () => ({ body: { Data: [] } }),
      customerRoles: () => ({ status: 400, body: {} }),
      impersonationApprovers: () => ({ body: { Data: APPROVERS } }),
      impersonationReasons: () => ({ body: { Data: REASONS } }),
    });
    renderPage();
    expect((await screen.findAllByText(MESSAGES.customerRolesFailed)).length).toBeGreaterThan(0);
    const assignees = await screen.findByRole('group', { name: 'Assignees' });
    expect(within(assignees).getByRole('checkbox', { name: 'boss@example.com' })).toBeTruthy();
    expect(within(assignees).getByText('Big Boss')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('with a live grant, shows it and starts the impersonation instead of the form', async () => {
    const grant = {
      RequestId: 8,
      AppId: 11,
      AppName: 'analytical-engine',
      Roles: ['Developer'],
      Permissions: ['EditData', 'ManageSettings', 'ViewData'],
      ExpiresAt: '2999-01-02T03:04:00.000Z',
    };
    const { calls } = stubApi(admin, {
      updateAccess: () => ({ body: { Data: grant } }),
      switchApp: () => ({ body: { xtoken: 'imp-t', xsign: 'imp-s', Data: grant } }),
    });
    const router = renderScreen(`${PATH}?uid=u-ada&appId=11`, [
      { path: PATH, element: <RequestImpersonationPage /> },
      { path: '/impersonation/site', element: <p>impersonated site</p> },
    ]);
    expect(await screen.findByRole('heading', { name: 'Impersonate analytical-engine' })).toBeTruthy();
    expect(calls.find((c) => c.id === 'updateAccess')?.url.search).toBe('?appId=11&userId=u-ada');
    const list = screen.getByText('Permissions').closest('div')!;
    expect(list.textContent).toContain('ManageSettings');
    expect(screen.getByText('Developer')).toBeTruthy();
    expect(screen.getByText('01-02-2999 03:04 UTC')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Request impersonation' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Start impersonation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/impersonation/site'));
    expect(router.state.location.search).toBe('?uid=u-ada&appId=11');
    const switched = calls.find((c) => c.id === 'switchApp')!;
    expect(switched.url.search).toBe('?appid=11');
    expect(switched.headers.xtoken).toBe('t');
    const stored = JSON.parse(sessionStorage.getItem(IMPERSONATION_STORAGE_KEY)!);
    expect(stored).toMatchObject({ xtoken: 'imp-t', xsign: 'imp-s', ownerUid: 'u-ada', grant });
    // The admin's own sign-in is untouched.
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('t');
  });

  it('without a live grant (403), shows the request form and no error', async () => {
    stubApi(admin, formStubs);
    renderPage();
    expect(await screen.findByRole('button', { name: 'Request impersonation' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start impersonation' })).toBeNull();
    expect(screen.queryByText(IMPERSONATION_SESSION_MESSAGES.noGrant)).toBeNull();
  });

  it("offers a SuperAdmin 'Break glass' while the operator leaves it on, and no one once it is off", async () => {
    const withBreakGlass = (viewer: typeof admin, Enabled: boolean) =>
      stubApi(viewer, {
        ...formStubs,
        breakGlassOptions: () => ({
          body: {
            Data: {
              Enabled,
              ReasonCodes: [{ Code: 'production-incident', Label: 'Production incident' }],
              MaxMinutes: 60,
              ReviewHours: 24,
              SuperAdmins: ['oncall@example.com'],
            },
          },
        }),
      });
    withBreakGlass(superAdmin, true);
    renderPage();
    expect(await screen.findByRole('button', { name: 'Break glass' })).toBeTruthy();
    cleanup();

    const off = withBreakGlass(superAdmin, false);
    renderPage();
    expect(await screen.findByRole('button', { name: 'Request impersonation' })).toBeTruthy();
    await waitFor(() => expect(off.callsTo('breakGlassOptions')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Break glass' })).toBeNull();
    cleanup();

    // an Admin is never offered it, nor asks whether it is on
    const byAdmin = withBreakGlass(admin, true);
    renderPage();
    expect(await screen.findByRole('button', { name: 'Request impersonation' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Break glass' })).toBeNull();
    expect(byAdmin.callsTo('breakGlassOptions')).toHaveLength(0);
  });

  it('says so when the link is incomplete', async () => {
    stubApi(admin, {});
    renderPage('?uid=u-ada');
    expect((await screen.findByRole('alert')).textContent).toContain('not complete');
  });
});
