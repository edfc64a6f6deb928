// The custom domains calls: a site's domains and their DNS checks, and every site's domains.
import type { ResponseOf } from '@sac/contract/endpoints';
import type { DomainListFilter } from '@sac/contract/site-settings';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApiAuth } from '../../../lib/api-auth.tsx';
import { callApi } from '../../../lib/api-client.ts';
import { call, retryOf, type SiteRef, siteSettingsKeys } from './site-query.ts';

export type CustomDomain = ResponseOf<'customDomainList'>['Data'][number];

/**
 * GET /admin/hubdomain: custom domains point a CNAME at <site>.<hub domain>. A fact of the
 * platform, not of a site, so it is read with the staff member's own pair, impersonating or not.
 */
export function useHubDomain() {
  return useQuery({
    queryKey: siteSettingsKeys.hubDomain(),
    queryFn: async ({ signal }) => (await callApi('hubDomain', { signal })).Data.HubDomain,
    staleTime: 5 * 60_000,
  });
}

/** GET /admin/customdomain/bindingrequest: the domains, their status and DNS records. */
export function useCustomDomains(s: SiteRef) {
  const a = useApiAuth();
  return useQuery({
    queryKey: siteSettingsKeys.customDomains(a, s),
    queryFn: async ({ signal }) => (await callApi('customDomainList', call(a, s, signal))).Data,
    ...retryOf(a),
  });
}

export type ListedDomain = ResponseOf<'customDomainsAll'>['Data'][number];

/**
 * GET /admin/customdomains, the page after `cursor`, filtered and ordered (`sort`: a key of
 * DOMAIN_SORT_KEYS, '-' before it for the other way).
 */
export const readEverySiteDomains =
  (status: DomainListFilter | undefined, sort: string | undefined, limit?: number) =>
  (cursor: string | undefined, signal: AbortSignal) =>
    callApi('customDomainsAll', {
      query: {
        ...(status ? { status } : {}),
        ...(sort ? { sort } : {}),
        ...(limit ? { limit } : {}),
        ...(cursor ? { cursor } : {}),
      },
      signal,
    });

export function useEverySiteDomains(status: DomainListFilter | undefined, sort?: string) {
  const list = useInfiniteQuery({
    queryKey: [...siteSettingsKeys.everySiteDomains(status), sort ?? ''],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => readEverySiteDomains(status, sort)(pageParam, signal),
    getNextPageParam: (last) => last.NextCursor ?? undefined,
  });
  const rows = useMemo(() => list.data?.pages.flatMap((p): ListedDomain[] => p.Data), [list.data]);
  return { list, rows };
}

function useDomainsCache(s: SiteRef) {
  const a = useApiAuth();
  const queryClient = useQueryClient();
  return (update: (rows: CustomDomain[]) => CustomDomain[]) =>
    queryClient.setQueryData<CustomDomain[]>(siteSettingsKeys.customDomains(a, s), (rows) =>
      update(rows ?? []),
    );
}

/** POST /admin/customdomain/bindingrequest {domain}: the new domain (pending) joins the list. */
export function useAddCustomDomain(s: SiteRef) {
  const a = useApiAuth();
  const setRows = useDomainsCache(s);
  return useMutation({
    mutationKey: [...siteSettingsKeys.customDomains(a, s), 'add'],
    mutationFn: (domain: string) => callApi('customDomainCreate', { ...call(a, s), body: { domain } }),
    onSuccess: (answer) =>
      setRows((rows) => [...rows.filter((r) => r.Domain !== answer.Data.Domain), answer.Data]),
  });
}

/** POST /admin/customdomain/verify {domain}: the row takes the answer (verified or the check's result). */
export function useVerifyCustomDomain(s: SiteRef) {
  const a = useApiAuth();
  const setRows = useDomainsCache(s);
  return useMutation({
    mutationKey: [...siteSettingsKeys.customDomains(a, s), 'verify'],
    mutationFn: (domain: string) => callApi('customDomainVerify', { ...call(a, s), body: { domain } }),
    onSuccess: (answer) =>
      setRows((rows) => rows.map((r) => (r.Domain === answer.Data.Domain ? answer.Data : r))),
  });
}

/** DELETE /admin/customdomain/bindingrequest {domain}: the row leaves the list. */
export function useDeleteCustomDomain(s: SiteRef) {
  const a = useApiAuth();
  const setRows = useDomainsCache(s);
  return useMutation({
    mutationKey: [...siteSettingsKeys.customDomains(a, s), 'delete'],
    mutationFn: (domain: string) => callApi('customDomainDelete', { ...call(a, s), body: { domain } }),
    onSuccess: (_answer, domain) => setRows((rows) => rows.filter((r) => r.Domain !== domain)),
  });
}
