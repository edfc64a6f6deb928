import { DetailList } from '../../../components/detail-list.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { useT } from '../../../lib/i18n.tsx';
import type { LogEntry } from '../api/impersonation-api.ts';
import styles from './log-entry-details.module.css';
import { StatusBadge } from './status-badge.tsx';

const EVENTS = [
  'request',
  'customer-request',
  'edit',
  'delete',
  'approve',
  'reject',
  'revoke',
  'consent-granted',
  'consent-denied',
  'session-start',
  'call',
  'call-refused',
  'expire',
  'break-glass',
  'break-glass-told',
  'break-glass-review',
] as const;
const DETAIL_KEYS = [
  'appId',
  'roles',
  'permissions',
  'duration',
  'assignees',
  'Status',
  'ProxyRoles',
  'AdditionalPermissions',
  'Duration',
  'Comments',
  'revokeAction',
  'method',
  'path',
  'note',
  'superAdmins',
  'owner',
  'openedBy',
  'channels',
  'reasonCode',
  'caseReference',
] as const;

const isOneOf = <T extends string>(list: readonly T[], v: string): v is T => list.includes(v as T);

function valueText(v: unknown): string {
  if (Array.isArray(v)) return v.map(String).join(', ');
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** One step of the impersonation log: what happened, who did it, when, and its recorded details. */
export function LogEntryDetails({ entry }: { entry: LogEntry }) {
  const t = useT('impersonation');
  const details = Object.entries(entry.Details);
  return (
    <>
      <DetailList
        items={[
          {
            label: t('logEvent'),
            value: isOneOf(EVENTS, entry.Event) ? t(`event.${entry.Event}`) : entry.Event,
          },
          { label: t('status'), value: <StatusBadge status={entry.Status} /> },
          { label: t('logActor'), value: entry.Actor ?? '' },
          { label: t('logAt'), value: <Timestamp value={entry.LastModified} /> },
        ]}
      />
      {details.length > 0 ? (
        <>
          <h3 className={styles.dialogSubheading}>{t('logDetails')}</h3>
          <DetailList
            items={details.map(([k, v]) => ({
              id: k,
              label: isOneOf(DETAIL_KEYS, k) ? t(`detail.${k}`) : k,
              value: valueText(v) || <span className="muted">{t('none')}</span>,
            }))}
          />
        </>
      ) : null}
    </>
  );
}
