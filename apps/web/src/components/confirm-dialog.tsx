import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useT } from '../lib/i18n.tsx';
import { Dialog } from './dialog.tsx';
import { FormField } from './form-field.tsx';

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
  /**
   * For what cannot be undone: the name the user types before the action can go ahead (as GitHub
   * asks before deleting a repository), so a slip of the hand deletes nothing.
   */
  typedName?: string;
}

/**
 * A yes/no dialog: the confirm button first, Cancel focused so Enter does not confirm by accident.
 * With `typedName`, the field for the name takes focus and the confirm button waits for the name.
 */
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
  typedName,
}: ConfirmDialogProps) {
  const t = useT('common');
  const fieldId = useId();
  const [typed, setTyped] = useState('');
  const ready = typedName === undefined || typed.trim() === typedName;
  const confirm = (e?: FormEvent) => {
    e?.preventDefault();
    if (!busy && ready) onConfirm();
  };
  return (
    <Dialog title={title} onClose={onClose} busy={busy}>
      {children}
      <form onSubmit={confirm} noValidate>
        {typedName !== undefined ? (
          <FormField
            id={fieldId}
            name="typed-name"
            label={t('typeToConfirm', { name: typedName })}
            hint={t('typeToConfirmHint')}
            value={typed}
            onValueChange={setTyped}
            autoComplete="off"
            spellCheck={false}
            disabled={busy}
            data-autofocus
          />
        ) : null}
        <div className="form-actions dialog-actions">
          <button
            type="submit"
            className={danger ? 'button button-danger-solid' : 'button button-primary'}
            aria-busy={busy}
            disabled={!ready}
          >
            {busy ? busyLabel : confirmLabel}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={onClose}
            {...(typedName === undefined ? { 'data-autofocus': true } : {})}
          >
            {cancelLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
