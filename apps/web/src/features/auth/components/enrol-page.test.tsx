import { STORAGE_KEYS } from '@sac/contract/constants';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../../../lib/i18n.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import EnrolPage from './enrol-page.tsx';

const TICKET = 'E'.repeat(43);
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

function renderEnrol(state?: unknown) {
  const router = createMemoryRouter(
    [
      { path: '/login/enrol', element: <EnrolPage /> },
      { path: '/dashboard', element: <p>dashboard</p> },
    ],
    { initialEntries: [{ pathname: '/login/enrol', state }] },
  );
  const view = render(
    <I18nProvider initial="en">
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { router, view };
}

describe('setting up a first factor at sign-in (STAFF_MFA=required)', () => {
  it('shows the QR code and secret, confirms a code, shows the recovery codes once, then signs in', async () => {
    const calls: Array<{ url: string; body: unknown }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const body = JSON.parse(String(init.body));
        calls.push({ url, body });
        if (init.method === 'POST')
          return Response.json({ Secret: SECRET, OtpauthUrl: `otpauth://totp/SAC:new?secret=${SECRET}` });
        return Response.json({
          xtoken: 'X',
          xsign: 'S',
          Email: 'new@example.com',
          Name: 'New',
          Role: ['Admin'],
          RecoveryCodes: Array.from({ length: 10 }, (_, i) => `aaaa-bbbb-ccc${'234567ab'[i % 8]}`),
        });
      }),
    );
    const secondStep = {
      Ticket: TICKET,
      ExpiresAt: new Date(Date.now() + 300_000).toISOString(),
      Kind: 'enrol',
      Methods: [],
      Email: 'new@example.com',
    };
    const router = createMemoryRouter(
      [
        { path: '/login/enrol', element: <EnrolPage /> },
        { path: '/dashboard', element: <p>dashboard</p> },
      ],
      { initialEntries: [{ pathname: '/login/enrol', state: { secondStep } }] },
    );
    render(
      <I18nProvider initial="en">
        <QueryClientProvider client={createQueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </I18nProvider>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Set up two-step sign-in' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Use an authenticator app' }));
    expect(await screen.findByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Code the app shows now'), { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Enter the 6 digits your authenticator app shows.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Code the app shows now'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('heading', { name: 'Save your recovery codes' })).toBeTruthy();
    expect(calls.at(-1)?.body).toEqual({ Ticket: TICKET, Code: '123456' });
    // no session until the codes were seen
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'I have saved them, continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('X');
    expect(sessionStorage.getItem('lr-admin-second-step')).toBeNull();
  });

  it('survives a reload: the set-up goes on with its ticket for this tab, and the kept step goes with the sign-in', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({ Secret: SECRET, OtpauthUrl: `otpauth://totp/SAC:new?secret=${SECRET}` }),
      ),
    );
    const secondStep = {
      Ticket: TICKET,
      ExpiresAt: new Date(Date.now() + 300_000).toISOString(),
      Kind: 'enrol',
      Methods: [],
      Email: 'new@example.com',
    };
    const first = renderEnrol({ secondStep });
    expect(screen.getByRole('heading', { level: 1, name: 'Set up two-step sign-in' })).toBeTruthy();
    first.view.unmount();
    // A reload: the history entry's state is gone, the tab's storage is not.
    renderEnrol(undefined);
    expect(screen.getByRole('heading', { level: 1, name: 'Set up two-step sign-in' })).toBeTruthy();
    expect(screen.getByText('new@example.com')).toBeTruthy();
    // kept for this tab only, never in local storage (shared by every tab and kept after closing)
    expect(JSON.stringify({ ...localStorage })).not.toContain(TICKET);
    // an expired ticket is not offered again
    sessionStorage.setItem(
      'lr-admin-second-step',
      JSON.stringify({ secondStep: { ...secondStep, ExpiresAt: new Date(Date.now() - 1000).toISOString() } }),
    );
    cleanup();
    renderEnrol(undefined);
    expect(screen.getByRole('link', { name: 'Back to login' })).toBeTruthy();
  });
});
