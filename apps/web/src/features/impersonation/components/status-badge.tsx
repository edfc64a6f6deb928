import { useT } from '../../../lib/i18n.tsx';
import type { DisplayStatus } from '../api/impersonation-api.ts';

/** A request's display status as a coloured badge (the text carries the meaning). */
export function StatusBadge({ status }: { status: DisplayStatus }) {
  const t = useT('impersonation');
  return <span className={`status-badge status-${status.toLowerCase()}`}>{t(`status.${status}`)}</span>;
}
