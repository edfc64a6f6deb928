import { STORAGE_KEYS } from '@sac/contract/constants';
import { IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBase } from '../../../lib/api-base.ts';
import {
  clearImpersonation,
  IMPERSONATION_STORAGE_KEY,
  type ImpersonationSession,
  startImpersonation,
} from '../../../lib/impersonation-mode.ts';
import { clearToasts } from '../../../lib/toast-store.ts';
import { HEARTBEAT_MS } from '../api/impersonated-site-api.ts';
import ImpersonatedSitePage from './impersonated-site-page.tsx';
import { IMPERSONATED_SITE_PATH } from './impersonation-paths.ts';
import { admin, renderScreen, stubApi } from './impersonation-test-kit.tsx';

const UID = 'ada00000-0000-4000-8000-000000001815';
const VIEW = '/manage-customer/view-customer';
const session = (extra: Partial<ImpersonationSession['grant']> = {}): ImpersonationSession => ({
  xtoken: 'imp-t',
  xsign: 'imp-s',
  ownerUid: UID,
  startedAt: '2025-01-01T00:00:00.000Z',
  grant: {
    RequestId: 8,
    AppId: 11,
    AppName: 'analytical-engine',
    Roles: ['Developer'],
    Permissions: ['EditData', 'ManageSettings', 'ViewData'],
    ExpiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    ...extra,
  },
});

const basic = {
  appId: 11,
  AppName: 'analytical-engine',
  ProductionUrl: 'https://engine.example.com',
  StagingUrl: '',
  Plan: 'Developer',
  PlanStatus: 'Subscribed',
  TrialEndsAt: null,
  Billing: 'Monthly',
  Status: 'active',
};
const dataCenter = {
  DataCenters: [{ Code: 'eu-west', Name: 'Dublin', Region: 'Europe' }],
  GlobalServers: [],
  Current: { DataCenter: 'eu-west', GlobalServer: null, DbName: 'engine_db', CustomDb: true },
};
const siteInfo = {
  Database: { Name: 'engine_db', Custom: true, ConnectionString: 'postgres://****@db/engine' },
};
const envelope = (ErrorCode: number, Description: string) => ({
  ErrorCode,
  Description,
  Message: 'm',
  RequestId: 'r',
});
const ended = () => ({ status: 401, body: envelope(901, IMPERSONATION_SESSION_MESSAGES.ended) });

const siteRoutes = {
  'GET /admin/session': () => ({ body: { Email: 'admin@example.com' } }),
  'GET /admin/site/basicsettings': () => ({ body: { Data: basic } }),
  'GET /admin/site/feature': () => ({ body: { Data: { appId: 11, Features: ['sso', 'webhooks'] } } }),
  'GET /admin/site/datacenter': () => ({ body: { Data: dataCenter } }),
  'GET /admin/appinfobyid': () => ({ body: { Data: siteInfo } }),
};

const renderPage = (search = `?uid=${UID}&appId=11`) =>
  renderScreen(`${IMPERSONATED_SITE_PATH}${search}`, [
    { path: IMPERSONATED_SITE_PATH, element: <ImpersonatedSitePage /> },
    { path: VIEW, element: <p>customer view</p> },
  ]);

beforeEach(() => {
  localStorage.clear();
  clearImpersonation();
  setApiBase('http://api.test');
});
afterEach(() => {
  cleanup();
  clearToasts();
  clearImpersonation();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('impersonated site', () => {
  it('shows the banner and the site read through the impersonation pair', async () => {
    startImpersonation(session());
    const { calls } = stubApi(admin, siteRoutes);
    renderPage();
    const banner = screen.getByRole('region', { name: 'Impersonation' });
    expect(banner.textContent).toMatch(/^Impersonating analytical-engine as Developer — (29:59|30:00) left/);
    expect(within(banner).getByRole('timer')).toBeTruthy();
    expect(within(banner).getByRole('button', { name: 'End impersonation' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'analytical-engine' })).toBeTruthy();

    const settings = screen.getByRole('region', { name: 'Basic settings' });
    expect(await within(settings).findByText('https://engine.example.com')).toBeTruthy();
    expect(within(settings).getByText('Subscribed')).toBeTruthy();
    expect(within(settings).getByText('Active')).toBeTruthy();
    const features = screen.getByRole('region', { name: 'Features' });
    expect(await within(features).findByText('webhooks')).toBeTruthy();
    const dc = screen.getByRole('region', { name: 'Data center and database' });
    expect(await within(dc).findByText('Dublin')).toBeTruthy();
    expect(await within(dc).findByText('postgres://****@db/engine')).toBeTruthy();

    // Every site call carried the impersonation pair, never the admin's.
    const siteCalls = calls.filter((c) => c.key !== 'GET /admin/session' || c.headers.xtoken !== 't');
    expect(siteCalls.length).toBe(5); // four reads and the heartbeat
    for (const c of siteCalls) expect(c.headers).toMatchObject({ xtoken: 'imp-t', xsign: 'imp-s' });
    expect(calls.find((c) => c.key === 'GET /admin/site/basicsettings')?.url.search).toBe(
      `?uID=${UID}&appId=11`,
    );
    // ManageSettings granted: Edit web apps is offered; Deactivate site always.
    expect(within(settings).getByRole('button', { name: 'Edit web apps' })).toBeTruthy();
    expect(within(settings).getByRole('button', { name: 'Deactivate site' })).toBeTruthy();
  });

  it('edits the web apps keeping the plan, and toasts a refused deactivation', async () => {
    startImpersonation(session());
    const { calls } = stubApi(admin, {
      ...siteRoutes,
      'PUT /admin/site/basicsettings': (body) => ({
        body: { Data: { ...basic, StagingUrl: (body as { data: { StagingUrl: string } }).data.StagingUrl } },
      }),
      'PUT /admin/site/status': () => ({
        status: 403,
        body: envelope(947, IMPERSONATION_SESSION_MESSAGES.outOfScope),
      }),
    });
    renderPage();
    const settings = screen.getByRole('region', { name: 'Basic settings' });
    fireEvent.click(await within(settings).findByRole('button', { name: 'Edit web apps' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit web apps of analytical-engine' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Staging URL' }), {
      target: { value: 'https://staging.engine.example.com' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(settings).findByText('https://staging.engine.example.com')).toBeTruthy();
    const put = calls.find((c) => c.key === 'PUT /admin/site/basicsettings')!;
    expect(put.body).toEqual({
      data: {
        ProductionUrl: 'https://engine.example.com',
        StagingUrl: 'https://staging.engine.example.com',
        Plan: 'Developer',
        TrialDays: 0,
      },
    });
    expect(put.headers.xtoken).toBe('imp-t');

    fireEvent.click(within(settings).getByRole('button', { name: 'Deactivate site' }));
    const confirm = screen.getByRole('dialog', { name: 'Deactivate analytical-engine?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() =>
      expect(
        screen
          .getAllByTestId('toast-error')
          .some((t) => t.textContent?.includes(IMPERSONATION_SESSION_MESSAGES.outOfScope)),
      ).toBe(true),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    // Still impersonating, still signed in.
    expect(screen.getByRole('region', { name: 'Impersonation' })).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('t');
  });

  it('offers no Edit web apps without ManageSettings', async () => {
    startImpersonation(session({ Roles: ['Analyst'], Permissions: ['ViewData'] }));
    stubApi(admin, siteRoutes);
    renderPage();
    const settings = screen.getByRole('region', { name: 'Basic settings' });
    expect(await within(settings).findByRole('button', { name: 'Deactivate site' })).toBeTruthy();
    expect(within(settings).queryByRole('button', { name: 'Edit web apps' })).toBeNull();
  });

  it('leaves impersonation mode when a call answers that it ended, keeping the admin signed in', async () => {
    startImpersonation(session());
    stubApi(admin, { ...siteRoutes, 'GET /admin/site/basicsettings': ended });
    const router = renderPage();
    expect(await screen.findByRole('heading', { name: 'Impersonation ended' })).toBeTruthy();
    expect(screen.getAllByText(IMPERSONATION_SESSION_MESSAGES.ended).length).toBe(2); // notice + toast
    expect(screen.queryByRole('region', { name: 'Impersonation' })).toBeNull();
    expect(sessionStorage.getItem(IMPERSONATION_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('t');
    fireEvent.click(screen.getByRole('link', { name: 'Back to the customer' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(VIEW));
    expect(router.state.location.search).toBe(`?uid=${UID}`);
  });

  it('notices a revocation through the heartbeat while nothing else is called', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    startImpersonation(session());
    let revoked = false;
    stubApi(admin, {
      ...siteRoutes,
      'GET /admin/session': () => (revoked ? ended() : { body: { Email: 'admin@example.com' } }),
    });
    renderPage();
    expect(await screen.findByText('https://engine.example.com')).toBeTruthy();
    revoked = true;
    await act(async () => {
      vi.advanceTimersByTime(HEARTBEAT_MS + 1_000);
    });
    expect(await screen.findByRole('heading', { name: 'Impersonation ended' })).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('t');
  });

  it('leaves impersonation mode when the countdown reaches zero', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    startImpersonation(session({ ExpiresAt: new Date(Date.now() + 2_000).toISOString() }));
    stubApi(admin, siteRoutes);
    renderPage();
    expect(screen.getByRole('region', { name: 'Impersonation' }).textContent).toContain('00:02 left');
    await act(async () => {
      vi.advanceTimersByTime(3_000);
    });
    expect(await screen.findByRole('heading', { name: 'Impersonation ended' })).toBeTruthy();
    expect(sessionStorage.getItem(IMPERSONATION_STORAGE_KEY)).toBeNull();
  });

  it('ends the impersonation with its own pair and goes back to the customer', async () => {
    startImpersonation(session());
    const { calls } = stubApi(admin, { ...siteRoutes, 'POST /admin/logout': () => ({ body: { ok: true } }) });
    const router = renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'End impersonation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(VIEW));
    await waitFor(() => expect(calls.some((c) => c.key === 'POST /admin/logout')).toBe(true));
    expect(calls.find((c) => c.key === 'POST /admin/logout')?.headers.xtoken).toBe('imp-t');
    expect(sessionStorage.getItem(IMPERSONATION_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('t');
    expect((await screen.findByTestId('toast-success')).textContent).toContain('Impersonation ended.');
  });

  it('says when the tab holds no impersonation of the site', async () => {
    stubApi(admin, {});
    renderPage();
    expect(screen.getByRole('heading', { name: 'No impersonation is active' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Impersonate this site' }).getAttribute('href')).toBe(
      `/manage-customer/impersonate?uid=${UID}&appId=11`,
    );
  });
});
