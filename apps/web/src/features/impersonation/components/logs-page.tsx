import { IMPERSONATION_TABLE_PAGE_SIZE } from '@sac/contract/constants';
import { LOG_SORT_KEYS, sortParam } from '@sac/contract/list-sort';
import { useMemo, useState } from 'react';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { NextPageError, pagedTableProps } from '../../../components/paged-table.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { streamedFile } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useListView } from '../../../lib/list-view.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { type LogEntry, listQuery, useLogs, useRequest } from '../api/impersonation-api.ts';
import { NoImpersonationAccess } from './no-access.tsx';
import { RequestDialog } from './request-dialog.tsx';
import { StatusBadge } from './status-badge.tsx';
import { StatusFilter, useStatusFilter } from './status-filter.tsx';

/**
 * /manage-superuser/impersonation/logs: every step of every request, 5 a page, newest first, with a
 * status filter, read from the server 50 at a time. A row's popup shows the step and, when the viewer can see it, the request with
 * the actions they may take.
 */
export default function LogsPage() {
  const t = useT('impersonation');
  const common = useT('common');
  const { permissions } = useCurrentUser();
  const allowed = permissions.has('impersonation.logs.read');
  const [status, setStatus] = useStatusFilter();
  const view = useListView(true, LOG_SORT_KEYS);
  const { list: logs, rows } = useLogs(status, view.sort, allowed);
  const [openId, setOpenId] = useState<number | undefined>();
  const open = rows?.find((l) => l.Id === openId);
  const request = useRequest(open?.RequestId, permissions.has('impersonation.request'));

  const columns = useMemo<Column<LogEntry>[]>(
    () => [
      { id: 'request', header: t('requestId'), cell: (l) => l.RequestId },
      { id: 'app', header: t('appName'), cell: (l) => l.AppName },
      { id: 'status', header: t('status'), cell: (l) => <StatusBadge status={l.Status} /> },
      {
        id: 'modified',
        header: t('lastModified'),
        cell: (l) => <Timestamp value={l.LastModified} />,
      },
      {
        id: 'actions',
        header: t('actions'),
        cell: (l) => (
          <button
            type="button"
            className="button button-small"
            aria-label={t('viewLogEntry', { id: l.Id })}
            onClick={() => setOpenId(l.Id)}
          >
            {t('view')}
          </button>
        ),
      },
    ],
    [t],
  );

  if (!allowed) return <NoImpersonationAccess />;

  return (
    <section className="card list-screen" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('logs')}</h1>
          <p className="muted">{t('logsIntro')}</p>
        </div>
      </div>
      <div className="table-toolbar">
        <StatusFilter id="logs-status" value={status} onChange={setStatus} />
        <button
          type="button"
          className="button button-small"
          aria-busy={logs.isFetching}
          onClick={() => void logs.refetch()}
        >
          {logs.isFetching && !logs.isPending ? t('refreshing') : t('refresh')}
        </button>
      </div>
      <DataTable
        key={`${status ?? 'all'}:${view.sort ? sortParam(view.sort) : ''}`}
        label={t('logsTableLabel')}
        columns={columns}
        rows={rows}
        rowKey={(l) => String(l.Id)}
        {...pagedTableProps(logs, rows !== undefined, common('tableFetchError'))}
        pageSize={IMPERSONATION_TABLE_PAGE_SIZE}
        view={view}
        csvExport={{ download: streamedFile('impersonationLogsExport', listQuery(status, view.sort)) }}
      />
      <NextPageError list={logs} fetchError={common('tableFetchError')} />
      {open ? (
        <RequestDialog
          log={open}
          request={request.data ?? undefined}
          requestLoading={request.fetchStatus === 'fetching' && request.data === undefined}
          requestDeleted={rows?.some((l) => l.RequestId === open.RequestId && l.Status === 'Deleted')}
          onClose={() => setOpenId(undefined)}
        />
      ) : null}
    </section>
  );
}
