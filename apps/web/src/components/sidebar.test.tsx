import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { firstChildLink, Sidebar, type SidebarItem } from './sidebar.tsx';

describe('firstChildLink', () => {
  it("skips links containing the text 'undefined'", () => {
    expect(
      firstChildLink([
        { id: 'a', label: 'A', to: '/sites/undefined/settings' },
        { id: 'b', label: 'B', to: '/sites/42/settings' },
      ]),
    ).toBe('/sites/42/settings');
  });

  it('returns undefined when no child qualifies', () => {
    expect(firstChildLink([{ id: 'a', label: 'A', to: '/x/undefined' }])).toBeUndefined();
    expect(firstChildLink(undefined)).toBeUndefined();
    expect(firstChildLink([])).toBeUndefined();
  });

  it('looks into nested groups', () => {
    expect(firstChildLink([{ id: 'g', label: 'G', children: [{ id: 'c', label: 'C', to: '/deep' }] }])).toBe(
      '/deep',
    );
  });
});

const items: SidebarItem[] = [
  { id: 'list', label: 'Manage Superuser', to: '/team/list' },
  {
    id: 'imp',
    label: 'Impersonation',
    children: [
      { id: 'broken', label: 'Broken', to: '/team/undefined' },
      { id: 'logs', label: 'Impersonation Logs', to: '/team/logs' },
    ],
  },
];

function renderAt(path: string) {
  const router = createMemoryRouter(
    [{ path: '*', element: <Sidebar label="Section navigation" items={items} /> }],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('Sidebar', () => {
  it('opens a parent and moves to its first usable child link', () => {
    const router = renderAt('/team/list');
    const parent = screen.getByRole('button', { name: 'Impersonation' });
    expect(parent.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(parent);
    expect(parent.getAttribute('aria-expanded')).toBe('true');
    expect(router.state.location.pathname).toBe('/team/logs');
    expect(screen.getByRole('link', { name: 'Impersonation Logs' })).toBeTruthy();
  });

  it('closes an open parent on a second click without navigating', () => {
    const router = renderAt('/team/logs');
    const parent = screen.getByRole('button', { name: 'Impersonation' });
    expect(parent.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(parent);
    expect(parent.getAttribute('aria-expanded')).toBe('false');
    expect(router.state.location.pathname).toBe('/team/logs');
  });

  it('collapses and expands as a whole', () => {
    renderAt('/team/list');
    const toggle = screen.getByRole('button', { name: 'Collapse sidebar' });
    fireEvent.click(toggle);
    expect(screen.queryByRole('navigation', { name: 'Section navigation' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(screen.getByRole('navigation', { name: 'Section navigation' })).toBeTruthy();
  });
});
