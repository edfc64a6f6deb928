import { useMemo } from 'react';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useActivityLogs } from '../api/customers-api.ts';
import styles from './activity-logs-section.module.css';

type Entry = NonNullable<ReturnType<typeof useActivityLogs>['data']>['pages'][number]['Data'][number];

/** An entry's details as 'key: value' pairs (values that are not text as JSON). */
const detailText = (details: Record<string, unknown>): string =>
  Object.entries(details)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');

/**
 * Activity logs of the customer view, newest first; 'Load more' fetches older entries with the
 * answer's NextCursor until it is 0. All loaded entries stay on one page.
 */
export function ActivityLogsSection({ uid }: { uid: string }) {
  const t = useT('customers');
  const common = useT('common');
  const logs = useActivityLogs(uid);
  const rows = useMemo(() => logs.data?.pages.flatMap((p) => p.Data), [logs.data]);
  const dash = t('notSet');

  const columns = useMemo(
    (): Column<Entry>[] => [
      {
        id: 'date',
        header: t('activityWhen'),
        sortValue: (e) => e.Date,
        cell: (e) => <Timestamp value={e.Date} />,
      },
      { id: 'action', header: t('activityAction'), sortValue: (e) => e.Action, cell: (e) => e.Action },
      { id: 'actor', header: t('actor'), sortValue: (e) => e.ActorEmail, cell: (e) => e.ActorEmail ?? dash },
      {
        id: 'address',
        header: t('clientAddress'),
        sortValue: (e) => e.ClientAddress,
        cell: (e) => e.ClientAddress ?? dash,
      },
      {
        id: 'details',
        header: t('activityDetails'),
        csv: (e) => detailText(e.Details),
        cell: (e) => <span className={styles.activityDetails}>{detailText(e.Details)}</span>,
      },
    ],
    [t, dash],
  );

  return (
    <section className="card" aria-labelledby="activity-logs">
      <h2 id="activity-logs">{t('activityLogs')}</h2>
      <DataTable
        label={t('activityTableLabel')}
        columns={columns}
        rows={rows}
        rowKey={(e) => String(e.Id)}
        isLoading={logs.isPending}
        error={logs.isError && !rows ? errorText(logs.error, common('tableFetchError')) : undefined}
        pageSize={Math.max(rows?.length ?? 0, 1)}
        csvExport={{ name: 'customer-activity' }}
      />
      {logs.isFetchNextPageError ? (
        <p className="form-alert" role="alert">
          {errorText(logs.error, common('tableFetchError'))}
        </p>
      ) : null}
      <div className="form-actions">
        {logs.hasNextPage ? (
          <button
            type="button"
            className="button"
            disabled={logs.isFetchingNextPage}
            aria-busy={logs.isFetchingNextPage || undefined}
            onClick={() => void logs.fetchNextPage()}
          >
            {logs.isFetchingNextPage ? t('loadingMore') : t('loadMore')}
          </button>
        ) : rows && rows.length > 0 ? (
          <p className="muted">{t('noMoreActivity')}</p>
        ) : null}
      </div>
    </section>
  );
}
