import type { BodyOf, QueryOf, ResponseOf } from '@sac/contract/endpoints';
import type { NoticeAudience } from '@sac/contract/notices';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';

export type Notice = ResponseOf<'noticeList'>['Data'][number];
export type NoticeWithText = ResponseOf<'noticeOne'>['Data'];
export type Delivery = ResponseOf<'noticeDeliveries'>['Data'][number];
export type PickedSite = ResponseOf<'noticeSiteOptions'>['Data'][number];
export type DeliveryFilter = QueryOf<'noticeDeliveries'>['status'];

const noticeKeys = {
  all: ['notices'] as const,
  list: () => [...noticeKeys.all, 'list'] as const,
  one: (id: number) => [...noticeKeys.all, 'one', id] as const,
  deliveries: (id: number, status: DeliveryFilter) =>
    [...noticeKeys.all, 'deliveries', id, status ?? ''] as const,
  options: () => [...noticeKeys.all, 'options'] as const,
  sites: (term: string) => [...noticeKeys.all, 'sites', term] as const,
  count: (a: NoticeAudience) => [...noticeKeys.all, 'count', a] as const,
};

/** While a notice is being sent, its progress is read again every few seconds. */
const SENDING_REFRESH_MS = 3_000;
const sending = (rows: readonly { Status: string }[] | undefined) =>
  rows?.some((n) => n.Status === 'sending' || n.Status === 'scheduled') ? SENDING_REFRESH_MS : false;

/** GET /admin/notices, newest first; each next page continues from NextCursor. */
/** GET /admin/notices, the page after `cursor`. */
export const readNotices = (cursor: string | undefined, signal: AbortSignal) =>
  callApi('noticeList', { query: cursor ? { cursor } : {}, signal });

export const useNotices = () =>
  useInfiniteQuery({
    queryKey: noticeKeys.list(),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => readNotices(pageParam, signal),
    getNextPageParam: (last) => last.NextCursor ?? undefined,
    refetchInterval: (q) => sending(q.state.data?.pages.flatMap((p) => p.Data)),
  });

/** GET /admin/notices/one?id=, again every few seconds while it is being sent. */
export const useNotice = (id: number) =>
  useQuery({
    queryKey: noticeKeys.one(id),
    queryFn: async ({ signal }) => (await callApi('noticeOne', { query: { id }, signal })).Data,
    refetchInterval: (q) => sending(q.state.data ? [q.state.data] : undefined),
  });

/** GET /admin/notices/deliveries: the delivery log, a page at a time. */
export const useDeliveries = (id: number, status: DeliveryFilter, live: boolean) =>
  useInfiniteQuery({
    queryKey: noticeKeys.deliveries(id, status),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      callApi('noticeDeliveries', {
        query: { id, ...(status ? { status } : {}), ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
      }),
    getNextPageParam: (last) => last.NextCursor ?? undefined,
    refetchInterval: live ? SENDING_REFRESH_MS : false,
  });

/** GET /admin/notices/site-options: sites found by site or owner name, for the site picker. */
export const useSiteOptions = (term: string) =>
  useQuery({
    queryKey: noticeKeys.sites(term),
    queryFn: async ({ signal }) => (await callApi('noticeSiteOptions', { query: { term }, signal })).Data,
    enabled: term !== '',
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });

/** GET /admin/notices/audience-options: plans and data centers. */
export const useAudienceOptions = () =>
  useQuery({
    queryKey: noticeKeys.options(),
    queryFn: ({ signal }) => callApi('noticeAudienceOptions', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** POST /admin/notices/recipients: the audience's recipients now (the previous count stays while typing). */
export const useRecipientCount = (audience: NoticeAudience | undefined) =>
  useQuery({
    queryKey: noticeKeys.count(audience ?? { Type: 'all' }),
    queryFn: ({ signal }) => callApi('noticeRecipients', { body: { Audience: audience! }, signal }),
    enabled: audience !== undefined,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export function useCreateNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...noticeKeys.all, 'create'],
    mutationFn: async (body: BodyOf<'noticeCreate'>) => (await callApi('noticeCreate', { body })).Data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: noticeKeys.list() }),
  });
}

export function useCancelNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...noticeKeys.all, 'cancel'],
    mutationFn: async (id: number) => (await callApi('noticeCancel', { body: { Id: id } })).Data,
    onSuccess: (n) => {
      queryClient.setQueryData(noticeKeys.one(n.Id), n);
      return queryClient.invalidateQueries({ queryKey: noticeKeys.list() });
    },
  });
}

/** GET /admin/notices/unsubscribe?token= (public): the link's address, masked, and its state. */
export const useUnsubscribeDetails = (token: string, enabled: boolean) =>
  useQuery({
    queryKey: [...noticeKeys.all, 'unsubscribe', token],
    queryFn: ({ signal }) => callApi('noticeUnsubscribeDetails', { query: { token }, signal }),
    enabled,
    retry: false,
  });

export const useUnsubscribe = () =>
  useMutation({
    mutationKey: [...noticeKeys.all, 'unsubscribe'],
    meta: { errorFallback: false },
    mutationFn: (token: string) => callApi('noticeUnsubscribe', { query: { token } }),
  });
