import { STORAGE_KEYS } from '@sac/contract/constants';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/toaster.tsx';
import { I18nProvider, loadLanguage } from '../../../lib/i18n.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { LoginPage } from './login-page.tsx';
import SecondStepPage from './second-step-page.tsx';

const TICKET = 'T'.repeat(43);
const inFiveMinutes = () => new Date(Date.now() + 300_000).toISOString();

function renderSignIn(language: 'en' | 'fr' = 'en') {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/login/second-step', element: <SecondStepPage /> },
      { path: '/dashboard', element: <p>dashboard</p> },
    ],
    { initialEntries: ['/login'] },
  );
  render(
    <I18nProvider initial={language}>
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
        <Toaster />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return router;
}

/** The API: a right password answers a second step; the second step answers `second`. */
function stubApi(methods: string[], second: (body: Record<string, unknown>) => Response) {
  const calls: Array<{ url: string; body: Record<string, unknown> }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      calls.push({ url, body });
      if (url.endsWith('/admin/login'))
        return Response.json({
          SecondStep: { Ticket: TICKET, ExpiresAt: inFiveMinutes(), Kind: 'verify', Methods: methods },
          Email: 'ada@example.com',
        });
      return second(body);
    }),
  );
  return calls;
}

async function passwordStep(router: ReturnType<typeof renderSignIn>, password = 'Password', email = 'Email') {
  fireEvent.change(screen.getByLabelText(email), { target: { value: 'ada@example.com' } });
  fireEvent.change(screen.getByLabelText(password, { exact: true }), { target: { value: 'Secret1!' } });
  fireEvent.click(screen.getByRole('button', { name: /Login|Se connecter/ }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/login/second-step'));
  await screen.findByRole('heading', { level: 1, name: /Two-step sign-in|Connexion en deux étapes/ });
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

describe('the second step of a sign-in', () => {
  it('is a screen of its own after a right password: no session is stored until the code is right', async () => {
    const calls = stubApi(['totp', 'recovery'], () =>
      Response.json({ xtoken: 'X', xsign: 'S', Email: 'ada@example.com', Name: 'Ada', Role: ['Admin'] }),
    );
    const router = renderSignIn();
    await passwordStep(router);
    expect(screen.getByRole('heading', { level: 1, name: 'Two-step sign-in' })).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    // no passkey on this account: no passkey button
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
    const field = screen.getByLabelText('Code from your authenticator app');
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    fireEvent.change(field, { target: { value: '12a3 45 6' } });
    expect((field as HTMLInputElement).value).toBe('123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(calls.at(-1)).toEqual({
      url: expect.stringMatching(/\/admin\/login\/second-step$/),
      body: { Ticket: TICKET, Method: 'totp', Code: '123456' },
    });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('X');
  });

  it('says what is wrong with a short code before calling, and shows the server’s refusal', async () => {
    const calls = stubApi(['totp', 'recovery'], () =>
      Response.json(
        {
          ErrorCode: 986,
          Description:
            'That code is not correct, or it was already used. Wait for the next code and try again.',
          Message: 'x',
          RequestId: 'r',
        },
        { status: 401 },
      ),
    );
    const router = renderSignIn();
    await passwordStep(router);
    fireEvent.change(screen.getByLabelText('Code from your authenticator app'), { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the 6 digits your authenticator app shows.')).toBeTruthy();
    expect(calls).toHaveLength(1);
    fireEvent.change(screen.getByLabelText('Code from your authenticator app'), {
      target: { value: '654321' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(/That code is not correct, or it was already used/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login/second-step');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('switches to a recovery code', async () => {
    const calls = stubApi(['passkey', 'totp', 'recovery'], () =>
      Response.json({ xtoken: 'X', xsign: 'S', Email: 'ada@example.com', Name: 'Ada', Role: ['Admin'] }),
    );
    const router = renderSignIn();
    await passwordStep(router);
    expect(screen.getByRole('button', { name: 'Use a passkey' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'abcd-efgh-2345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(calls.at(-1)?.body).toEqual({ Ticket: TICKET, Method: 'recovery', Code: 'abcd-efgh-2345' });
  });

  it('speaks the language chosen on the sign-in screen', async () => {
    stubApi(['totp'], () => Response.json({}));
    await loadLanguage('fr'); // as the console's start-up does for a stored choice
    const router = renderSignIn('fr');
    await passwordStep(router, 'Mot de passe', 'E-mail');
    expect(screen.getByRole('heading', { level: 1, name: 'Connexion en deux étapes' })).toBeTruthy();
    expect(screen.getByLabelText('Code de votre application d’authentification')).toBeTruthy();
  });

  it('opened without a ticket (a bookmark, another tab), sends the user back to sign in', () => {
    const router = createMemoryRouter([{ path: '/login/second-step', element: <SecondStepPage /> }], {
      initialEntries: ['/login/second-step'],
    });
    render(
      <I18nProvider initial="en">
        <QueryClientProvider client={createQueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </I18nProvider>,
    );
    expect(
      screen.getByText('This sign-in has expired or was already completed. Please sign in again.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
  });
});
