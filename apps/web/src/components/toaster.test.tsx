import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../lib/i18n.tsx';
import { clearToasts, toast } from '../lib/toast-store.ts';
import { Dialog } from './dialog.tsx';
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

describe('toasts that belong together', () => {
  it('never stack the same words twice: the one shown starts its time again', () => {
    renderToaster();
    for (let i = 0; i < 4; i++) {
      act(() => void toast.info('Your session has expired. Please sign in again.'));
      act(() => vi.advanceTimersByTime(3000));
    }
    expect(screen.getAllByText('Your session has expired. Please sign in again.')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.queryByText('Your session has expired. Please sign in again.')).toBeNull();
  });

  it("replace an action's earlier toast: its success takes the place of its error", () => {
    renderToaster();
    act(() => void toast.error('That code is not correct.', '["totp"]'));
    act(() => void toast.error('Could not save the name.', '["rename"]'));
    act(() => void toast.success('Your authenticator app is set up.', '["totp"]'));
    expect(screen.queryByText('That code is not correct.')).toBeNull();
    expect(screen.getByText('Your authenticator app is set up.')).toBeTruthy();
    expect(screen.getByText('Could not save the name.')).toBeTruthy();
  });

  it('show inside an open dialog, above its content, and back in the corner once it closes', () => {
    function Page({ open }: { open: boolean }) {
      return open ? (
        <Dialog title="Recovery codes" onClose={() => {}}>
          <p>abcd-efgh</p>
        </Dialog>
      ) : null;
    }
    const view = render(
      <I18nProvider initial="en">
        <Page open />
        <Toaster />
      </I18nProvider>,
    );
    act(() => void toast.success('Saved.'));
    const dialog = screen.getByRole('dialog', { name: 'Recovery codes' });
    const message = screen.getByText('Saved.');
    expect(dialog.contains(message)).toBe(true);
    // In the dialog's flow, before its content: it takes its own room instead of lying over it.
    const content = screen.getByText('abcd-efgh');
    expect(message.compareDocumentPosition(content) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    view.rerender(
      <I18nProvider initial="en">
        <Page open={false} />
        <Toaster />
      </I18nProvider>,
    );
    expect(screen.getByText('Saved.').closest('dialog')).toBeNull();
  });
});
