import type { Dashboard } from '@sac/contract/dashboard';
import type { BodyOf, QueryOf, ResponseOf } from '@sac/contract/endpoints';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { callApi } from '../../../lib/api-client.ts';
import { useOnChange } from '../../../lib/live-changes.ts';

const dashboardKeys = { all: ['dashboard'] as const };

/**
 * GET /admin/dashboard: read on every visit, again whenever the notification stream says the
 * impersonation requests changed (asked for, consented to, decided), and each minute while the
 * screen is open (the figures the stream does not announce).
 */
export function useDashboard() {
  const queryClient = useQueryClient();
  useOnChange('impersonation', () => void queryClient.invalidateQueries({ queryKey: dashboardKeys.all }));
  return useQuery({
    queryKey: dashboardKeys.all,
    queryFn: ({ signal }) => callApi('dashboard', { signal }),
    staleTime: 0,
    refetchInterval: 60_000,
  });
}

export type { Dashboard };

/** POST /admin/impersonation/break-glass/review: closed with a note; the dashboard is read again. */
export function useCloseBreakGlassReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...dashboardKeys.all, 'break-glass-review'],
    mutationFn: (body: BodyOf<'breakGlassReviewClose'>) => callApi('breakGlassReviewClose', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
  });
}

/**
 * GET /admin/audit/stream, for those who read the trail: how far the operator's SIEM stream has
 * got, each minute while the home screen is open.
 */
export const useTrailStream = () =>
  useQuery({
    queryKey: [...dashboardKeys.all, 'trail-stream'],
    queryFn: async ({ signal }) => (await callApi('auditStream', { signal })).Sinks,
    refetchInterval: 60_000,
  });

export type EndingTrial = ResponseOf<'trialsEnding'>['Data'][number];

/** GET /admin/dashboard/trials-ending, the page after `cursor` (`sort`: 'ends' or '-ends'). */
export const readTrialsEnding =
  (days: number, sort: string | undefined, limit?: number) =>
  (cursor: string | undefined, signal: AbortSignal) =>
    callApi('trialsEnding', {
      query: {
        days,
        ...(sort ? { sort } : {}),
        ...(limit ? { limit } : {}),
        ...(cursor ? { cursor } : {}),
      },
      signal,
    });

/** The sites whose trial ends within `days` days, a page of 50 at a time. */
export function useTrialsEnding(days: number, sort?: string) {
  const list = useInfiniteQuery({
    queryKey: [...dashboardKeys.all, 'trials-ending', days, sort ?? ''],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => readTrialsEnding(days, sort)(pageParam, signal),
    getNextPageParam: (last) => last.NextCursor ?? undefined,
  });
  const rows = useMemo(() => list.data?.pages.flatMap((p): EndingTrial[] => p.Data), [list.data]);
  return { list, rows };
}

export type BreakGlassReviewState = NonNullable<QueryOf<'breakGlassReviews'>['state']>;

/**
 * GET /admin/impersonation/break-glass/reviews, 50 a page: the open reviews, the recently closed,
 * or both. Under the dashboard's key, so a review closed (here or on the card) reads both again.
 */
export function useBreakGlassReviews(state: BreakGlassReviewState) {
  const list = useInfiniteQuery({
    queryKey: [...dashboardKeys.all, 'break-glass-reviews', state],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      callApi('breakGlassReviews', { query: { state, ...(pageParam ? { cursor: pageParam } : {}) }, signal }),
    getNextPageParam: (last) => last.NextCursor ?? undefined,
  });
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.Data), [list.data]);
  return { list, rows };
}
