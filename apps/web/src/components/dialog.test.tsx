import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { I18nProvider } from '../lib/i18n.tsx';
import { Dialog } from './dialog.tsx';

function Harness({ nested = false }: { nested?: boolean }) {
  const [open, setOpen] = useState(false);
  const [inner, setInner] = useState(false);
  return (
    <I18nProvider initial="en">
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open ? (
        <Dialog title="Edit things" onClose={() => setOpen(false)}>
          <label htmlFor="f-name">Name</label>
          <input id="f-name" />
          <button type="button" onClick={() => setInner(true)}>
            Save
          </button>
          {nested && inner ? (
            <Dialog title="Inner" onClose={() => setInner(false)}>
              <button type="button">Inner action</button>
            </Dialog>
          ) : null}
        </Dialog>
      ) : null}
    </I18nProvider>
  );
}

const open = () => {
  const opener = screen.getByRole('button', { name: 'Open' });
  opener.focus();
  fireEvent.click(opener);
  return opener;
};

describe('dialog', () => {
  it('moves focus to the first field of its body and wraps Tab at both ends', () => {
    render(<Harness />);
    open();
    const field = screen.getByLabelText('Name');
    expect(document.activeElement).toBe(field);
    const close = screen.getByRole('button', { name: 'Close' });
    const save = screen.getByRole('button', { name: 'Save' });
    save.focus();
    fireEvent.keyDown(save, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(save);
  });

  it('closes on Escape and gives focus back to the element that opened it', () => {
    render(<Harness />);
    const opener = open();
    fireEvent.keyDown(screen.getByLabelText('Name'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('is a native dialog opened modal, named by its title', () => {
    render(<Harness />);
    open();
    const dialog = screen.getByRole('dialog', { name: 'Edit things' });
    expect(dialog.tagName).toBe('DIALOG');
    expect((dialog as HTMLDialogElement).open).toBe(true);
  });

  it('while busy, Escape is stopped at the key and the close button is disabled', () => {
    let closed = 0;
    render(
      <I18nProvider initial="en">
        <Dialog title="Saving" busy onClose={() => closed++}>
          <button type="button">Save</button>
        </Dialog>
      </I18nProvider>,
    );
    const save = screen.getByRole('button', { name: 'Save' });
    expect(fireEvent.keyDown(save, { key: 'Escape' })).toBe(false); // default prevented: no close request
    const dialog = screen.getByRole('dialog', { name: 'Saving' }) as HTMLDialogElement;
    expect(fireEvent(dialog, new Event('cancel', { cancelable: true }))).toBe(false);
    expect(dialog.open).toBe(true);
    expect(screen.getByRole('button', { name: 'Close' }).hasAttribute('disabled')).toBe(true);
    expect(closed).toBe(0);
  });

  it('lets only the innermost of nested dialogs answer Escape', () => {
    render(<Harness nested />);
    open();
    const save = screen.getByRole('button', { name: 'Save' });
    save.focus();
    fireEvent.click(save);
    expect(screen.getByRole('dialog', { name: 'Inner' })).toBeTruthy();
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Inner' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Edit things' })).toBeTruthy();
    expect(document.activeElement).toBe(save);
  });
});
