import type { BulkJob } from '@sac/contract/bulk';
import { consolePaths } from '@sac/contract/console-paths';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BulkJobActions, BulkJobStatus } from '../../../components/bulk-job-status.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { QueryStatus } from '../../../components/query-status.tsx';
import { useBulkJob } from '../../../lib/bulk-api.ts';
import { useT } from '../../../lib/i18n.tsx';

type Item = BulkJob['Items'][number];

/** The sentence about a job, per list. */
const ABOUT = {
  'customer-sites': 'bulkJobAbout',
  'impersonation-requests': 'bulkJobAboutRequests',
  'staff-sessions': 'bulkJobAboutSessions',
  'team-invitations': 'bulkJobAboutMembers',
  customers: 'bulkJobAboutCustomers',
} as const;

/**
 * The items' columns: the item as its list shows it (a site's name; a request's Id, site and
 * requester), what the dry run planned, what the run did, and why.
 */
function useItemColumns(list: BulkJob['List'] | undefined): Column<Item>[] {
  const t = useT('customers');
  return useMemo(
    () => [
      {
        id: 'item',
        header:
          list === 'impersonation-requests'
            ? t('bulkItemRequest')
            : list === 'staff-sessions'
              ? t('bulkItemSession')
              : list === 'team-invitations'
                ? t('bulkItemMember')
                : t('bulkItemSite'),
        sortValue: (i) => i.Label,
        // a request opens in its list's popup; a site of the customer search, its owner's page
        cell: (i) =>
          list === 'impersonation-requests' ? (
            <Link to={consolePaths.impersonationRequests({ request: i.Target })}>{i.Label}</Link>
          ) : list === 'customers' && i.Key ? (
            <Link to={consolePaths.customerView({ uid: i.Key })}>{i.Label}</Link>
          ) : (
            i.Label
          ),
      },
      {
        id: 'planned',
        header: t('bulkItemPlanned'),
        sortValue: (i) => i.Planned,
        cell: (i) => t(`bulkOutcome.${i.Planned}`),
      },
      {
        id: 'outcome',
        header: t('bulkItemOutcome'),
        sortValue: (i) => i.Outcome ?? '',
        cell: (i) => (i.Outcome ? t(`bulkOutcome.${i.Outcome}`) : t('bulkOutcomePending')),
      },
      {
        id: 'reason',
        header: t('bulkItemReason'),
        sortValue: (i) => i.OutcomeReason ?? i.PlannedReason ?? '',
        cell: (i) => i.OutcomeReason ?? i.PlannedReason ?? '',
      },
    ],
    [t, list],
  );
}

/** Where the job's list is: the customer's page, a colleague's, the team, the search, or the impersonation requests. */
function BackLink({ job }: { job: BulkJob }) {
  const t = useT('customers');
  if (job.Uid) return <Link to={consolePaths.customerView({ uid: job.Uid })}>{t('bulkCustomer')}</Link>;
  if (job.StaffUid)
    return <Link to={consolePaths.superuserProfile({ uid: job.StaffUid })}>{t('bulkSessionsBack')}</Link>;
  if (job.List === 'team-invitations') return <Link to={consolePaths.superusers()}>{t('bulkTeamBack')}</Link>;
  if (job.List === 'customers')
    return <Link to={consolePaths.customerSearch()}>{t('bulkCustomersBack')}</Link>;
  return <Link to={consolePaths.impersonationRequests()}>{t('bulkRequestsBack')}</Link>;
}

/** /manage-customer/bulk-job?id=: a bulk job of any list, followed while it moves; cancel, approve and undo here too. */
export default function BulkJobPage() {
  const t = useT('customers');
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const q = useBulkJob(Number.isInteger(id) && id > 0 ? id : undefined);
  const job = q.data;
  const columns = useItemColumns(job?.List);
  return (
    <div className="page">
      <h1>{t('bulkJobTitle', { id: Number.isInteger(id) ? id : '' })}</h1>
      {job ? (
        <section className="card" aria-labelledby="bulk-job-about">
          <p id="bulk-job-about">
            {t(ABOUT[job.List], {
              action: t(`bulkAction.${job.Action}`),
              count: job.Count,
              actor: job.Actor,
            })}
          </p>
          {job.UndoOf ? <p>{t('bulkUndoOf', { id: job.UndoOf })}</p> : null}
          {job.UndoneBy ? (
            <p>
              <Link to={consolePaths.bulkJob({ id: job.UndoneBy })}>
                {t('bulkUndoneBy', { id: job.UndoneBy })}
              </Link>
            </p>
          ) : null}
          {job.ApprovedBy ? <p>{t('bulkApprovedBy', { who: job.ApprovedBy })}</p> : null}
          <BulkJobStatus job={job} />
          {job.UndoUntil ? (
            <p className="muted">
              {t('bulkUndoUntil', { time: new Date(job.UndoUntil).toLocaleTimeString() })}
            </p>
          ) : null}
          <BulkJobActions job={job} />
          <DataTable
            label={t('bulkItemsLabel')}
            columns={columns}
            rows={job.Items}
            rowKey={(i) => String(i.Seq)}
            isLoading={false}
            pageSize={25}
          />
          <p>
            <BackLink job={job} />
          </p>
        </section>
      ) : (
        <QueryStatus query={q} />
      )}
    </div>
  );
}
