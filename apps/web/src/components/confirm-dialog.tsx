import type { ReactNode } from 'react';
import { Dialog } from './dialog.tsx';

interface ConfirmDialogProps {
  title: string;
  /** What happens if the user confirms, in plain words. */
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  cancelLabel: string;
  /** A destructive action gets the danger style. */
  danger?: boolean;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A yes/no dialog: the confirm button first, Cancel focused so Enter does not confirm by accident. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busyLabel,
  cancelLabel,
  danger = false,
  busy,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Dialog title={title} onClose={onClose} busy={busy}>
      {children}
      <div className="form-actions dialog-actions">
        <button
          type="button"
          className={danger ? 'button button-danger-solid' : 'button button-primary'}
          aria-busy={busy}
          onClick={() => {
            if (!busy) onConfirm();
          }}
        >
          {busy ? busyLabel : confirmLabel}
        </button>
        <button type="button" className="button" disabled={busy} onClick={onClose} data-autofocus>
          {cancelLabel}
        </button>
      </div>
    </Dialog>
  );
}
