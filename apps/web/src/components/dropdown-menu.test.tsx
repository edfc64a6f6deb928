import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Dropdown, LinkMenu } from './dropdown-menu.tsx';

const ITEMS = [
  { id: 'a', label: 'Manage Superuser', to: '/a' },
  { id: 'b', label: 'Create Superuser', to: '/b' },
  { id: 'c', label: 'Audit Trail', to: '/c' },
];
const renderAt = (element: React.ReactNode) =>
  render(
    <RouterProvider
      router={createMemoryRouter([
        {
          path: '/',
          element: (
            <>
              {element}
              <button type="button">After</button>
            </>
          ),
        },
      ])}
    />,
  );

describe('site navigation under a button (disclosure navigation)', () => {
  it('is a list of links, not a menu; ArrowDown opens it on the first link, arrows move, Escape closes it', () => {
    renderAt(<LinkMenu label="Manage Superuser" items={ITEMS} />);
    const button = screen.getByRole('button', { name: 'Manage Superuser' });
    expect(button.getAttribute('aria-haspopup')).toBeNull();
    expect(screen.queryByRole('menu')).toBeNull();
    button.focus();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Manage Superuser' }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Create Superuser' }));
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Audit Trail' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('closes when focus leaves it (Tab past the last link)', () => {
    renderAt(<LinkMenu label="Manage Superuser" items={ITEMS} />);
    const button = screen.getByRole('button', { name: 'Manage Superuser' });
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const last = screen.getByRole('link', { name: 'Audit Trail' });
    fireEvent.blur(last, { relatedTarget: screen.getByRole('button', { name: 'After' }) });
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('menu button', () => {
  it('opens from the keyboard on its first item, ArrowUp on its last', () => {
    renderAt(
      <Dropdown label="me@example.com">
        {() => (
          <>
            <button type="button" role="menuitem">
              Account
            </button>
            <button type="button" role="menuitem">
              Logout
            </button>
          </>
        )}
      </Dropdown>,
    );
    const button = screen.getByRole('button', { name: 'me@example.com' });
    // A key's click carries detail 0.
    fireEvent.click(button, { detail: 0 });
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Account' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(document.activeElement).toBe(button);
    fireEvent.keyDown(button, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Logout' }));
  });
});
