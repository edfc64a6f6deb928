import { consolePaths } from '@sac/contract/console-paths';
import { STORAGE_KEYS } from '@sac/contract/constants';
import { IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session-messages';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useApiAuth } from '../../../lib/api-auth.tsx';
import {
  IMPERSONATION_STORAGE_KEY,
  type ImpersonationSession,
  startImpersonation,
} from '../../../lib/impersonation-mode.ts';
import { errorAnswer, renderScreen, stubApi, viewer } from '../../../testing/api-stub.tsx';
import { HEARTBEAT_MS } from '../api/impersonation-session-api.ts';
import ImpersonatedSiteFrame from './impersonated-site-frame.tsx';

const UID = 'ada00000-0000-4000-8000-000000001815';
const admin = viewer('Admin', ['sites.read', 'site-settings.read', 'impersonation.request']);
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
    ReasonCode: 'support-ticket',
    ReasonLabel: 'Support ticket',
    CaseReference: 'SUP-42',
    CaseUrl: null,
    ...extra,
  },
});
const ended = () => errorAnswer(401, 901, IMPERSONATION_SESSION_MESSAGES.ended);
const alive = () => ({ body: { Email: 'admin@example.com' } });

/** The screen the app mounts inside the frame: here, one that shows whom it calls as. */
function Inside() {
  const auth = useApiAuth();
  return (
    <p>
      inside as {auth.pair?.xtoken ?? 'staff'}; web apps{' '}
      {auth.allows('updateAppSettings') ? 'writable' : 'read-only'}; status{' '}
      {auth.allows('setSiteStatus') ? 'writable' : 'refused'}
    </p>
  );
}

const renderFrame = (search = `?uid=${UID}&appId=11`) =>
  renderScreen(`/impersonation/site${search}`, [
    {
      path: '/impersonation/site',
      element: <ImpersonatedSiteFrame />,
      children: [{ index: true, element: <Inside /> }],
    },
    { path: '/manage-customer/view-customer', element: <p>customer view</p> },
  ]);

describe('impersonation frame', () => {
  it('shows the banner, the screen inside calling with the session pair, and the granted access', async () => {
    startImpersonation(session());
    const { callsTo } = stubApi(admin, { session: alive });
    renderFrame();
    const banner = screen.getByRole('region', { name: 'Impersonation' });
    expect(banner.textContent).toMatch(/^Impersonating analytical-engine as Developer — (29:59|30:00) left/);
    // an ordinary grant's banner is not the break-glass one: no reason line
    expect(banner.textContent).not.toContain('Reason:');
    expect(within(banner).getByRole('timer')).toBeTruthy();
    expect(within(banner).getByRole('button', { name: 'End impersonation' })).toBeTruthy();
    // The grant decides, by the contract's endpoint table: ManageSettings yes, ManageSite no.
    expect(screen.getByText(/inside as imp-t; web apps writable; status refused/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Granted access' })).toBeTruthy();
    await waitFor(() => expect(callsTo('session').some((c) => c.headers.xtoken === 'imp-t')).toBe(true));
    expect(callsTo('session').find((c) => c.headers.xtoken === 'imp-t')?.headers.xsign).toBe('imp-s');
  });

  it('shows a break-glass session red, with the reason and the case it was opened for, the case linked', async () => {
    startImpersonation(
      session({
        BreakGlass: true,
        ReasonCode: 'security-incident',
        ReasonLabel: 'Security incident',
        CaseReference: 'SEC-4711',
        CaseUrl: 'https://tickets.example.com/browse/SEC-4711',
      }),
    );
    stubApi(admin, { session: alive });
    renderFrame();
    const banner = screen.getByRole('region', { name: 'Break-glass impersonation' });
    expect(banner.getAttribute('data-break-glass')).toBe('true');
    expect(banner.textContent).toContain('Break-glass access: every call is logged and will be reviewed');
    expect(banner.textContent).toContain('Reason: Security incident · Case: SEC-4711');
    const link = within(banner).getByRole('link', {
      name: 'Open case SEC-4711 (new tab)',
    }) as HTMLAnchorElement;
    expect(link.href).toBe('https://tickets.example.com/browse/SEC-4711');
    expect(link.target).toBe('_blank');
    expect(link.rel).toBe('noopener noreferrer');
  });

  it("keeps a break-glass session's reason and case through a reload (read back from session storage)", async () => {
    // what a reload reads: the stored session, parsed anew (written differently, so not the cached one)
    const stored = session({ BreakGlass: true, ReasonLabel: 'Legal request', CaseReference: 'LEGAL-7' });
    sessionStorage.setItem(IMPERSONATION_STORAGE_KEY, JSON.stringify(stored, null, 1));
    stubApi(admin, { session: alive });
    renderFrame();
    const banner = screen.getByRole('region', { name: 'Break-glass impersonation' });
    expect(banner.textContent).toContain('Reason: Legal request · Case: LEGAL-7');
    expect(within(banner).queryByRole('link')).toBeNull();
  });

  it('leaves impersonation mode when the session answers that it ended, keeping the admin signed in', async () => {
    startImpersonation(session());
    stubApi(admin, { session: ({ headers }) => (headers.xtoken === 'imp-t' ? ended() : alive()) });
    const router = renderFrame();
    expect(await screen.findByRole('heading', { name: 'Impersonation ended' })).toBeTruthy();
    expect(screen.getAllByText(IMPERSONATION_SESSION_MESSAGES.ended).length).toBe(2); // notice + toast
    expect(screen.queryByRole('region', { name: 'Impersonation' })).toBeNull();
    expect(sessionStorage.getItem(IMPERSONATION_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('t');
    fireEvent.click(screen.getByRole('link', { name: 'Back to the customer' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage-customer/view-customer'));
    expect(router.state.location.search).toBe(`?uid=${UID}`);
  });

  it('notices a revocation through the heartbeat while nothing else is called', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    startImpersonation(session());
    let revoked = false;
    stubApi(admin, { session: ({ headers }) => (revoked && headers.xtoken === 'imp-t' ? ended() : alive()) });
    renderFrame();
    expect(await screen.findByText(/inside as imp-t/)).toBeTruthy();
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
    stubApi(admin, { session: alive });
    renderFrame();
    expect(screen.getByRole('region', { name: 'Impersonation' }).textContent).toContain('00:02 left');
    await act(async () => {
      vi.advanceTimersByTime(3_000);
    });
    expect(await screen.findByRole('heading', { name: 'Impersonation ended' })).toBeTruthy();
    expect(sessionStorage.getItem(IMPERSONATION_STORAGE_KEY)).toBeNull();
  });

  it('ends the impersonation with its own pair and goes back to the customer', async () => {
    startImpersonation(session());
    const { callsTo } = stubApi(admin, { session: alive, logout: () => ({ body: {} }) });
    const router = renderFrame();
    fireEvent.click(screen.getByRole('button', { name: 'End impersonation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage-customer/view-customer'));
    await waitFor(() => expect(callsTo('logout').length).toBe(1));
    expect(callsTo('logout')[0]?.headers.xtoken).toBe('imp-t');
    expect(sessionStorage.getItem(IMPERSONATION_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('t');
    expect((await screen.findByTestId('toast-success')).textContent).toContain('Impersonation ended.');
  });

  it('says when the tab holds no impersonation of the site, and offers the way back', async () => {
    stubApi(admin, {});
    renderFrame();
    expect(screen.getByRole('heading', { name: 'No impersonation is active' })).toBeTruthy();
    expect(screen.queryByText(/inside as/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Impersonate this site' }).getAttribute('href')).toBe(
      consolePaths.impersonate({ uid: UID, appId: 11 }),
    );
  });
});
