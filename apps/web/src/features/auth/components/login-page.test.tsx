import { STORAGE_KEYS } from '@sac/contract/constants';
import { MESSAGES } from '@sac/contract/messages';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/toaster.tsx';
import { I18nProvider } from '../../../lib/i18n.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { LoginPage, modeOf } from './login-page.tsx';

function renderLogin(path = '/login') {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/forgotpassword', element: <LoginPage /> },
      { path: '/dashboard', element: <p>dashboard</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <I18nProvider initial="en">
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
        <Toaster />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return router;
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('modeOf', () => {
  it('picks reset only with both vtype and vtoken', () => {
    expect(modeOf('/login', new URLSearchParams('vtype=reset&vtoken=abc'))).toBe('resetpassword');
    expect(modeOf('/login', new URLSearchParams('vtype=reset'))).toBe('login');
    expect(modeOf('/forgotpassword', new URLSearchParams())).toBe('forgotpassword');
    expect(modeOf('/login', new URLSearchParams())).toBe('login');
  });
});

describe('login form', () => {
  it('keeps what was typed when the single sign-on button arrives after it', async () => {
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        String(url).endsWith('/admin/login/sso')
          ? new Promise<Response>((resolve) => {
              answer = resolve;
            })
          : Promise.resolve(Response.json({})),
      ),
    );
    try {
      renderLogin();
      type('Email', 'early@example.com');
      type('Password', 'Typed#Pass1');
      await act(async () =>
        answer(Response.json({ Enabled: true, Name: 'Company SSO', PasswordSignIn: true })),
      );
      expect(await screen.findByRole('button', { name: 'Sign in with Company SSO' })).toBeTruthy();
      expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('early@example.com');
      expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('Typed#Pass1');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("shows '{field} is required' messages on empty submit", async () => {
    renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: MESSAGES.signInHeading })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
  });

  it('checks the email and trims values', async () => {
    renderLogin();
    type('Email', '  not-an-email ');
    type('Password', '   ');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(MESSAGES.emailInvalidLogin)).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
  });

  it('signs in: stores token, sign and login state, then goes to /dashboard', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 'old');
    localStorage.setItem(STORAGE_KEYS.sign, 'old');
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>;
      expect(headers.xtoken).toBeUndefined();
      expect(headers['X-Requested-With']).toBe('XMLHttpRequest');
      expect(JSON.parse(String(init.body))).toEqual({ email: 'admin@example.com', password: 'Secret1!' });
      return Response.json({
        xtoken: 'T',
        xsign: 'S',
        Email: 'admin@example.com',
        Name: 'Ada',
        Role: ['SuperAdmin'],
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    const router = renderLogin();
    type('Email', ' admin@example.com ');
    type('Password', 'Secret1!');
    fireEvent.submit(screen.getByLabelText('Password').closest('form')!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(fetchMock).toHaveBeenCalledWith('http://api.test/admin/login', expect.anything());
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('T');
    expect(localStorage.getItem(STORAGE_KEYS.sign)).toBe('S');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.loginState)!)).toEqual({
      Email: 'admin@example.com',
      Name: 'Ada',
      Role: ['SuperAdmin'],
    });
  });

  it("toasts the server's error text on failure", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json(
          { ErrorCode: 903, Description: 'Please use valid credentials.', Message: 'x', RequestId: 'r' },
          { status: 401 },
        ),
      ),
    );
    renderLogin();
    type('Email', 'admin@example.com');
    type('Password', 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(MESSAGES.invalidCredentials);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });
});

describe('forgot and reset modes', () => {
  it('forgot mode has email only and sends the login page url', async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) =>
      Response.json({ IsPosted: true, Message: 'Mail sent.' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const router = renderLogin('/forgotpassword');
    expect(screen.queryByLabelText('Password')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    type('Email', 'admin@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const init = fetchMock.mock.calls[0]![1];
    expect(JSON.parse(String(init.body))).toEqual({
      email: 'admin@example.com',
      url: `${window.location.origin}/login`,
    });
    expect((await screen.findByRole('status')).textContent).toContain('Mail sent.');
    expect(await screen.findByRole('link', { name: 'Forgot password' })).toBeTruthy();
  });

  it('reset mode checks the password rule and the match', async () => {
    renderLogin('/login?vtype=reset&vtoken=tok');
    expect(screen.getByLabelText('Confirm Password')).toBeTruthy();
    expect(screen.queryByLabelText('Email')).toBeNull();
    type('Password', 'weak');
    type('Confirm Password', 'other');
    fireEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText((_, el) => el?.textContent === MESSAGES.passwordRule)).toBeTruthy();
    type('Password', 'Strong1!');
    await act(async () => {});
    expect(screen.getByText(MESSAGES.passwordsDoNotMatch)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to login' })).toBeTruthy();
  });

  it("invite mode reads 'Set your password' and sends the token to the reset call", async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) =>
      Response.json({ IsPosted: true, Message: 'Your password has been set.' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const router = renderLogin('/login?vtype=invite&vtoken=tok');
    expect(screen.getByRole('heading', { level: 1, name: 'Set your password' })).toBeTruthy();
    type('Password', 'Strong1!');
    type('Confirm Password', 'Strong1!');
    fireEvent.click(screen.getByRole('button', { name: 'Set Password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(fetchMock).toHaveBeenCalledWith('http://api.test/admin/resetpassword', expect.anything());
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1].body))).toEqual({
      password: 'Strong1!',
      resettoken: 'tok',
    });
    expect(await screen.findByText('Your password has been set.')).toBeTruthy();
  });

  it('reset without a token says the url is wrong', async () => {
    renderLogin('/login?vtype=reset&vtoken=');
    expect(screen.getByRole('alert').textContent).toBe(MESSAGES.resetUrlMissingToken);
  });
});

describe('language switch', () => {
  it('translates the sign-in texts and remembers the choice', async () => {
    renderLogin();
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'fr' } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Connexion à Superadmin' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeTruthy();
    expect(localStorage.getItem('lr-admin-language')).toBe('fr');
    expect(screen.getByRole('main').getAttribute('lang')).toBe('fr');
  });
});
