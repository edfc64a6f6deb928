import type { SearchCriterion } from '@sac/contract/customers';
import { type ListSort, sortParam } from '@sac/contract/list-sort';
import { infiniteQueryOptions, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, callApiVersioned } from '../../../lib/api-client.ts';

/** One search: the criterion used and its (trimmed) term. */
export interface CustomerSearch {
  criterion: SearchCriterion;
  term: string;
}

/** The search's query: its criterion, and the order when one is chosen (else the rank). */
export const searchQuery = (s: CustomerSearch, sort: ListSort | undefined) => ({
  [s.criterion]: s.term,
  ...(sort ? { sort: sortParam(sort) } : {}),
});

/** Query keys of the customers feature. */
export const customerKeys = {
  all: ['customers'] as const,
  search: (s: CustomerSearch, sort: ListSort | undefined) =>
    [...customerKeys.all, 'search', s.criterion, s.term, sort ? sortParam(sort) : 'rank'] as const,
  customer: (uid: string) => [...customerKeys.all, 'customer', uid] as const,
  profile: (uid: string) => [...customerKeys.customer(uid), 'profile'] as const,
  /** The ETag the cached profile was read at (set by the profile's read and write, never fetched). */
  profileVersion: (uid: string) => [...customerKeys.all, 'profile-version', uid] as const,
  account: (uid: string) => [...customerKeys.customer(uid), 'account'] as const,
  logins: (uid: string) => [...customerKeys.customer(uid), 'logins'] as const,
  ownedSites: (uid: string) => [...customerKeys.customer(uid), 'owned-sites'] as const,
  sharedSites: (uid: string) => [...customerKeys.customer(uid), 'shared-sites'] as const,
  siteInfo: (uid: string, appId: number) => [...customerKeys.customer(uid), 'site', appId] as const,
  activity: (uid: string) => [...customerKeys.customer(uid), 'activity'] as const,
};

/**
 * GET /admin/searchcustomer with the one criterion; 404 with ErrorCode 927 when nothing matches.
 * Pages of 50 customers: the next page is asked for with the answer's NextCursor ('' when done).
 */
const customerSearchQuery = (s: CustomerSearch, sort: ListSort | undefined) =>
  infiniteQueryOptions({
    queryKey: customerKeys.search(s, sort),
    queryFn: ({ signal, pageParam }) =>
      callApi('searchCustomer', {
        query: { ...searchQuery(s, sort), ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
      }),
    initialPageParam: '',
    getNextPageParam: (last) => last.NextCursor || undefined,
  });

export const useCustomerSearch = (s: CustomerSearch | undefined, sort: ListSort | undefined) =>
  useInfiniteQuery({
    ...customerSearchQuery(s ?? { criterion: 'customerName', term: '' }, sort),
    enabled: s !== undefined,
  });

/** GET /admin/customerprofilebyuid: contact info. */
export const useCustomerProfile = (uid: string, enabled = true) => {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: customerKeys.profile(uid),
    queryFn: async ({ signal }) => {
      const { body, etag } = await callApiVersioned('customerProfile', { query: { uid }, signal });
      // The version this profile was read at, for a write from a form filled with it.
      queryClient.setQueryData(customerKeys.profileVersion(uid), etag ?? null);
      return body.Data;
    },
    enabled: enabled && uid !== '',
  });
};

/** GET /admin/userprofilebyuid: account info. */
export const useUserProfile = (uid: string) =>
  useQuery({
    queryKey: customerKeys.account(uid),
    queryFn: async ({ signal }) => (await callApi('userProfile', { query: { uid }, signal })).Data,
  });

/** GET /admin/loginsessionbyuid: the latest sign-ins. */
export const useLoginSessions = (uid: string) =>
  useQuery({
    queryKey: customerKeys.logins(uid),
    queryFn: async ({ signal }) => (await callApi('loginSessions', { query: { uid }, signal })).Data,
  });

/** GET /admin/apps: the sites the customer owns. */
export const useOwnedSites = (uid: string, enabled = true) =>
  useQuery({
    queryKey: customerKeys.ownedSites(uid),
    queryFn: async ({ signal }) => (await callApi('customerApps', { query: { uid }, signal })).Data,
    enabled: enabled && uid !== '',
  });

/** GET /admin/sharedapps: the sites shared with the customer. */
export const useSharedSites = (uid: string) =>
  useQuery({
    queryKey: customerKeys.sharedSites(uid),
    queryFn: async ({ signal }) => (await callApi('sharedApps', { query: { uid }, signal })).Data,
  });

/** GET /admin/appinfobyid: everything about one site of the customer. */
export const useSiteInfo = (uid: string, appId: number) =>
  useQuery({
    queryKey: customerKeys.siteInfo(uid, appId),
    queryFn: async ({ signal }) =>
      (await callApi('appInfoById', { query: { uId: uid, appId }, signal })).Data,
  });

/** GET /admin/activitylogs, newest first; each page's NextCursor fetches the older one (0: none). */
const activityLogsQuery = (uid: string) =>
  infiniteQueryOptions({
    queryKey: customerKeys.activity(uid),
    queryFn: ({ pageParam, signal }) =>
      callApi('activityLogs', { query: { uid, cursor: pageParam }, signal }),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.NextCursor > 0 ? last.NextCursor : undefined),
  });

export const useActivityLogs = (uid: string) => useInfiniteQuery(activityLogsQuery(uid));
