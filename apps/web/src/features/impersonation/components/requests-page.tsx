import { IMPERSONATION_TABLE_PAGE_SIZE } from '@sac/contract/constants';
import type { DisplayStatus } from '@sac/contract/impersonation';
import type { ImpersonationRequest } from '@sac/contract/impersonation-api';
import { REQUEST_SORT_KEYS, sortParam } from '@sac/contract/list-sort';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { NO_PICKS, type Picks } from '../../../components/bulk-bar.tsx';
import { type Column, DataTable, type RowSelection } from '../../../components/data-table.tsx';
import { NextPageError, pagedTableProps } from '../../../components/paged-table.tsx';
import { ReasonNote } from '../../../components/reason-view.tsx';
import { streamedFile } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useListView } from '../../../lib/list-view.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { listQuery, useRequest, useRequests } from '../api/impersonation-api.ts';
import { BulkRequestsBar } from './bulk-requests-bar.tsx';
import { NoImpersonationAccess } from './no-access.tsx';
import { RequestDialog } from './request-dialog.tsx';
import { statusAt, useExpiryClock } from './request-view.ts';
import { StatusBadge } from './status-badge.tsx';
import { StatusFilter, useStatusFilter } from './status-filter.tsx';

/** The table's columns: the spec's, with the reason and case under the site's name. */
function useRequestColumns(now: number, open: (id: number) => void) {
  const t = useT('impersonation');
  return useMemo<Column<ImpersonationRequest>[]>(
    () => [
      { id: 'id', header: t('requestId'), cell: (r) => r.Id },
      {
        id: 'app',
        header: t('appName'),
        // The reason and case under the site's name: what the approver decides on, at a glance.
        cell: (r) => (
          <>
            {r.AppName}
            <ReasonNote shown={r.Request} />
          </>
        ),
      },
      { id: 'priority', header: t('priority'), cell: (r) => t(`priority.${r.Request.Priority}`) },
      { id: 'status', header: t('status'), cell: (r) => <StatusBadge status={statusAt(r, now)} /> },
      {
        id: 'actions',
        header: t('actions'),
        cell: (r) => (
          <button
            type="button"
            className="button button-small"
            aria-label={t('viewRequest', { id: r.Id })}
            onClick={() => open(r.Id)}
          >
            {t('view')}
          </button>
        ),
      },
    ],
    [t, now, open],
  );
}

/**
 * An approver's row checkboxes and bulk bar (revoke, reject): the picks, kept until the filter
 * changes (a pick of another filter is not what the list shows).
 */
function useRequestPicks(
  approver: boolean,
  status: DisplayStatus | undefined,
  rows: ImpersonationRequest[] | undefined,
) {
  const words = useT('customers');
  const [picks, setPicks] = useState<Picks>(NO_PICKS);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter clears the selection
  useEffect(() => setPicks(NO_PICKS), [status]);
  const selection: RowSelection<ImpersonationRequest> | undefined = approver
    ? {
        picked: picks.all ? new Set((rows ?? []).map((r) => String(r.Id))) : picks.picked,
        onChange: (next) => setPicks({ picked: next, all: false }),
        rowLabel: (r) => words('bulkRequestsPickRow', { id: r.Id }),
        pageLabel: words('bulkRequestsPickPage'),
      }
    : undefined;
  return { picks, setPicks, selection };
}

/**
 * /manage-superuser/impersonation/assigned-requests: the requests the viewer made or is assigned
 * (approvers: all), 5 a page in the server's order, with a status filter and a popup per row. The
 * server sends 50 at a time: Next on the last page read asks for the next 50. An approver selects
 * rows, a page or all matching the filter, for a bulk revocation or rejection.
 */
export default function RequestsPage() {
  const t = useT('impersonation');
  const common = useT('common');
  const { permissions } = useCurrentUser();
  const allowed = permissions.has('impersonation.request');
  const approver = permissions.has('impersonation.approve');
  const [status, setStatus] = useStatusFilter();
  const view = useListView(true, REQUEST_SORT_KEYS);
  const { list, rows } = useRequests(status, view.sort, allowed);
  const { picks, setPicks, selection } = useRequestPicks(approver, status, rows);
  // ?request=<Id> (the command palette, a shared link) opens that request's popup, found in the
  // list or asked for by Id when it is on a page not read yet.
  const [params, setParams] = useSearchParams();
  const linked = Number(params.get('request')) || undefined;
  const [openId, setOpenId] = useState<number | undefined>(linked);
  useEffect(() => setOpenId(linked), [linked]);
  const linkedOne = useRequest(
    linked,
    allowed && linked !== undefined && !rows?.some((r) => r.Id === linked),
  );
  const close = () => {
    setOpenId(undefined);
    if (linked !== undefined) {
      setParams(
        (p) => {
          p.delete('request');
          return p;
        },
        { replace: true },
      );
    }
  };
  const now = useExpiryClock(rows);

  const columns = useRequestColumns(now, setOpenId);

  if (!allowed) return <NoImpersonationAccess />;
  const linkedRow = linkedOne.data?.Id === linked ? linkedOne.data : undefined;
  const open = rows?.find((r) => r.Id === openId) ?? (openId === linked ? linkedRow : undefined);

  return (
    <section className="card list-screen" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('assignedRequests')}</h1>
          <p className="muted">{t('requestsIntro')}</p>
        </div>
      </div>
      <div className="table-toolbar">
        <StatusFilter id="requests-status" value={status} onChange={setStatus} />
        <button
          type="button"
          className="button button-small"
          aria-busy={list.isFetching}
          onClick={() => void list.refetch()}
        >
          {list.isFetching && !list.isPending ? t('refreshing') : t('refresh')}
        </button>
      </div>
      {approver ? (
        <BulkRequestsBar
          status={status}
          sort={view.sort}
          total={rows && !list.hasNextPage ? rows.length : undefined}
          picks={picks}
          setPicks={setPicks}
        />
      ) : null}
      <DataTable
        key={`${status ?? 'all'}:${view.sort ? sortParam(view.sort) : ''}`}
        selection={selection}
        label={t('requestsTableLabel')}
        columns={columns}
        rows={rows}
        rowKey={(r) => String(r.Id)}
        {...pagedTableProps(list, rows !== undefined, common('tableFetchError'))}
        pageSize={IMPERSONATION_TABLE_PAGE_SIZE}
        view={view}
        csvExport={{ download: streamedFile('impersonationRequestsExport', listQuery(status, view.sort)) }}
      />
      <NextPageError list={list} fetchError={common('tableFetchError')} />
      {linked !== undefined && linkedOne.isSuccess && !linkedRow ? (
        <p className="form-alert" role="alert">
          {t('linkedRequestMissing', { id: linked })}
        </p>
      ) : null}
      {open ? <RequestDialog request={open} onClose={close} /> : null}
    </section>
  );
}
