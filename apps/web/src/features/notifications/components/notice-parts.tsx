import { useT } from '../../../lib/i18n.tsx';
import type { Notice } from '../api/notices-api.ts';
import styles from './notice-parts.module.css';

// Each status's colours, from the module (its class names are hashed in the build).
const STATUS_CLASS: Record<Notice['Status'], string | undefined> = {
  scheduled: styles.noticeStatusScheduled,
  sending: styles.noticeStatusSending,
  sent: styles.noticeStatusSent,
  failed: styles.noticeStatusFailed,
  cancelled: styles.noticeStatusCancelled,
};

/** A notice's status as a badge. */
export function NoticeStatus({ status }: { status: Notice['Status'] }) {
  const t = useT('notifications');
  return <span className={`status-badge ${STATUS_CLASS[status] ?? ''}`}>{t(`status_${status}`)}</span>;
}

/** Who a notice goes to, in words. */
export function useAudienceText() {
  const t = useT('notifications');
  return (a: Notice['Audience']) => {
    switch (a.Type) {
      case 'plan':
        return t('audiencePlans', { list: (a.Plans ?? []).join(', ') });
      case 'data-center':
        return t('audienceDataCenters', { list: (a.DataCenters ?? []).join(', ') });
      case 'sites':
        return t('audienceSites', { count: a.AppIds?.length ?? 0 });
      default:
        return t('audienceAll');
    }
  };
}

/** The delivery progress bar and its figures (sent, failed, skipped of all). */
export function NoticeProgress({ notice, compact = false }: { notice: Notice; compact?: boolean }) {
  const t = useT('notifications');
  const p = notice.Progress;
  if (notice.Status === 'scheduled' || notice.Status === 'cancelled' || p.Total === 0) return null;
  const done = p.Sent + p.Failed + p.Skipped;
  return (
    <div className={`${styles.noticeProgress}${compact ? ` ${styles.noticeProgressCompact}` : ''}`}>
      <progress max={p.Total} value={done} aria-label={t('progressLabel', { subject: notice.Subject })} />
      <span className="muted">
        {t('progressText', { done, total: p.Total, sent: p.Sent, failed: p.Failed, skipped: p.Skipped })}
      </span>
    </div>
  );
}
