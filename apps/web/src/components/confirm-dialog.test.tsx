import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../lib/i18n.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';

function renderConfirm(typedName?: string) {
  const onConfirm = vi.fn();
  render(
    <I18nProvider initial="en">
      <ConfirmDialog
        title="Delete custom domain login.example?"
        confirmLabel="Delete"
        busyLabel="Working…"
        cancelLabel="Cancel"
        danger
        busy={false}
        onConfirm={onConfirm}
        onClose={() => {}}
        {...(typedName ? { typedName } : {})}
      >
        <p>The domain stops answering.</p>
      </ConfirmDialog>
    </I18nProvider>,
  );
  return onConfirm;
}

describe('ConfirmDialog', () => {
  it('focuses Cancel, so Enter does not confirm by accident', () => {
    const onConfirm = renderConfirm();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('asks for the name to be typed before what cannot be undone', () => {
    const onConfirm = renderConfirm('login.example');
    const field = screen.getByRole('textbox', { name: 'Type login.example to confirm' });
    expect(document.activeElement).toBe(field);
    expect(screen.getByText('This cannot be undone.')).toBeTruthy();
    const confirm = screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'login.exampl' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.submit(field.closest('form')!);
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.change(field, { target: { value: 'login.example ' } });
    expect(confirm.disabled).toBe(false);
    // Enter in the field confirms once the name is right.
    fireEvent.submit(field.closest('form')!);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
