import { IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session-messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ImpersonationAuthProvider } from '../../../lib/api-auth.tsx';
import type { ImpersonationSession } from '../../../lib/impersonation-mode.ts';
import { errorAnswer, renderScreen, type StubRoutes, stubApi, viewer } from '../../../testing/api-stub.tsx';
import SiteConfigurationPage from './site-configuration-page.tsx';

const UID = 'ada00000-0000-4000-8000-000000001815';
const admin = viewer('Admin', ['sites.read', 'sites.write', 'site-settings.read', 'site-settings.write']);
const session = (Permissions: string[]): ImpersonationSession => ({
  xtoken: 'imp-t',
  xsign: 'imp-s',
  ownerUid: UID,
  startedAt: '2025-01-01T00:00:00.000Z',
  grant: {
    RequestId: 8,
    AppId: 11,
    AppName: 'analytical-engine',
    Roles: ['Support'],
    Permissions,
    ExpiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    ReasonCode: null,
    ReasonLabel: null,
    CaseReference: null,
    CaseUrl: null,
  },
});

const appSettings = {
  AppName: 'analytical-engine',
  Plan: 'Developer' as const,
  PlanStatus: 'Trial' as const,
  TrialEndsAt: '2099-12-31T00:00:00.000Z',
  Billing: 'Monthly',
  ProductionUrl: 'https://ae.example.com',
  StagingUrl: '',
};
const siteInfo = {
  appId: 11,
  AppName: 'analytical-engine',
  ApiKey: 'key-11',
  uid: UID,
  Status: 'active' as const,
  Plan: 'Developer' as const,
  Role: 'Owner',
  CreatedDate: '2024-03-07T10:00:00.000Z',
  ModifiedDate: '2024-03-08T10:00:00.000Z',
  PlanStatus: 'Trial' as const,
  TrialEndsAt: '2099-12-31T00:00:00.000Z',
  Billing: 'Monthly',
  DataCenter: 'Dublin',
  DataCenterName: null,
  GlobalServer: null,
  Database: { Name: 'engine_db', Custom: true, ConnectionString: 'postgres://****@db/engine' },
  Features: ['sso', 'webhooks'],
  ProductionUrl: 'https://ae.example.com',
  StagingUrl: '',
  OwnerEmail: 'ada@example.com',
};
const routes: StubRoutes = {
  appSettings: () => ({ body: { Data: appSettings } }),
  appInfoById: () => ({ body: { Data: siteInfo } }),
};

/** The page as the app mounts it in impersonation mode (the frame gives it the session). */
const renderImpersonated = (s: ImpersonationSession, section: string) =>
  renderScreen(`/impersonation/site?uid=${UID}&appId=11&section=${section}`, [
    {
      path: '/impersonation/site',
      element: (
        <ImpersonationAuthProvider session={s}>
          <SiteConfigurationPage />
        </ImpersonationAuthProvider>
      ),
    },
  ]);

describe('site configuration through an impersonation', () => {
  it('opens on the overview read with the session pair, without the staff-only links', async () => {
    const { callsTo } = stubApi(admin, routes);
    renderImpersonated(session(['ViewData', 'EditData', 'ManageSettings']), '');
    expect(screen.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
    const overview = await screen.findByRole('region', { name: 'Overview' });
    expect(await within(overview).findByText('postgres://****@db/engine')).toBeTruthy();
    expect(within(overview).getByText('webhooks')).toBeTruthy();
    expect(within(overview).getByText('Trial active till 12-31-2099')).toBeTruthy();
    expect(callsTo('appInfoById')[0]?.headers).toMatchObject({ xtoken: 'imp-t', xsign: 'imp-s' });
    expect(callsTo('appInfoById')[0]?.url.search).toBe(`?uId=${UID}&appId=11`);
    // No ManageSite in the grant: no Activate/Deactivate, and the reason.
    expect(within(overview).queryByRole('button', { name: 'Deactivate site' })).toBeNull();
    expect(
      screen.getByText(
        'Activating or deactivating the site needs ManageSite, which your impersonation grant does not include.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Back to customer' })).toBeNull();
  });

  it('saves web-app URLs through /admin/appsettings: only the URLs are sent, with the session pair', async () => {
    const { callsTo } = stubApi(admin, {
      ...routes,
      updateAppSettings: ({ body }) => ({
        body: { Message: 'Settings saved.', Data: { ...appSettings, ...body.data } },
      }),
    });
    renderImpersonated(session(['ViewData', 'EditData', 'ManageSettings']), 'web-apps');
    const staging = await screen.findByLabelText('Staging URL (Optional)');
    fireEvent.change(staging, { target: { value: 'https://staging.ae.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo('updateAppSettings').length).toBe(1));
    const put = callsTo('updateAppSettings')[0]!;
    expect(put.body).toEqual({
      data: { ProductionUrl: 'https://ae.example.com', StagingUrl: 'https://staging.ae.example.com' },
    });
    expect(put.headers.xtoken).toBe('imp-t');
    expect(put.url.search).toBe(`?uid=${UID}&appId=11`);
    expect(callsTo('updateSiteBasicSettings')).toEqual([]);
  });

  it('shows a section read-only, with the reason, when the grant lacks ManageSettings', async () => {
    stubApi(admin, routes);
    renderImpersonated(session(['ViewData']), 'web-apps');
    expect(
      await screen.findByText(
        'Read-only: changing this section needs ManageSettings, which your impersonation grant does not include.',
      ),
    ).toBeTruthy();
    expect((await screen.findByLabelText('Staging URL (Optional)')).hasAttribute('readonly')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('refuses a section the grant cannot read, saying why, and calls nothing for it', async () => {
    const { callsTo } = stubApi(admin, routes);
    renderImpersonated(session(['EditData']), 'custom-objects');
    expect(
      await screen.findByText(
        'Your impersonation grant does not include ViewData, which reading this section needs.',
      ),
    ).toBeTruthy();
    expect(callsTo('customObjectList')).toEqual([]);
  });

  it('shows the server refusal when a call is out of the grant after all', async () => {
    stubApi(admin, {
      ...routes,
      customObjectList: () => errorAnswer(403, 947, IMPERSONATION_SESSION_MESSAGES.outOfScope),
    });
    renderImpersonated(session(['ViewData']), 'custom-objects');
    expect(await screen.findByText(IMPERSONATION_SESSION_MESSAGES.outOfScope)).toBeTruthy();
  });
});

describe('site configuration overview for staff', () => {
  it('activates and deactivates the site with the staff pair after a confirmation', async () => {
    let status: 'active' | 'inactive' = 'active';
    const { callsTo } = stubApi(admin, {
      ...routes,
      appInfoById: () => ({ body: { Data: { ...siteInfo, Status: status } } }),
      setSiteStatus: ({ body }) => {
        status = body.Status;
        return { body: { Data: { ...siteInfo, Status: status } } };
      },
    });
    renderScreen(`/manage-customer/site-configuration?uid=${UID}&appId=11`, [
      { path: '/manage-customer/site-configuration', element: <SiteConfigurationPage /> },
    ]);
    const overview = await screen.findByRole('region', { name: 'Overview' });
    fireEvent.click(await within(overview).findByRole('button', { name: 'Deactivate site' }));
    const confirm = screen.getByRole('dialog', { name: 'Deactivate analytical-engine?' });
    fireEvent.change(within(confirm).getByRole('textbox', { name: 'Type analytical-engine to confirm' }), {
      target: { value: 'analytical-engine' },
    });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo('setSiteStatus')[0]?.body).toEqual({ Status: 'inactive' });
    expect(callsTo('setSiteStatus')[0]?.headers.xtoken).toBe('t');
    expect(await within(overview).findByRole('button', { name: 'Activate site' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to customer' })).toBeTruthy();
  });
});
