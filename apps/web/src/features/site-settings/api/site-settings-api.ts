import { versionTag } from '@sac/contract/constants';
import type { SettingSet } from '@sac/contract/encryption-settings';
import type { BodyOf, ResponseOf } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import {
  APPLICATION_SECURITY_DEFAULTS,
  type ApplicationSecurity,
  type DomainListFilter,
} from '@sac/contract/site-settings';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type ApiAuth, useApiAuth, withAuth } from '../../../lib/api-auth.tsx';
import { ApiError, callApi, callApiVersioned } from '../../../lib/api-client.ts';
import { keepVersion, versionOf } from '../../../lib/record-version.ts';

export type CustomObject = ResponseOf<'customObjectList'>['Data'][number];
export type CustomDomain = ResponseOf<'customDomainList'>['Data'][number];
export type AppSettings = ResponseOf<'appSettings'>['Data'];
type EncryptionSettings = ResponseOf<'passwordSettings'>['Data'];
export type RegistrationField = ResponseOf<'activeCustomFields'>['Data'][number];
export type DataSource = ResponseOf<'customRegistrationDataList'>['Data'][number];
export type SiteInfo = ResponseOf<'appInfoById'>['Data'];
export type Integration = ResponseOf<'integrations'>['Data'][number];

/** The site a configuration section works on; who calls comes from `useApiAuth()`. */
export interface SiteRef {
  uid: string;
  appId: number;
}

/** Query keys: by caller (the staff member, or one impersonation pair) then by site. */
const siteSettingsKeys = {
  all: ['site-settings'] as const,
  site: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.all, a.scope, s.uid, s.appId] as const,
  siteInfo: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'site-info'] as const,
  appSettings: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'app-settings'] as const,
  security: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'security'] as const,
  customObjects: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'custom-objects'] as const,
  customDomains: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'custom-domains'] as const,
  encryption: (a: ApiAuth, s: SiteRef, set: SettingSet) =>
    [...siteSettingsKeys.site(a, s), 'encryption', set] as const,
  fields: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'registration-fields'] as const,
  dataSources: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'data-sources'] as const,
  integrations: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'integrations'] as const,
  hubDomain: () => [...siteSettingsKeys.all, 'hub-domain'] as const,
  everySiteDomains: (status: DomainListFilter | undefined) =>
    [...siteSettingsKeys.all, 'every-site-domains', status ?? 'all'] as const,
};

const call = (a: ApiAuth, s: SiteRef, signal?: AbortSignal) => ({
  query: { uid: s.uid, appId: s.appId },
  signal,
  ...withAuth(a),
});
/** Impersonated reads fail at once (a refused call will not change on retry). */
const retryOf = (a: ApiAuth) => (a.pair ? { retry: false } : {});

// --------------------------------------------------------------------------------------------
// Overview

/** GET /admin/appinfobyid {uId, appId}: plan, status, data center, database (masked), features, web apps. */
export function useSiteInfo(s: SiteRef) {
  const a = useApiAuth();
  return useQuery({
    queryKey: siteSettingsKeys.siteInfo(a, s),
    queryFn: async ({ signal }) =>
      (await callApi('appInfoById', { query: { uId: s.uid, appId: s.appId }, signal, ...withAuth(a) })).Data,
    ...retryOf(a),
  });
}

/** PUT /admin/site/status {Status}: the overview takes the new status; other reads refresh. */
export function useSetSiteStatus(s: SiteRef) {
  const a = useApiAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.siteInfo(a, s), 'status'],
    mutationFn: async (Status: BodyOf<'setSiteStatus'>['Status']) =>
      (
        await callApi('setSiteStatus', {
          query: { uId: s.uid, appId: s.appId },
          body: { Status },
          ...withAuth(a),
        })
      ).Data,
    onSuccess: (site) => {
      queryClient.setQueryData<SiteInfo>(siteSettingsKeys.siteInfo(a, s), (prev) =>
        prev ? { ...prev, Status: site.Status } : prev,
      );
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
    },
  });
}

// --------------------------------------------------------------------------------------------
// Plan info and web apps

/** GET /admin/appsettings: plan, trial or subscribed, billing and the web apps. */
export function useAppSettings(s: SiteRef) {
  const a = useApiAuth();
  const queryClient = useQueryClient();
  const key = siteSettingsKeys.appSettings(a, s);
  return useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const { body, etag } = await callApiVersioned('appSettings', call(a, s, signal));
      keepVersion(queryClient, key, etag);
      return body.Data;
    },
    ...retryOf(a),
  });
}

/** The site version the cached app settings were read at (sent as If-Match by their form). */
export function useAppSettingsVersion(s: SiteRef): () => string | undefined {
  const a = useApiAuth();
  const queryClient = useQueryClient();
  return () => versionOf(queryClient, siteSettingsKeys.appSettings(a, s));
}

/** PUT /admin/appsettings {data:{ProductionUrl, StagingUrl}}; the answer replaces the cached read. */
export function useSaveAppSettings(s: SiteRef) {
  const a = useApiAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.appSettings(a, s), 'save'],
    mutationFn: async (v: {
      data: { ProductionUrl: string; StagingUrl: string };
      ifMatch: string | undefined;
    }) => {
      const { body, etag } = await callApiVersioned('updateAppSettings', {
        ...call(a, s),
        body: { data: v.data },
        ifMatch: v.ifMatch,
      });
      keepVersion(queryClient, siteSettingsKeys.appSettings(a, s), etag);
      return body;
    },
    onSuccess: (answer) => queryClient.setQueryData(siteSettingsKeys.appSettings(a, s), answer.Data),
  });
}

// --------------------------------------------------------------------------------------------
// Application level security

export interface SecurityRead {
  settings: ApplicationSecurity;
  /** False when the site never saved its settings (ErrorCode 927): the defaults are shown. */
  saved: boolean;
  /** The version read (the ETag; "0" for settings never saved): the form's save names it (If-Match). */
  version: string | undefined;
}

/** GET /admin/applicationlevelsecurity; ErrorCode 927 (never saved) reads as the defaults at version 0. */
export async function readApplicationSecurity(
  a: ApiAuth,
  s: SiteRef,
  signal?: AbortSignal,
): Promise<SecurityRead> {
  try {
    const { body, etag } = await callApiVersioned('applicationSecurity', call(a, s, signal));
    return { settings: body.Data, saved: true, version: etag };
  } catch (error) {
    if (error instanceof ApiError && error.code === ERRORS.notFound.code) {
      return { settings: APPLICATION_SECURITY_DEFAULTS, saved: false, version: versionTag(0) };
    }
    throw error;
  }
}

/** The site's application level security, silently the defaults when never saved. */
export function useApplicationSecurity(s: SiteRef) {
  const a = useApiAuth();
  return useQuery({
    queryKey: siteSettingsKeys.security(a, s),
    queryFn: ({ signal }) => readApplicationSecurity(a, s, signal),
    ...retryOf(a),
  });
}

/**
 * PUT /admin/applicationlevelsecurity {data}, naming the version read (If-Match). Errors are the
 * form's own (981 and a stale save are shown in it); the answer replaces the cached read.
 */
export function useSaveApplicationSecurity(s: SiteRef) {
  const a = useApiAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.security(a, s), 'save'],
    meta: { errorFallback: false },
    mutationFn: async (v: { data: ApplicationSecurity; ifMatch: string | undefined }) => {
      const { body, etag } = await callApiVersioned('updateApplicationSecurity', {
        ...call(a, s),
        body: { data: v.data },
        ifMatch: v.ifMatch,
      });
      return {
        answer: body,
        read: { settings: body.Data, saved: true, version: etag } satisfies SecurityRead,
      };
    },
    onSuccess: ({ read }) => queryClient.setQueryData<SecurityRead>(siteSettingsKeys.security(a, s), read),
  });
}

// --------------------------------------------------------------------------------------------
// Custom objects

/** GET /admin/customobject; ErrorCode 999 (no objects) reads as an empty list. */
export async function readCustomObjects(
  a: ApiAuth,
  s: SiteRef,
  signal?: AbortSignal,
): Promise<CustomObject[]> {
  try {
    return (await callApi('customObjectList', call(a, s, signal))).Data;
  } catch (error) {
    if (error instanceof ApiError && error.code === ERRORS.customObjectsEmpty.code) return [];
    throw error;
  }
}

export function useCustomObjects(s: SiteRef) {
  const a = useApiAuth();
  return useQuery({
    queryKey: siteSettingsKeys.customObjects(a, s),
    queryFn: ({ signal }) => readCustomObjects(a, s, signal),
    ...retryOf(a),
  });
}

function useObjectsCache(s: SiteRef) {
  const a = useApiAuth();
  const queryClient = useQueryClient();
  return (update: (rows: CustomObject[]) => CustomObject[]) =>
    queryClient.setQueryData<CustomObject[]>(siteSettingsKeys.customObjects(a, s), (rows) =>
      update(rows ?? []),
    );
}

/** POST /admin/customobject: the new object joins the cached list. */
export function useCreateCustomObject(s: SiteRef) {
  const a = useApiAuth();
  const setRows = useObjectsCache(s);
  return useMutation({
    mutationKey: [...siteSettingsKeys.customObjects(a, s), 'create'],
    mutationFn: (body: { Id: string; Name: string; SizeMB: number; Schema: string }) =>
      callApi('customObjectCreate', { ...call(a, s), body }),
    onSuccess: (answer) => setRows((rows) => [...rows.filter((r) => r.Id !== answer.Data.Id), answer.Data]),
  });
}

/** PUT /admin/customobject/schema {objId, Schema}, naming the row's Version (If-Match): the row takes the answer. */
export function useSetCustomObjectSchema(s: SiteRef) {
  const a = useApiAuth();
  const setRows = useObjectsCache(s);
  return useMutation({
    mutationKey: [...siteSettingsKeys.customObjects(a, s), 'schema'],
    mutationFn: (v: { body: { objId: string; Schema: string }; ifMatch: string | undefined }) =>
      callApi('customObjectSchema', { ...call(a, s), body: v.body, ifMatch: v.ifMatch }),
    onSuccess: (answer) => setRows((rows) => rows.map((r) => (r.Id === answer.Data.Id ? answer.Data : r))),
  });
}

/** DELETE /admin/customobject {objId}: the row leaves the cached list. */
export function useRemoveCustomObject(s: SiteRef) {
  const a = useApiAuth();
  const setRows = useObjectsCache(s);
  return useMutation({
    mutationKey: [...siteSettingsKeys.customObjects(a, s), 'remove'],
    mutationFn: (objId: string) => callApi('customObjectDelete', { ...call(a, s), body: { objId } }),
    onSuccess: (_answer, objId) => setRows((rows) => rows.filter((r) => r.Id !== objId)),
  });
}

/** POST /admin/customobject/validate {Schema, Sample}: {Valid, Errors[{Path, Message}]}. */
export function useValidateSample(s: SiteRef) {
  const a = useApiAuth();
  return useMutation({
    mutationKey: [...siteSettingsKeys.customObjects(a, s), 'validate'],
    mutationFn: (body: { Schema: string; Sample: string }) =>
      callApi('customObjectValidate', { ...call(a, s), body }),
  });
}

// --------------------------------------------------------------------------------------------
// Custom domains

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

/** GET /admin/customdomains?status=: every site's custom domains by name, a page of 50 at a time. */
export function useEverySiteDomains(status: DomainListFilter | undefined) {
  const list = useInfiniteQuery({
    queryKey: siteSettingsKeys.everySiteDomains(status),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      callApi('customDomainsAll', {
        query: { ...(status ? { status } : {}), ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
      }),
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

// --------------------------------------------------------------------------------------------
// Encryption and hashing settings

export interface EncryptionRead {
  /** Undefined when the site has no settings of its own for this set (1037, 1090): the defaults show. */
  settings: EncryptionSettings | undefined;
  /** The version read (the ETag; "0" for a set never saved): the form's save names it (If-Match). */
  version: string | undefined;
}

const ENCRYPTION_READS = {
  password: { id: 'passwordSettings', unset: [] },
  'previous-password': {
    id: 'previousPasswordSettings',
    unset: [ERRORS.previousPasswordSettingsNotSet.code],
  },
  'security-answer': {
    id: 'securityQuestionSettings',
    unset: [ERRORS.securityAnswerSettingsNotSet.code, ERRORS.securityQuestionsNotUsed.code],
  },
} as const satisfies Record<SettingSet, { id: string; unset: readonly number[] }>;

/**
 * GET /admin/password-settings, /admin/previous-password-settings (1037: not set, ignored) or
 * /admin/security-question-settings (1090 and 1091, as the spec says: ignored); not set reads as
 * the defaults at version 0.
 */
export async function readEncryptionSettings(
  a: ApiAuth,
  s: SiteRef,
  set: SettingSet,
  signal?: AbortSignal,
): Promise<EncryptionRead> {
  const read = ENCRYPTION_READS[set];
  try {
    const { body, etag } = await callApiVersioned(read.id, call(a, s, signal));
    return { settings: body.Data, version: etag };
  } catch (error) {
    const unset: readonly number[] = read.unset;
    if (error instanceof ApiError && error.code !== undefined && unset.includes(error.code)) {
      return { settings: undefined, version: versionTag(0) };
    }
    throw error;
  }
}

/** One hashing set of the site. */
export function useEncryptionSettings(s: SiteRef, set: SettingSet) {
  const a = useApiAuth();
  return useQuery({
    queryKey: siteSettingsKeys.encryption(a, s, set),
    queryFn: ({ signal }) => readEncryptionSettings(a, s, set, signal),
    ...retryOf(a),
  });
}

export type EncryptionData = BodyOf<'saveEncryptionSettings'>['data'];

/**
 * POST /admin/save-encryption-settings {Set, data}, naming the version read (If-Match): the answer
 * replaces that set's cached read.
 */
export function useSaveEncryptionSettings(s: SiteRef, set: SettingSet) {
  const a = useApiAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.encryption(a, s, set), 'save'],
    mutationFn: async (v: { data: EncryptionData; ifMatch: string | undefined }) => {
      const { body, etag } = await callApiVersioned('saveEncryptionSettings', {
        ...call(a, s),
        body: { Set: set, data: v.data },
        ifMatch: v.ifMatch,
      });
      return { answer: body, read: { settings: body.Data, version: etag } satisfies EncryptionRead };
    },
    onSuccess: ({ read }) =>
      queryClient.setQueryData<EncryptionRead>(siteSettingsKeys.encryption(a, s, set), read),
  });
}

/** POST /admin/encryption-settings/preview {data, Sample}: {Stored, SaltUsed, Weak}. */
export function useEncryptionPreview(s: SiteRef, set: SettingSet) {
  const a = useApiAuth();
  return useMutation({
    mutationKey: [...siteSettingsKeys.encryption(a, s, set), 'preview'],
    mutationFn: (body: { data: EncryptionData; Sample: string }) =>
      callApi('encryptionPreview', { ...call(a, s), body }),
  });
}

// --------------------------------------------------------------------------------------------
// Registration fields, data sources, integrations

export interface FieldsRead {
  fields: RegistrationField[];
  /** The default fields' version (the ETag): their save names it (If-Match). */
  version: string | undefined;
}

/** GET /admin/active-custom-fields: default and custom registration fields. */
export async function readRegistrationFields(
  a: ApiAuth,
  s: SiteRef,
  signal?: AbortSignal,
): Promise<FieldsRead> {
  const { body, etag } = await callApiVersioned('activeCustomFields', call(a, s, signal));
  return { fields: body.Data, version: etag };
}

export function useRegistrationFields(s: SiteRef) {
  const a = useApiAuth();
  return useQuery({
    queryKey: siteSettingsKeys.fields(a, s),
    queryFn: ({ signal }) => readRegistrationFields(a, s, signal),
    ...retryOf(a),
  });
}

/** POST /admin/default-fields {Fields}, naming the version read (If-Match): the answer replaces the cached fields. */
export function useSaveDefaultFields(s: SiteRef) {
  const a = useApiAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.fields(a, s), 'defaults'],
    mutationFn: async (v: { body: BodyOf<'saveDefaultFields'>; ifMatch: string | undefined }) => {
      const { body, etag } = await callApiVersioned('saveDefaultFields', {
        ...call(a, s),
        body: v.body,
        ifMatch: v.ifMatch,
      });
      return { answer: body, read: { fields: body.Data, version: etag } satisfies FieldsRead };
    },
    onSuccess: ({ read }) => queryClient.setQueryData<FieldsRead>(siteSettingsKeys.fields(a, s), read),
  });
}

/** POST /admin/custom-field: the answer (all the fields) replaces the cached fields. */
export function useAddCustomField(s: SiteRef) {
  const a = useApiAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.fields(a, s), 'add'],
    mutationFn: async (body: BodyOf<'addCustomField'>) => {
      const { body: answer, etag } = await callApiVersioned('addCustomField', { ...call(a, s), body });
      return { answer, read: { fields: answer.Data, version: etag } satisfies FieldsRead };
    },
    onSuccess: ({ read }) => queryClient.setQueryData<FieldsRead>(siteSettingsKeys.fields(a, s), read),
  });
}

/** GET /admin/custom-registration-data-list: the data sources. */
export function useDataSources(s: SiteRef) {
  const a = useApiAuth();
  return useQuery({
    queryKey: siteSettingsKeys.dataSources(a, s),
    queryFn: async ({ signal }) => (await callApi('customRegistrationDataList', call(a, s, signal))).Data,
    ...retryOf(a),
  });
}

/** POST /admin/custom-registration-data: the answer (all the data sources) replaces the cache. */
export function useAddDataSource(s: SiteRef) {
  const a = useApiAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.dataSources(a, s), 'add'],
    mutationFn: (body: BodyOf<'addDataSource'>) => callApi('addDataSource', { ...call(a, s), body }),
    onSuccess: (answer) => queryClient.setQueryData(siteSettingsKeys.dataSources(a, s), answer.Data),
  });
}

/** GET /admin/integrations?uId=&appId= (the spec's uId spelling). */
export function useIntegrations(s: SiteRef) {
  const a = useApiAuth();
  return useQuery({
    queryKey: siteSettingsKeys.integrations(a, s),
    queryFn: async ({ signal }) =>
      (
        await callApi('integrations', {
          query: { uId: s.uid, appId: s.appId },
          signal,
          ...withAuth(a),
        })
      ).Data,
    ...retryOf(a),
  });
}
