import { Fragment, type ReactNode } from 'react';
import { DataCenterName, dataCenterNames } from '../../../components/data-center-name.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { type Notice, useAudienceOptions } from '../api/notices-api.ts';
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

/**
 * Who a notice goes to, in words: `text` as plain words (data centers by name, for CSV), `node`
 * for the screen (data centers by name with their code on hover).
 */
export function useAudienceText() {
  const t = useT('notifications');
  // The same list the compose form offers: it names each code (cached for the whole visit).
  const nameOf = dataCenterNames(useAudienceOptions().data?.DataCenters);
  const text = (a: Notice['Audience']): string => {
    switch (a.Type) {
      case 'plan':
        return t('audiencePlans', { list: (a.Plans ?? []).join(', ') });
      case 'data-center':
        return t('audienceDataCenters', {
          list: (a.DataCenters ?? []).map((code) => nameOf(code) ?? code).join(', '),
        });
      case 'sites':
        return t('audienceSites', { count: a.AppIds?.length ?? 0 });
      default:
        return t('audienceAll');
    }
  };
  const node = (a: Notice['Audience']): ReactNode => {
    if (a.Type !== 'data-center') return text(a);
    const [before, after = ''] = t('audienceDataCenters', { list: '\u0000' }).split('\u0000');
    return (
      <>
        {before}
        {(a.DataCenters ?? []).map((code, i) => (
          <Fragment key={code}>
            {i > 0 ? ', ' : null}
            <DataCenterName code={code} name={nameOf(code)} />
          </Fragment>
        ))}
        {after}
      </>
    );
  };
  return { text, node };
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
