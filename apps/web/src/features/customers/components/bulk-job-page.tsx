import type { BulkJob } from '@sac/contract/bulk';
import { consolePaths } from '@sac/contract/console-paths';
import { useMemo } from 'react';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router';
import { BulkJobActions, BulkJobStatus } from '../../../components/bulk-job-status.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { QueryStatus } from '../../../components/query-status.tsx';
import { useBreadcrumbParent } from '../../../lib/breadcrumb-parent.ts';
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

/**
 * The job's own list: the customer's page (their sites), the customer search, the impersonation
 * requests, the team list, the colleague's profile (their sessions); and the words of the link back to it.
 */
function listOf(job: BulkJob) {
  switch (job.List) {
    case 'customer-sites':
      return { to: consolePaths.customerView({ uid: job.Uid ?? '' }), back: 'bulkCustomer' } as const;
    case 'staff-sessions':
      return {
        to: consolePaths.superuserProfile({ uid: job.StaffUid ?? '' }),
        back: 'bulkSessionsBack',
      } as const;
    case 'team-invitations':
      return { to: consolePaths.superusers(), back: 'bulkTeamBack' } as const;
    case 'customers':
      return { to: consolePaths.customerSearch(), back: 'bulkCustomersBack' } as const;
    case 'impersonation-requests':
      return { to: consolePaths.impersonationRequests(), back: 'bulkRequestsBack' } as const;
  }
}

/** Who asked for the job, and with which API token when it was one (a deleted one said so). */
function requesterOf(job: BulkJob, t: ReturnType<typeof useT<'customers'>>): string {
  if (!job.ApiToken) return job.Actor;
  return job.ApiToken.Name === null
    ? t('bulkJobActorTokenGone', { actor: job.Actor })
    : t('bulkJobActorToken', { actor: job.Actor, name: job.ApiToken.Name });
}

/**
 * /bulk-job?id=: a bulk job of any list, followed while it moves; cancel, approve and undo here
 * too. The breadcrumb runs through the job's own list, and the page links back to it.
 */
export default function BulkJobPage() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  // the former address (links mailed and belled before the page had its own): on, with the job
  if (pathname === consolePaths.bulkJobBefore.path)
    return <Navigate to={`${consolePaths.bulkJob.path}?${params.toString()}`} replace />;
  return <JobView params={params} />;
}

function JobView({ params }: { params: URLSearchParams }) {
  const t = useT('customers');
  const id = Number(params.get('id'));
  const q = useBulkJob(Number.isInteger(id) && id > 0 ? id : undefined);
  const job = q.data;
  const columns = useItemColumns(job?.List);
  const list = job ? listOf(job) : undefined;
  useBreadcrumbParent(list?.to);
  return (
    <div className="page">
      <h1>{t('bulkJobTitle', { id: Number.isInteger(id) ? id : '' })}</h1>
      {job ? (
        <section className="card" aria-labelledby="bulk-job-about">
          <p id="bulk-job-about">
            {t(ABOUT[job.List], {
              action: t(`bulkAction.${job.Action}`),
              count: job.Count,
              actor: requesterOf(job, t),
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
          {list ? (
            <p>
              <Link to={list.to}>{t(list.back)}</Link>
            </p>
          ) : null}
        </section>
      ) : (
        <QueryStatus query={q} />
      )}
    </div>
  );
}
