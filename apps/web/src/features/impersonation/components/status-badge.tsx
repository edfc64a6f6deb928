import type { LOG_STATUSES } from '@sac/contract/impersonation-api';
import { useT } from '../../../lib/i18n.tsx';
import styles from './status-badge.module.css';

/** A request's display status, or a log step's ('Deleted'), as a coloured badge (the text carries the meaning). */
export function StatusBadge({ status }: { status: (typeof LOG_STATUSES)[number] }) {
  const t = useT('impersonation');
  // Pending, Approved and Rejected share the global badge colours; the rest are this module's.
  const tone = `status-${status.toLowerCase()}`;
  return <span className={`status-badge ${styles[tone] ?? tone}`}>{t(`status.${status}`)}</span>;
}
