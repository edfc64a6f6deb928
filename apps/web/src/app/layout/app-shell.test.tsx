import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBase } from '../../lib/api-base.ts';
import { I18nProvider } from '../../lib/i18n.tsx';
import { createQueryClient } from '../../lib/query-client.ts';
import AppShell from './app-shell.tsx';

const session = { Email: 'ada@example.com', Name: 'Ada', Role: ['Support'], Permissions: [], Uid: 'u1' };

function renderShell() {
  const router = createMemoryRouter(
    [
      {
        element: <AppShell />,
        children: [
          {
            path: '/one',
            element: (
              <>
                <h1>One</h1>
                <Link to="/two">Go to two</Link>
                <input aria-label="Stays" />
              </>
            ),
          },
          { path: '/two', element: <h1>Two</h1> },
          // biome-ignore lint/a11y/noAutofocus: a screen that places focus itself
          { path: '/three', element: <input aria-label="Placed" autoFocus /> },
        ],
      },
    ],
    { initialEntries: ['/one'] },
  );
  render(
    <I18nProvider initial="en">
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return router;
}

beforeEach(() => {
  setApiBase('');
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(session)),
  );
});

describe('app shell focus', () => {
  it('leaves focus alone on the first screen', async () => {
    renderShell();
    await screen.findByRole('heading', { name: 'One' });
    expect(document.activeElement).toBe(document.body);
  });

  it('moves focus to the content when the screen changes and focus went with the old one', async () => {
    renderShell();
    const link = await screen.findByRole('link', { name: 'Go to two' });
    link.focus();
    fireEvent.click(link);
    await screen.findByRole('heading', { name: 'Two' });
    // the focus moves in an effect after the new screen rendered
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
  });

  it('moves focus from the chrome (the brand link) to the content', async () => {
    const router = renderShell();
    await screen.findByRole('heading', { name: 'One' });
    const brand = screen.getByRole('link', { name: /Super Admin Console/ });
    brand.focus();
    await router.navigate('/two');
    await screen.findByRole('heading', { name: 'Two' });
    // the focus moves in an effect after the new screen rendered
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
  });

  it('keeps a focus the new screen placed inside the content', async () => {
    const router = renderShell();
    (await screen.findByRole('link', { name: 'Go to two' })).focus();
    await router.navigate('/three');
    const placed = await screen.findByRole('textbox', { name: 'Placed' });
    expect(document.activeElement).toBe(placed);
  });

  it('leaves focus in a dialog opened while the new screen was still loading', async () => {
    const router = renderShell();
    await screen.findByRole('heading', { name: 'One' });
    // A slow screen commits after the user already opened the command palette and is typing there.
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    const field = await screen.findByRole('combobox');
    expect(document.activeElement).toBe(field);
    await router.navigate('/two');
    await screen.findByRole('heading', { name: 'Two' });
    expect(document.activeElement).toBe(field);
  });

  it('moves nothing when only the query changes', async () => {
    const router = renderShell();
    const field = await screen.findByRole('textbox', { name: 'Stays' });
    field.focus();
    await router.navigate('/one?x=1');
    expect(document.activeElement).toBe(field);
  });
});

describe('the Menu button (the navigation folded on a phone)', () => {
  it('opens and closes the navigation, says so, and closes on Escape and on navigation', async () => {
    const router = renderShell();
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(toggle.getAttribute('aria-controls')).toBe(nav.id);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(nav.className).toContain('is-open');
    const dashboard = screen.getByRole('link', { name: 'Dashboard' });
    dashboard.focus();
    fireEvent.keyDown(dashboard, { key: 'Escape' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
    fireEvent.click(toggle);
    await router.navigate('/two');
    await screen.findByRole('heading', { name: 'Two' });
    await waitFor(() => expect(toggle.getAttribute('aria-expanded')).toBe('false'));
  });
});
