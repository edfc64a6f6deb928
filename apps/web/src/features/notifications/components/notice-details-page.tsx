import { consolePaths } from '@sac/contract/console-paths';
import { DELIVERY_STATUSES } from '@sac/contract/notices';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { DetailList } from '../../../components/detail-list.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { ApiError, errorText } from '../../../lib/api-client.ts';
import { formatLocalDateTime } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { toast } from '../../../lib/toast-store.ts';
import {
  type Delivery,
  type DeliveryFilter,
  type NoticeWithText,
  useCancelNotice,
  useDeliveries,
  useNotice,
} from '../api/notices-api.ts';
import styles from './notice-details-page.module.css';
import { NoticeProgress, NoticeStatus, useAudienceText } from './notice-parts.tsx';

const ROWS_PER_PAGE = 50;

/**
 * /manage-notifications/notice?id=: one notice (text, audience, schedule, who wrote it), its
 * delivery progress, Cancel while it is scheduled (with a confirmation), and the delivery log per
 * recipient, filtered by status and paged.
 */
export default function NoticeDetailsPage() {
  const t = useT('notifications');
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isSafeInteger(id) && id > 0;
  return (
    <div className="page-stack">
      <p>
        <Link to={consolePaths.notifications()}>{t('backToList')}</Link>
      </p>
      {valid ? (
        <Details id={id} />
      ) : (
        <p className="form-alert" role="alert">
          {t('notFound')}
        </p>
      )}
    </div>
  );
}

function Details({ id }: { id: number }) {
  const t = useT('notifications');
  const common = useT('common');
  const q = useNotice(id);
  if (q.isError)
    return (
      <p className="form-alert" role="alert">
        {errorText(q.error, t('notFound'))}
      </p>
    );
  if (!q.data)
    return (
      <section className="card">
        <Skeleton label={common('loading')} />
      </section>
    );
  return (
    <>
      <Summary notice={q.data} />
      <DeliveryLog notice={q.data} />
    </>
  );
}

function Summary({ notice: n }: { notice: NoticeWithText }) {
  const t = useT('notifications');
  const common = useT('common');
  const zone = useTimeZone();
  const audience = useAudienceText();
  const cancel = useCancelNotice();
  const [confirming, setConfirming] = useState(false);
  const at = (v: string | null) => formatLocalDateTime(v, zone);
  const onCancel = () =>
    cancel.mutate(n.Id, {
      onSuccess: () => {
        setConfirming(false);
        toast.success(t('cancelled'));
      },
      onError: (e) => {
        setConfirming(false);
        toast.error(e instanceof ApiError && e.code === 990 ? t('cancelStarted') : errorText(e));
      },
    });
  return (
    <section className="card" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <p className="muted">{t(`kind_${n.Kind}`)}</p>
          <h1 id="screen-title">{n.Subject}</h1>
        </div>
        <div className="page-header-actions">
          <NoticeStatus status={n.Status} />
          {n.Status === 'scheduled' ? (
            <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
              {t('cancel')}
            </button>
          ) : null}
        </div>
      </div>
      <NoticeProgress notice={n} />
      <DetailList
        layout="compact"
        items={[
          { label: t('colAudience'), value: audience.node(n.Audience) },
          { label: t('colSendAt', { zone }), value: at(n.SendAt) },
          { label: t('createdBy'), value: n.CreatedBy },
          { label: t('createdAt'), value: at(n.CreatedAt) },
          n.StartedAt ? { label: t('startedAt'), value: at(n.StartedAt) } : null,
          n.FinishedAt ? { label: t('finishedAt'), value: at(n.FinishedAt) } : null,
          n.CancelledBy ? { label: t('cancelledBy'), value: n.CancelledBy } : null,
          n.FailureReason ? { label: t('failureReason'), value: n.FailureReason } : null,
        ]}
      />
      <h2>{t('text')}</h2>
      <pre className={styles.noticeText}>{n.Text}</pre>
      {confirming ? (
        <ConfirmDialog
          title={t('cancelTitle')}
          confirmLabel={t('cancel')}
          busyLabel={t('cancelling')}
          cancelLabel={t('cancelKeep')}
          danger
          busy={cancel.isPending}
          onConfirm={onCancel}
          onClose={() => setConfirming(false)}
        >
          <p>{t('cancelBody', { subject: n.Subject })}</p>
        </ConfirmDialog>
      ) : null}
      <span hidden>{common('loading')}</span>
    </section>
  );
}

function DeliveryLog({ notice }: { notice: NoticeWithText }) {
  const t = useT('notifications');
  const common = useT('common');
  const zone = useTimeZone();
  const [status, setStatus] = useState<DeliveryFilter>(undefined);
  const live = notice.Status === 'sending';
  const log = useDeliveries(notice.Id, status, live);
  // The log is read again whenever the notice's progress moves, so the rows say what the bar says
  // (also its last move, when the notice turns Sent and the log stops reading on its own).
  const p = notice.Progress;
  const progress = `${notice.Status}:${p.Sent}:${p.Failed}:${p.Skipped}:${p.Pending}`;
  const seen = useRef(progress);
  const { refetch } = log;
  useEffect(() => {
    if (seen.current === progress) return;
    seen.current = progress;
    void refetch();
  }, [progress, refetch]);
  const rows = useMemo(() => log.data?.pages.flatMap((p) => p.Data), [log.data]);
  if (notice.Status === 'scheduled' || notice.Status === 'cancelled') return null;
  const columns: Column<Delivery>[] = [
    { id: 'email', header: t('colEmail'), cell: (d) => d.Email },
    {
      id: 'status',
      header: t('colStatus'),
      cell: (d) => (
        <span className={`status-badge ${styles[`delivery-status-${d.Status}`] ?? ''}`}>
          {t(`delivery_${d.Status}`)}
        </span>
      ),
    },
    { id: 'attempts', header: t('colAttempts'), cell: (d) => String(d.Attempts) },
    { id: 'reason', header: t('colReason'), cell: (d) => d.Reason ?? '' },
    { id: 'sentAt', header: t('colSentAt', { zone }), cell: (d) => formatLocalDateTime(d.SentAt, zone) },
    {
      id: 'next',
      header: t('colNextAttempt', { zone }),
      cell: (d) => (d.Status === 'retrying' ? formatLocalDateTime(d.NextAttemptAt, zone) : ''),
    },
  ];
  return (
    <section className="card" aria-labelledby="delivery-log">
      <h2 id="delivery-log">{t('deliveryLog')}</h2>
      <div className="table-toolbar">
        <SelectField
          id="delivery-status"
          name="status"
          label={t('deliveryFilter')}
          value={status ?? ''}
          options={[
            { value: '', label: t('deliveryAll') },
            ...DELIVERY_STATUSES.map((s) => ({ value: s, label: t(`delivery_${s}`) })),
          ]}
          onValueChange={(v) => setStatus(v === '' ? undefined : (v as DeliveryFilter))}
        />
      </div>
      <DataTable
        key={status ?? 'all'}
        label={t('deliveryLabel')}
        columns={columns}
        rows={rows}
        rowKey={(d) => String(d.Id)}
        isLoading={log.isPending}
        error={log.isError && !rows ? errorText(log.error, common('tableFetchError')) : undefined}
        pageSize={ROWS_PER_PAGE}
        more={
          log.hasNextPage ? { load: () => log.fetchNextPage(), loading: log.isFetchingNextPage } : undefined
        }
      />
    </section>
  );
}
