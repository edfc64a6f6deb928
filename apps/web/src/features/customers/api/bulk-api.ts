import type { BulkDryRunBody, BulkJob } from '@sac/contract/bulk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { customerKeys } from './customers-api.ts';

/** Query keys of bulk jobs (under the customers feature: a job's end refreshes the site lists). */
const bulkKeys = { job: (id: number) => [...customerKeys.all, 'bulk-job', id] as const };

/** A job still moving: its read is polled until it is done or cancelled. */
export const jobMoving = (job: BulkJob | undefined) =>
  job !== undefined && job.State !== 'done' && job.State !== 'cancelled';

/** GET /admin/bulk/job, polled every second while the job waits or runs. */
export function useBulkJob(id: number | undefined) {
  return useQuery({
    queryKey: bulkKeys.job(id ?? 0),
    enabled: id !== undefined,
    queryFn: async ({ signal }) => (await callApi('bulkJob', { query: { id: id! }, signal })).Data,
    refetchInterval: (q) => (jobMoving(q.state.data) ? 1000 : false),
  });
}

/** POST /admin/bulk/dryrun: the plan of a selection (nothing changes). */
export function useBulkDryRun() {
  return useMutation({
    mutationFn: async (body: BulkDryRunBody) => (await callApi('bulkDryRun', { body })).Data,
    meta: { errorFallback: false },
  });
}

/**
 * POST /admin/bulk/run, cancel, undo and approve: the job answered is put in the cache, and the
 * customer's sites are read again (a cancel or an undo may have changed some already).
 */
export function useBulkStep(step: 'bulkRun' | 'bulkCancel' | 'bulkUndo' | 'bulkApprove', uid?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...customerKeys.all, step],
    mutationFn: async (Id: number) => (await callApi(step, { body: { Id } })).Data,
    onSuccess: (job) => {
      queryClient.setQueryData(bulkKeys.job(job.Id), job);
      const owner = uid ?? job.Uid;
      void queryClient.invalidateQueries({ queryKey: customerKeys.ownedSites(owner) });
    },
  });
}

/** Reads the customer's sites again once a job ended (its read says so). */
export function useRefreshSitesWhenDone() {
  const queryClient = useQueryClient();
  return (job: BulkJob) => {
    void queryClient.invalidateQueries({ queryKey: customerKeys.ownedSites(job.Uid) });
    void queryClient.invalidateQueries({ queryKey: customerKeys.activity(job.Uid) });
  };
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
