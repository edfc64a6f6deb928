import { versionTag } from '@sac/contract/constants';
import type { BodyOf } from '@sac/contract/endpoints';
import type { WebhookDelivery } from '@sac/contract/webhooks';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { callApi } from '../../../lib/api-client.ts';

export type DeliveryState = WebhookDelivery['State'];

/** Query keys of the webhooks feature. */
const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: number) => [...webhookKeys.all, 'deliveries', id] as const,
};

/** While a delivery is pending, the list and the log are read again this often. */
const PENDING_REFRESH_MS = 3000;

/** GET /admin/webhooks: the subscriptions, the event types with their meaning, the address rule. */
export const useWebhooks = () =>
  useQuery({
    queryKey: webhookKeys.list(),
    queryFn: ({ signal }) => callApi('webhookList', { signal }),
    refetchInterval: (q) => (q.state.data?.Data.some((s) => s.Pending > 0) ? PENDING_REFRESH_MS : false),
  });

/** GET /admin/webhooks/deliveries: one subscription's log, newest first, a page at a time. */
export function useWebhookDeliveries(id: number, state: DeliveryState | undefined) {
  const list = useInfiniteQuery({
    queryKey: [...webhookKeys.deliveries(id), state ?? ''],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam, signal }) =>
      callApi('webhookDeliveries', {
        query: { id, ...(pageParam ? { before: pageParam } : {}), ...(state ? { state } : {}) },
        signal,
      }),
    getNextPageParam: (last) => last.Before ?? undefined,
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.Data.some((d) => d.State === 'pending')) ? PENDING_REFRESH_MS : false,
  });
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.Data), [list.data]);
  return { list, rows };
}

/** Every webhook read (the list and the logs) again, after a change. */
function useReload() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
}

/** POST /admin/webhooks (answers the secret, once) or PUT with If-Match: the row's version. */
export function useSaveWebhook() {
  const reload = useReload();
  return useMutation({
    mutationKey: [...webhookKeys.all, 'save'],
    // The form shows what went wrong, by field or above it: no toast besides.
    meta: { errorFallback: false },
    mutationFn: async (v: { body: BodyOf<'webhookCreate'>; id?: number; version?: number }) =>
      v.id === undefined
        ? callApi('webhookCreate', { body: v.body })
        : {
            ...(await callApi('webhookUpdate', {
              body: { ...v.body, Id: v.id },
              ...(v.version === undefined ? {} : { ifMatch: versionTag(v.version) }),
            })),
            Secret: undefined,
          },
    onSettled: reload,
  });
}

type Act = 'webhookDelete' | 'webhookPause' | 'webhookResume' | 'webhookTest';

/** One of the acts on a subscription that take its id only; the list and the logs reload. */
export function useWebhookAct<I extends Act>(act: I) {
  const reload = useReload();
  return useMutation({
    mutationKey: [...webhookKeys.all, act],
    mutationFn: (Id: number) => callApi<Act>(act, { body: { Id } }),
    onSettled: reload,
  });
}

/** POST /admin/webhooks/rotate-secret: the new secret, once. */
export function useRotateWebhookSecret() {
  const reload = useReload();
  return useMutation({
    mutationKey: [...webhookKeys.all, 'rotate'],
    mutationFn: (body: BodyOf<'webhookRotateSecret'>) => callApi('webhookRotateSecret', { body }),
    onSettled: reload,
  });
}

/** POST /admin/webhooks/redeliver: the event again, with its webhook-id. */
export function useRedeliverWebhook() {
  const reload = useReload();
  return useMutation({
    mutationKey: [...webhookKeys.all, 'redeliver'],
    mutationFn: (body: BodyOf<'webhookRedeliver'>) => callApi('webhookRedeliver', { body }),
    onSettled: reload,
  });
}
