import { AUDIT_ACTIONS, type AuditAction } from '@sac/contract/audit';
import { useT } from '../lib/i18n.tsx';

const isAuditAction = (action: string): action is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(action);

/**
 * A trail action in the viewer's words, its code in the tooltip (and for screen readers after the
 * words); a code the console has no words for shows as the code. The trail and the dashboard's
 * staff activity both show actions this way.
 */
export function ActionWords({ action }: { action: string }) {
  const words = useT('auditActions');
  const t = useT('audit');
  if (!isAuditAction(action)) return <code>{action}</code>;
  return (
    <span title={t('actionCode', { code: action })}>
      {words(action)}
      <span className="visually-hidden"> ({action})</span>
    </span>
  );
}
