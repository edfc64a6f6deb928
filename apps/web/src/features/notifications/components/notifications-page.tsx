import { consolePaths } from '@sac/contract/console-paths';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { everyPage } from '../../../components/paged-table.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { formatLocalDateTime } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { type Notice, readNotices, useNotices } from '../api/notices-api.ts';
import { NoticeProgress, NoticeStatus, useAudienceText } from './notice-parts.tsx';

const ROWS_PER_PAGE = 25;

/**
 * /manage-notifications (the spec's placeholder, 'Manage Notfications' in the menu): the customer
 * notices, newest first, with their status and delivery progress (read again while one is being
 * sent), and the way to write a new one.
 */
export default function NotificationsPage() {
  const t = useT('notifications');
  const common = useT('common');
  const zone = useTimeZone();
  const list = useNotices();
  const audience = useAudienceText();
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.Data), [list.data]);

  const columns: Column<Notice>[] = [
    {
      id: 'subject',
      header: t('colSubject'),
      cell: (n) => <Link to={consolePaths.notice({ id: n.Id })}>{n.Subject}</Link>,
      sortValue: (n) => n.Subject,
    },
    { id: 'kind', header: t('colKind'), cell: (n) => t(`kind_${n.Kind}`), sortValue: (n) => n.Kind },
    {
      id: 'audience',
      header: t('colAudience'),
      cell: (n) => audience.node(n.Audience),
      csv: (n) => audience.text(n.Audience),
    },
    {
      id: 'status',
      header: t('colStatus'),
      cell: (n) => <NoticeStatus status={n.Status} />,
      sortValue: (n) => n.Status,
    },
    {
      id: 'sendAt',
      header: t('colSendAt', { zone }),
      cell: (n) => formatLocalDateTime(n.SendAt, zone),
      sortValue: (n) => n.SendAt,
      csv: (n) => n.SendAt,
    },
    { id: 'progress', header: t('colProgress'), cell: (n) => <NoticeProgress notice={n} compact /> },
    { id: 'createdBy', header: t('colCreatedBy'), cell: (n) => n.CreatedBy, sortValue: (n) => n.CreatedBy },
  ];

  return (
    <section className="card list-screen" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('heading')}</h1>
          <p>{t('intro')}</p>
        </div>
        <div className="page-header-actions">
          <Link to={consolePaths.composeNotice()} className="button button-primary">
            {t('newNotice')}
          </Link>
        </div>
      </div>
      <DataTable
        label={t('tableLabel')}
        columns={columns}
        rows={rows}
        rowKey={(n) => String(n.Id)}
        isLoading={list.isPending}
        error={list.isError && !rows ? errorText(list.error, common('tableFetchError')) : undefined}
        pageSize={ROWS_PER_PAGE}
        inAddress
        csvExport={{ name: 'notices', readAll: everyPage(readNotices) }}
        more={
          list.hasNextPage
            ? { load: () => list.fetchNextPage(), loading: list.isFetchingNextPage }
            : undefined
        }
      />
    </section>
  );
}
