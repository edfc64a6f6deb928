import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../lib/i18n.tsx';
import { clearToasts, toast } from '../lib/toast-store.ts';
import { Toaster } from './toaster.tsx';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  clearToasts();
  vi.useRealTimers();
});

const renderToaster = () =>
  render(
    <I18nProvider initial="en">
      <Toaster />
    </I18nProvider>,
  );

describe('toasts', () => {
  it('announce errors as alerts, and the others in a polite live region that was there before them', () => {
    const { container } = renderToaster();
    const polite = container.querySelector('[aria-live="polite"]');
    expect(polite?.textContent).toBe('');
    act(() => void toast.error('Could not save.'));
    act(() => void toast.success('Saved.'));
    expect(container.querySelector('[aria-live="polite"]')).toBe(polite);
    expect(polite?.querySelector('[role="status"]')?.textContent).toBe('Saved.');
    expect(screen.getByRole('alert').textContent).toBe('Could not save.');
  });

  it('close by themselves after 5000 ms', () => {
    renderToaster();
    act(() => void toast.success('Saved.'));
    act(() => vi.advanceTimersByTime(4999));
    expect(screen.queryByText('Saved.')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Saved.')).toBeNull();
  });

  it('stay while hovered or focused, and close in what was left once released', () => {
    renderToaster();
    act(() => void toast.error('Could not save.'));
    act(() => vi.advanceTimersByTime(3000));
    const item = screen.getByTestId('toast-error');
    fireEvent.mouseEnter(item);
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.queryByText('Could not save.')).not.toBeNull();
    fireEvent.mouseLeave(item);
    fireEvent.focus(screen.getByRole('button', { name: 'Dismiss notification' }));
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.queryByText('Could not save.')).not.toBeNull();
    fireEvent.blur(screen.getByRole('button', { name: 'Dismiss notification' }));
    act(() => vi.advanceTimersByTime(1999));
    expect(screen.queryByText('Could not save.')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Could not save.')).toBeNull();
  });
});
