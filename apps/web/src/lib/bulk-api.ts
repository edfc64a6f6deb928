import type { BulkDryRunBody, BulkJob } from '@sac/contract/bulk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from './api-client.ts';

/**
 * The console's side of bulk jobs, for every list (docs/decisions.md, "Bulk actions"): the dry
 * run of the list's endpoint, the job's steps and its read, polled while it moves.
 */

const bulkKeys = { job: (id: number) => ['bulk-job', id] as const };

/** A job still moving: its read is polled until it is done, cancelled or failed. */
export const jobMoving = (job: BulkJob | undefined) =>
  job !== undefined && job.State !== 'done' && job.State !== 'cancelled' && job.State !== 'failed';

/** GET /admin/bulk/job, polled every second while the job waits or runs. */
export function useBulkJob(id: number | undefined) {
  return useQuery({
    queryKey: bulkKeys.job(id ?? 0),
    enabled: id !== undefined,
    queryFn: async ({ signal }) => (await callApi('bulkJob', { query: { id: id! }, signal })).Data,
    refetchInterval: (q) => (jobMoving(q.state.data) ? 1000 : false),
  });
}

type CustomersBody = Extract<BulkDryRunBody, { Action: `customer.${string}` }>;
/** A dry run of the customer search's (its own actions: an action is of one list). */
const ofCustomers = (body: BulkDryRunBody): body is CustomersBody => body.Action.startsWith('customer.');

/** POST the dry run of the action's list (nothing changes): the plan. */
export function useBulkDryRun() {
  return useMutation({
    mutationFn: async (body: BulkDryRunBody) => {
      if ('Uid' in body) return (await callApi('bulkDryRun', { body })).Data;
      if ('StaffUid' in body) return (await callApi('bulkSessionsDryRun', { body })).Data;
      if (body.Action === 'invitation.resend') return (await callApi('bulkInvitationsDryRun', { body })).Data;
      if (ofCustomers(body)) return (await callApi('bulkCustomersDryRun', { body })).Data;
      return (await callApi('bulkRequestsDryRun', { body })).Data;
    },
    meta: { errorFallback: false },
  });
}

/**
 * The lists a job's step or end may have changed are read again: every list shown (the job's
 * list is the one on screen, or behind the job's page), not only that list's query.
 */
export function useRefreshWhenDone() {
  const queryClient = useQueryClient();
  return (_job: BulkJob) => void queryClient.invalidateQueries({ type: 'active' });
}

/** POST /admin/bulk/run, cancel, undo and approve: the job answered is put in the cache. */
export function useBulkStep(step: 'bulkRun' | 'bulkCancel' | 'bulkUndo' | 'bulkApprove') {
  const queryClient = useQueryClient();
  const refresh = useRefreshWhenDone();
  return useMutation({
    mutationKey: ['bulk', step],
    mutationFn: async (Id: number) => (await callApi(step, { body: { Id } })).Data,
    onSuccess: (job) => {
      queryClient.setQueryData(bulkKeys.job(job.Id), job);
      // a cancel or an undo may have changed some items already
      refresh(job);
    },
  });
}

/** Runs an undo and follows its job until it ends; answers the ended job. */
export async function undoAndFollow(id: number, onMoved: (job: BulkJob) => void): Promise<BulkJob> {
  let job = (await callApi('bulkUndo', { body: { Id: id } })).Data;
  while (jobMoving(job)) {
    await new Promise((r) => setTimeout(r, 500));
    job = (await callApi('bulkJob', { query: { id: job.Id } })).Data;
  }
  onMoved(job);
  return job;
}
