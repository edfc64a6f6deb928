import { STORAGE_KEYS } from '@sac/contract/constants';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBase } from '../lib/api-base.ts';
import { I18nProvider } from '../lib/i18n.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { buildRoutes } from './router.tsx';

const session = {
  Email: 'ada@example.com',
  Name: 'Ada',
  Role: ['Support'],
  Permissions: ['customers.read', 'impersonation.request'],
  Uid: 'u1',
};

function renderAt(path: string) {
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
  render(
    <I18nProvider initial="en">
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return router;
}

const signIn = () => {
  localStorage.setItem(STORAGE_KEYS.token, 't');
  localStorage.setItem(STORAGE_KEYS.sign, 's');
  localStorage.setItem(
    STORAGE_KEYS.loginState,
    JSON.stringify({ Email: session.Email, Name: 'Ada', Role: ['Support'] }),
  );
};

beforeEach(() => {
  setApiBase('');
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(session)),
  );
});

describe('route guard', () => {
  it.each(['/dashboard', '/manage-superuser', '/account/change-password', '/anything'])(
    'sends %s to /login without a token',
    async (path) => {
      const router = renderAt(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    },
  );

  it('opens the consent page without a token, and with one', async () => {
    const router = renderAt('/impersonation/consent');
    expect(await screen.findByRole('heading', { level: 1, name: 'This link does not work' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/impersonation/consent');
    cleanup();
    signIn();
    const signedIn = renderAt('/impersonation/consent');
    expect(await screen.findByRole('heading', { level: 1, name: 'This link does not work' })).toBeTruthy();
    expect(signedIn.state.location.pathname).toBe('/impersonation/consent');
  });

  it('opens the site access page without a token, and with one', async () => {
    const router = renderAt('/impersonation/site-access');
    expect(await screen.findByRole('heading', { level: 1, name: 'This link does not work' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('The link is not complete.');
    expect(router.state.location.pathname).toBe('/impersonation/site-access');
    await waitFor(() => expect(document.title).toContain('Site access'));
    cleanup();
    signIn();
    const signedIn = renderAt('/impersonation/site-access');
    expect(await screen.findByRole('heading', { level: 1, name: 'This link does not work' })).toBeTruthy();
    expect(signedIn.state.location.pathname).toBe('/impersonation/site-access');
  });

  it('sends /login and /forgotpassword to /dashboard with a token', async () => {
    signIn();
    const router = renderAt('/forgotpassword');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
  });

  it('sends unknown paths to /dashboard', async () => {
    signIn();
    const router = renderAt('/no/such/screen');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('opens the default tab of a section', async () => {
    signIn();
    const router = renderAt('/manage-customer');
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage-customer/search-customer'));
    expect(await screen.findByRole('heading', { name: 'Search Customer' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Manage Customer navigation' })).toBeTruthy();
  });

  it("shows the spec's text when impersonation access is missing", async () => {
    signIn();
    renderAt('/manage-superuser/impersonation/logs');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('You do not have the Access for Impersonation');
  });

  it('lets any signed-in user open the permission list, but not the create form', async () => {
    signIn();
    renderAt('/manage-superuser/permissions');
    expect(await screen.findByRole('heading', { level: 1, name: 'Permission list' })).toBeTruthy();
    cleanup();
    renderAt('/manage-superuser/create-superuser');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('You do not have permission to open this screen.'),
    );
  });

  it('lets Support open their own profile from the user menu, with no link to a list they may not see', async () => {
    signIn();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input).includes('/admin/team/profile')
          ? Response.json({
              Data: {
                Uid: 'u1',
                FullName: 'Ada',
                Email: [{ Type: 'Primary', Value: 'ada@example.com' }],
                Roles: ['Support'],
                CreatedDate: '2026-01-02T03:04:05.000Z',
                LastLoginDate: null,
                Version: 0,
                Permissions: ['customers.read'],
                PasswordChangedDate: null,
                Invited: false,
              },
            })
          : Response.json(session),
      ),
    );
    const router = renderAt('/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: /ada@example.com/ }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Account' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'My profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage-superuser/profile/u1'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Super User Profile' })).toBeTruthy();
    expect(screen.queryByText('You do not have permission to open this screen.')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Back to Manage Superuser' })).toBeNull();
  });

  it('hides sidebar tabs the user may not open', async () => {
    signIn();
    renderAt('/manage-superuser/impersonation/assigned-requests');
    const nav = await screen.findByRole('navigation', { name: 'Manage Superuser navigation' });
    await waitFor(() => expect(nav.textContent).not.toContain('Create Superuser'));
    expect(nav.textContent).toContain('Assigned Impersonation Requests');
  });
});

describe('impersonation mode route', () => {
  it('opens /impersonation/site in the shell, named in the title and breadcrumb', async () => {
    signIn();
    renderAt('/impersonation/site?uid=u-ada&appId=11');
    expect(await screen.findByRole('heading', { name: 'No impersonation is active' })).toBeTruthy();
    await waitFor(() =>
      expect(document.title).toBe('Impersonated Site | Impersonation | Super Admin Console'),
    );
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbs.textContent).toBe('ImpersonationImpersonated Site');
  });
});
