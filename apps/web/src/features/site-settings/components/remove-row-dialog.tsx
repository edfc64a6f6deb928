import type { ReactNode } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';

/** The part of a removal mutation the dialog drives (TanStack Query's useMutation result). */
interface Removal<K> {
  isPending: boolean;
  mutate: (key: K, options: { onSuccess: (answer: { Message?: string }) => void }) => void;
}

/**
 * Confirms removing one row of a site's settings: the mutation takes the row out of its table,
 * and the server's Message (or `fallback`) is toasted.
 */
export function RemoveRowDialog<K>({
  remove,
  rowKey,
  title,
  confirmLabel,
  fallback,
  onClose,
  children,
  typedName,
}: {
  remove: Removal<K>;
  rowKey: K;
  title: string;
  confirmLabel: string;
  fallback: string;
  onClose: () => void;
  children: ReactNode;
  /** The row's name, typed to confirm (the removal cannot be undone). */
  typedName: string;
}) {
  const t = useT('siteSettings');
  const onConfirm = () => {
    if (remove.isPending) return;
    remove.mutate(rowKey, {
      onSuccess: (answer) => {
        toast.success(answer.Message || fallback);
        onClose();
      },
    });
  };
  return (
    <ConfirmDialog
      title={title}
      confirmLabel={confirmLabel}
      busyLabel={t('working')}
      cancelLabel={t('cancel')}
      danger
      busy={remove.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
      typedName={typedName}
    >
      {children}
    </ConfirmDialog>
  );
}
