import type { LOG_STATUSES } from '@sac/contract/impersonation-api';
import { useT } from '../../../lib/i18n.tsx';

/** A request's display status, or a log step's ('Deleted'), as a coloured badge (the text carries the meaning). */
export function StatusBadge({ status }: { status: (typeof LOG_STATUSES)[number] }) {
  const t = useT('impersonation');
  return <span className={`status-badge status-${status.toLowerCase()}`}>{t(`status.${status}`)}</span>;
}
