import type { Site } from '@sac/contract/customers';
import type { BodyOf } from '@sac/contract/endpoints';
import { MESSAGES } from '@sac/contract/messages';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, callApiVersioned } from '../../../lib/api-client.ts';
import { keepVersion } from '../../../lib/record-version.ts';
import { customerKeys } from './customers-api.ts';

/** Query keys of the site form's reads (under the customer, so a customer's writes reach them). */
export const siteFormKeys = {
  catalogue: () => [...customerKeys.all, 'features-catalogue'] as const,
  basic: (uid: string, appId: number) => [...customerKeys.siteInfo(uid, appId), 'basic'] as const,
  features: (uid: string, appId: number) => [...customerKeys.siteInfo(uid, appId), 'features'] as const,
  dataCenter: (uid: string, appId: number) => [...customerKeys.siteInfo(uid, appId), 'data-center'] as const,
};

/** GET /admin/features: the features and feature sets. */
const featuresCatalogueQuery = () =>
  queryOptions({
    queryKey: siteFormKeys.catalogue(),
    queryFn: async ({ signal }) => (await callApi('features', { signal })).Data,
    staleTime: 5 * 60_000,
    // The step offers Retry: fail at once.
    retry: false,
    meta: { errorToast: MESSAGES.featureSetUnavailable },
  });
export const useFeaturesCatalogue = () => useQuery(featuresCatalogueQuery());

/** GET /admin/site/basicsettings: web apps, plan and trial of one site. */
export const useSiteBasicSettings = (uid: string, appId: number | undefined) => {
  const queryClient = useQueryClient();
  const key = siteFormKeys.basic(uid, appId ?? 0);
  return useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const { body, etag } = await callApiVersioned('siteBasicSettings', {
        query: { uID: uid, appId: appId! },
        signal,
      });
      keepVersion(queryClient, key, etag);
      return body.Data;
    },
    enabled: appId !== undefined,
  });
};

/** GET /admin/site/feature: a site's features (their version kept for step 3's save). */
export const useSiteFeatures = (uid: string, appId: number | undefined) => {
  const queryClient = useQueryClient();
  const key = siteFormKeys.features(uid, appId ?? 0);
  return useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const { body, etag } = await callApiVersioned('siteFeature', {
        query: { userId: uid, appId: appId! },
        signal,
      });
      keepVersion(queryClient, key, etag);
      return body.Data;
    },
    enabled: appId !== undefined,
  });
};

/**
 * GET /admin/site/datacenter: the data centers, global servers and the site's current choice
 * (its version kept for step 4's save).
 */
export const useSiteDataCenter = (uid: string, appId: number | undefined) => {
  const queryClient = useQueryClient();
  const key = siteFormKeys.dataCenter(uid, appId ?? 0);
  return useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const { body, etag } = await callApiVersioned('siteDataCenter', {
        query: { userId: uid, appId: appId! },
        signal,
      });
      keepVersion(queryClient, key, etag);
      return body.Data;
    },
    enabled: appId !== undefined,
    // The step offers Retry: fail at once.
    retry: false,
  });
};

/** Every customer write is logged on the server: the customer's activity list reloads after it. */
const refreshActivity = (queryClient: ReturnType<typeof useQueryClient>, uid: string) =>
  void queryClient.invalidateQueries({ queryKey: customerKeys.activity(uid) });

/** After a write that changes a customer's sites: the lists, counts, details and activity reload. */
function useRefreshSites() {
  const queryClient = useQueryClient();
  return (uid: string, appId?: number) => {
    refreshActivity(queryClient, uid);
    void queryClient.invalidateQueries({ queryKey: customerKeys.ownedSites(uid) });
    void queryClient.invalidateQueries({ queryKey: customerKeys.account(uid) });
    if (appId !== undefined)
      void queryClient.invalidateQueries({ queryKey: customerKeys.siteInfo(uid, appId), exact: true });
  };
}

/** POST /admin/customer: the customer and their first site (the answer carries the API secret once). */
export function useCreateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...customerKeys.all, 'create'],
    meta: { errorFallback: false },
    mutationFn: async (body: BodyOf<'createCustomer'>) => (await callApi('createCustomer', { body })).Data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...customerKeys.all, 'search'] }),
  });
}

/** POST /admin/site?uid=: a new site of a customer (the answer carries the API secret once). */
export function useAddSite() {
  const refresh = useRefreshSites();
  return useMutation({
    mutationKey: [...customerKeys.all, 'add-site'],
    meta: { errorFallback: false },
    mutationFn: async ({ uid, body }: { uid: string; body: BodyOf<'addSite'> }) =>
      (await callApi('addSite', { query: { uid }, body })).Data,
    onSuccess: (_d, { uid }) => refresh(uid),
  });
}

interface SiteRef {
  uid: string;
  appId: number;
}

/** PUT /admin/site/basicsettings (step 2); the answer replaces the cached read. */
export function useSaveBasicSettings() {
  const queryClient = useQueryClient();
  const refresh = useRefreshSites();
  return useMutation({
    mutationKey: [...customerKeys.all, 'basic-settings'],
    meta: { errorFallback: false },
    mutationFn: async ({
      uid,
      appId,
      body,
      ifMatch,
    }: SiteRef & { body: BodyOf<'updateSiteBasicSettings'>; ifMatch: string | undefined }) => {
      const answer = await callApiVersioned('updateSiteBasicSettings', {
        query: { uID: uid, appId },
        body,
        ifMatch,
      });
      return { data: answer.body.Data, etag: answer.etag };
    },
    onSuccess: ({ data, etag }, { uid, appId }) => {
      queryClient.setQueryData(siteFormKeys.basic(uid, appId), data);
      keepVersion(queryClient, siteFormKeys.basic(uid, appId), etag);
      refresh(uid, appId);
    },
  });
}

/** PUT /admin/site/feature (step 3), naming the features' version read (If-Match). */
export function useSaveFeatures() {
  const queryClient = useQueryClient();
  const refresh = useRefreshSites();
  return useMutation({
    mutationKey: [...customerKeys.all, 'features'],
    meta: { errorFallback: false },
    mutationFn: async ({
      uid,
      appId,
      body,
      ifMatch,
    }: SiteRef & { body: BodyOf<'updateSiteFeatures'>; ifMatch: string | undefined }) => {
      const answer = await callApiVersioned('updateSiteFeatures', {
        query: { userId: uid, appId },
        body,
        ifMatch,
      });
      keepVersion(queryClient, siteFormKeys.features(uid, appId), answer.etag);
      return { data: answer.body.Data, etag: answer.etag };
    },
    onSuccess: ({ data }, { uid, appId }) => {
      queryClient.setQueryData(siteFormKeys.features(uid, appId), data);
      refresh(uid, appId);
    },
  });
}

/** PUT /admin/site/datacenter (step 4), naming the data center's version read (If-Match). */
export function useSaveDataCenter() {
  const queryClient = useQueryClient();
  const refresh = useRefreshSites();
  return useMutation({
    mutationKey: [...customerKeys.all, 'data-center'],
    meta: { errorFallback: false },
    mutationFn: async ({
      uid,
      appId,
      body,
      ifMatch,
    }: SiteRef & { body: BodyOf<'updateSiteDataCenter'>; ifMatch: string | undefined }) => {
      const answer = await callApiVersioned('updateSiteDataCenter', {
        query: { userId: uid, appId },
        body,
        ifMatch,
      });
      keepVersion(queryClient, siteFormKeys.dataCenter(uid, appId), answer.etag);
      return { data: answer.body.Data, etag: answer.etag };
    },
    onSuccess: ({ data }, { uid, appId }) => {
      queryClient.setQueryData(siteFormKeys.dataCenter(uid, appId), data);
      refresh(uid, appId);
    },
  });
}

/** PUT /admin/customerprofile?uid=: the answer replaces the cached profile; the account reloads. */
export function useUpdateCustomerProfile(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...customerKeys.all, 'profile', uid],
    meta: { errorFallback: MESSAGES.customerProfileUpdateFailed },
    mutationFn: async (v: { body: BodyOf<'updateCustomerProfile'>; ifMatch: string | undefined }) => {
      const { body, etag } = await callApiVersioned('updateCustomerProfile', {
        query: { uid },
        body: v.body,
        ifMatch: v.ifMatch,
      });
      return { profile: body.Data, etag };
    },
    onSuccess: ({ profile, etag }) => {
      queryClient.setQueryData(customerKeys.profile(uid), profile);
      queryClient.setQueryData(customerKeys.profileVersion(uid), etag ?? null);
      refreshActivity(queryClient, uid);
      void queryClient.invalidateQueries({ queryKey: customerKeys.account(uid) });
      void queryClient.invalidateQueries({ queryKey: [...customerKeys.all, 'search'] });
    },
  });
}

/** PUT /admin/customer/password?uid= */
export function useSetCustomerPassword(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...customerKeys.all, 'password', uid],
    mutationFn: (body: BodyOf<'setCustomerPassword'>) =>
      callApi('setCustomerPassword', { query: { uid }, body }),
    onSuccess: () => refreshActivity(queryClient, uid),
  });
}

/** POST /admin/verifyemail {uid}: the cached profile and account read EmailVerified true. */
export function useVerifyEmail(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...customerKeys.all, 'verify-email', uid],
    mutationFn: () => callApi('verifyEmail', { body: { uid } }),
    onSuccess: () => {
      refreshActivity(queryClient, uid);
      for (const key of [customerKeys.profile(uid), customerKeys.account(uid)]) {
        queryClient.setQueryData<{ EmailVerified: boolean }>(key, (old) =>
          old ? { ...old, EmailVerified: true } : old,
        );
      }
    },
  });
}

/** PUT /admin/site/status: the row of the cached site list takes the answer (no reload). */
export function useSetSiteStatus(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...customerKeys.all, 'site-status', uid],
    mutationFn: async ({ appId, Status }: { appId: number; Status: Site['Status'] }) =>
      (await callApi('setSiteStatus', { query: { uId: uid, appId }, body: { Status } })).Data,
    onSuccess: (site) => {
      queryClient.setQueryData<Site[]>(customerKeys.ownedSites(uid), (rows) =>
        rows?.map((r) => (r.appId === site.appId ? site : r)),
      );
      refreshActivity(queryClient, uid);
      void queryClient.invalidateQueries({ queryKey: customerKeys.siteInfo(uid, site.appId), exact: true });
    },
  });
}

/** POST /admin/site/secret: a new API secret for an owned site (answered once); the activity reloads. */
export function useRotateSiteSecret(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...customerKeys.all, 'rotate-secret', uid],
    mutationFn: async ({ appId, GraceMinutes }: { appId: number; GraceMinutes: number }) =>
      callApi('rotateSiteSecret', { query: { uid, appId }, body: { GraceMinutes } }),
    onSuccess: () => refreshActivity(queryClient, uid),
  });
}
