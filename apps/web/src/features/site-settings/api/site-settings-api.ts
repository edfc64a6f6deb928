import type { SettingSet } from '@sac/contract/encryption-settings';
import type { BodyOf, ResponseOf } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import { APPLICATION_SECURITY_DEFAULTS, type ApplicationSecurity } from '@sac/contract/site-settings';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, callApi } from '../../../lib/api-client.ts';
import type { TokenPair } from '../../../lib/impersonation-mode.ts';

export type CustomObject = ResponseOf<'customObjectList'>['Data'][number];
export type CustomDomain = ResponseOf<'customDomainList'>['Data'][number];
export type AppSettings = ResponseOf<'appSettings'>['Data'];
export type EncryptionSettings = ResponseOf<'passwordSettings'>['Data'];
export type RegistrationField = ResponseOf<'activeCustomFields'>['Data'][number];
export type DataSource = ResponseOf<'customRegistrationDataList'>['Data'][number];
export type Integration = ResponseOf<'integrations'>['Data'][number];

/**
 * The site a configuration section works on. `auth` calls with that pair (an impersonation
 * session) instead of the stored admin pair, so the same sections can serve the impersonated site.
 */
export interface SiteRef {
  uid: string;
  appId: number;
  auth?: TokenPair;
}

/** Query keys: by caller (the admin, or one impersonation pair) then by site. */
export const siteSettingsKeys = {
  all: ['site-settings'] as const,
  site: (s: SiteRef) =>
    [...siteSettingsKeys.all, s.auth ? `as:${s.auth.xtoken}` : 'admin', s.uid, s.appId] as const,
  appSettings: (s: SiteRef) => [...siteSettingsKeys.site(s), 'app-settings'] as const,
  security: (s: SiteRef) => [...siteSettingsKeys.site(s), 'security'] as const,
  customObjects: (s: SiteRef) => [...siteSettingsKeys.site(s), 'custom-objects'] as const,
  customDomains: (s: SiteRef) => [...siteSettingsKeys.site(s), 'custom-domains'] as const,
  encryption: (s: SiteRef, set: SettingSet) => [...siteSettingsKeys.site(s), 'encryption', set] as const,
  fields: (s: SiteRef) => [...siteSettingsKeys.site(s), 'registration-fields'] as const,
  dataSources: (s: SiteRef) => [...siteSettingsKeys.site(s), 'data-sources'] as const,
  integrations: (s: SiteRef) => [...siteSettingsKeys.site(s), 'integrations'] as const,
  hubDomain: (s: SiteRef) =>
    [...siteSettingsKeys.all, s.auth ? 'impersonated' : 'admin', 'hub-domain'] as const,
};

const call = (s: SiteRef, signal?: AbortSignal) => ({
  query: { uid: s.uid, appId: s.appId },
  signal,
  ...(s.auth ? { auth: s.auth } : {}),
});
/** Impersonated reads fail at once (a refused call will not change on retry). */
const retryOf = (s: SiteRef) => (s.auth ? { retry: false } : {});

// --------------------------------------------------------------------------------------------
// Plan info and web apps

/** GET /admin/appsettings: plan, trial or subscribed, billing and the web apps. */
export const useAppSettings = (s: SiteRef) =>
  useQuery({
    queryKey: siteSettingsKeys.appSettings(s),
    queryFn: async ({ signal }) => (await callApi('appSettings', call(s, signal))).Data,
    ...retryOf(s),
  });

/** PUT /admin/appsettings {data:{ProductionUrl, StagingUrl}}; the answer replaces the cached read. */
export function useSaveAppSettings(s: SiteRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.appSettings(s), 'save'],
    mutationFn: (data: { ProductionUrl: string; StagingUrl: string }) =>
      callApi('updateAppSettings', { ...call(s), body: { data } }),
    onSuccess: (answer) => queryClient.setQueryData(siteSettingsKeys.appSettings(s), answer.Data),
  });
}

// --------------------------------------------------------------------------------------------
// Application level security

export interface SecurityRead {
  settings: ApplicationSecurity;
  /** False when the site never saved its settings (ErrorCode 927): the defaults are shown. */
  saved: boolean;
}

/** GET /admin/applicationlevelsecurity; ErrorCode 927 (never saved) reads as the defaults, silently. */
export const useApplicationSecurity = (s: SiteRef) =>
  useQuery({
    queryKey: siteSettingsKeys.security(s),
    queryFn: async ({ signal }): Promise<SecurityRead> => {
      try {
        const answer = await callApi('applicationSecurity', call(s, signal));
        return { settings: answer.Data, saved: true };
      } catch (error) {
        if (error instanceof ApiError && error.code === ERRORS.notFound.code) {
          return { settings: APPLICATION_SECURITY_DEFAULTS, saved: false };
        }
        throw error;
      }
    },
    ...retryOf(s),
  });

/**
 * PUT /admin/applicationlevelsecurity {data}. Errors are the form's own (981 is shown in it);
 * the answer replaces the cached read.
 */
export function useSaveApplicationSecurity(s: SiteRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.security(s), 'save'],
    meta: { errorFallback: false },
    mutationFn: (data: ApplicationSecurity) =>
      callApi('updateApplicationSecurity', { ...call(s), body: { data } }),
    onSuccess: (answer) =>
      queryClient.setQueryData<SecurityRead>(siteSettingsKeys.security(s), {
        settings: answer.Data,
        saved: true,
      }),
  });
}

// --------------------------------------------------------------------------------------------
// Custom objects

/** GET /admin/customobject; ErrorCode 999 (no objects) reads as an empty list. */
export const useCustomObjects = (s: SiteRef) =>
  useQuery({
    queryKey: siteSettingsKeys.customObjects(s),
    queryFn: async ({ signal }): Promise<CustomObject[]> => {
      try {
        return (await callApi('customObjectList', call(s, signal))).Data;
      } catch (error) {
        if (error instanceof ApiError && error.code === ERRORS.customObjectsEmpty.code) return [];
        throw error;
      }
    },
    ...retryOf(s),
  });

function useObjectsCache(s: SiteRef) {
  const queryClient = useQueryClient();
  return (update: (rows: CustomObject[]) => CustomObject[]) =>
    queryClient.setQueryData<CustomObject[]>(siteSettingsKeys.customObjects(s), (rows) => update(rows ?? []));
}

/** POST /admin/customobject: the new object joins the cached list. */
export function useCreateCustomObject(s: SiteRef) {
  const setRows = useObjectsCache(s);
  return useMutation({
    mutationKey: [...siteSettingsKeys.customObjects(s), 'create'],
    mutationFn: (body: { Id: string; Name: string; SizeMB: number; Schema: string }) =>
      callApi('customObjectCreate', { ...call(s), body }),
    onSuccess: (answer) => setRows((rows) => [...rows.filter((r) => r.Id !== answer.Data.Id), answer.Data]),
  });
}

/** PUT /admin/customobject/schema {objId, Schema}: the row takes the answer. */
export function useSetCustomObjectSchema(s: SiteRef) {
  const setRows = useObjectsCache(s);
  return useMutation({
    mutationKey: [...siteSettingsKeys.customObjects(s), 'schema'],
    mutationFn: (body: { objId: string; Schema: string }) =>
      callApi('customObjectSchema', { ...call(s), body }),
    onSuccess: (answer) => setRows((rows) => rows.map((r) => (r.Id === answer.Data.Id ? answer.Data : r))),
  });
}

/** DELETE /admin/customobject {objId}: the row leaves the cached list. */
export function useRemoveCustomObject(s: SiteRef) {
  const setRows = useObjectsCache(s);
  return useMutation({
    mutationKey: [...siteSettingsKeys.customObjects(s), 'remove'],
    mutationFn: (objId: string) => callApi('customObjectDelete', { ...call(s), body: { objId } }),
    onSuccess: (_answer, objId) => setRows((rows) => rows.filter((r) => r.Id !== objId)),
  });
}

/** POST /admin/customobject/validate {Schema, Sample}: {Valid, Errors[{Path, Message}]}. */
export function useValidateSample(s: SiteRef) {
  return useMutation({
    mutationKey: [...siteSettingsKeys.customObjects(s), 'validate'],
    mutationFn: (body: { Schema: string; Sample: string }) =>
      callApi('customObjectValidate', { ...call(s), body }),
  });
}

// --------------------------------------------------------------------------------------------
// Custom domains

/** GET /admin/hubdomain: custom domains point a CNAME at <site>.<hub domain>. */
export const useHubDomain = (s: SiteRef) =>
  useQuery({
    queryKey: siteSettingsKeys.hubDomain(s),
    queryFn: async ({ signal }) =>
      (await callApi('hubDomain', { signal, ...(s.auth ? { auth: s.auth } : {}) })).Data.HubDomain,
    staleTime: 5 * 60_000,
    ...retryOf(s),
  });

/** GET /admin/customdomain/bindingrequest: the domains, their status and DNS records. */
export const useCustomDomains = (s: SiteRef) =>
  useQuery({
    queryKey: siteSettingsKeys.customDomains(s),
    queryFn: async ({ signal }) => (await callApi('customDomainList', call(s, signal))).Data,
    ...retryOf(s),
  });

function useDomainsCache(s: SiteRef) {
  const queryClient = useQueryClient();
  return (update: (rows: CustomDomain[]) => CustomDomain[]) =>
    queryClient.setQueryData<CustomDomain[]>(siteSettingsKeys.customDomains(s), (rows) => update(rows ?? []));
}

/** POST /admin/customdomain/bindingrequest {domain}: the new domain (pending) joins the list. */
export function useAddCustomDomain(s: SiteRef) {
  const setRows = useDomainsCache(s);
  return useMutation({
    mutationKey: [...siteSettingsKeys.customDomains(s), 'add'],
    mutationFn: (domain: string) => callApi('customDomainCreate', { ...call(s), body: { domain } }),
    onSuccess: (answer) =>
      setRows((rows) => [...rows.filter((r) => r.Domain !== answer.Data.Domain), answer.Data]),
  });
}

/** POST /admin/customdomain/verify {domain}: the row takes the answer (verified or the check's result). */
export function useVerifyCustomDomain(s: SiteRef) {
  const setRows = useDomainsCache(s);
  return useMutation({
    mutationKey: [...siteSettingsKeys.customDomains(s), 'verify'],
    mutationFn: (domain: string) => callApi('customDomainVerify', { ...call(s), body: { domain } }),
    onSuccess: (answer) =>
      setRows((rows) => rows.map((r) => (r.Domain === answer.Data.Domain ? answer.Data : r))),
  });
}

/** DELETE /admin/customdomain/bindingrequest {domain}: the row leaves the list. */
export function useDeleteCustomDomain(s: SiteRef) {
  const setRows = useDomainsCache(s);
  return useMutation({
    mutationKey: [...siteSettingsKeys.customDomains(s), 'delete'],
    mutationFn: (domain: string) => callApi('customDomainDelete', { ...call(s), body: { domain } }),
    onSuccess: (_answer, domain) => setRows((rows) => rows.filter((r) => r.Domain !== domain)),
  });
}

// --------------------------------------------------------------------------------------------
// Encryption and hashing settings

export interface EncryptionRead {
  /** Undefined when the site has no settings of its own for this set (1037, 1090): the defaults show. */
  settings: EncryptionSettings | undefined;
}

const ENCRYPTION_READS = {
  password: { id: 'passwordSettings', unset: undefined },
  'previous-password': { id: 'previousPasswordSettings', unset: ERRORS.previousPasswordSettingsNotSet.code },
  'security-answer': { id: 'securityQuestionSettings', unset: ERRORS.securityAnswerSettingsNotSet.code },
} as const;

/**
 * GET /admin/password-settings, /admin/previous-password-settings (1037: not set, ignored) or
 * /admin/security-question-settings (1090: not set, ignored).
 */
export const useEncryptionSettings = (s: SiteRef, set: SettingSet) =>
  useQuery({
    queryKey: siteSettingsKeys.encryption(s, set),
    queryFn: async ({ signal }): Promise<EncryptionRead> => {
      const read = ENCRYPTION_READS[set];
      try {
        return { settings: (await callApi(read.id, call(s, signal))).Data };
      } catch (error) {
        if (read.unset !== undefined && error instanceof ApiError && error.code === read.unset) {
          return { settings: undefined };
        }
        throw error;
      }
    },
    ...retryOf(s),
  });

export type EncryptionData = BodyOf<'saveEncryptionSettings'>['data'];

/** POST /admin/save-encryption-settings {Set, data}: the answer replaces that set's cached read. */
export function useSaveEncryptionSettings(s: SiteRef, set: SettingSet) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.encryption(s, set), 'save'],
    mutationFn: (data: EncryptionData) =>
      callApi('saveEncryptionSettings', { ...call(s), body: { Set: set, data } }),
    onSuccess: (answer) =>
      queryClient.setQueryData<EncryptionRead>(siteSettingsKeys.encryption(s, set), {
        settings: answer.Data,
      }),
  });
}

/** POST /admin/encryption-settings/preview {data, Sample}: {Stored, SaltUsed, Weak}. */
export function useEncryptionPreview(s: SiteRef, set: SettingSet) {
  return useMutation({
    mutationKey: [...siteSettingsKeys.encryption(s, set), 'preview'],
    mutationFn: (body: { data: EncryptionData; Sample: string }) =>
      callApi('encryptionPreview', { ...call(s), body }),
  });
}

// --------------------------------------------------------------------------------------------
// Registration fields, data sources, integrations

/** GET /admin/active-custom-fields: default and custom registration fields. */
export const useRegistrationFields = (s: SiteRef) =>
  useQuery({
    queryKey: siteSettingsKeys.fields(s),
    queryFn: async ({ signal }) => (await callApi('activeCustomFields', call(s, signal))).Data,
    ...retryOf(s),
  });

/** POST /admin/default-fields {Fields}: the answer replaces the cached fields. */
export function useSaveDefaultFields(s: SiteRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.fields(s), 'defaults'],
    mutationFn: (body: BodyOf<'saveDefaultFields'>) => callApi('saveDefaultFields', { ...call(s), body }),
    onSuccess: (answer) => queryClient.setQueryData(siteSettingsKeys.fields(s), answer.Data),
  });
}

/** POST /admin/custom-field: the answer (all the fields) replaces the cached fields. */
export function useAddCustomField(s: SiteRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.fields(s), 'add'],
    mutationFn: (body: BodyOf<'addCustomField'>) => callApi('addCustomField', { ...call(s), body }),
    onSuccess: (answer) => queryClient.setQueryData(siteSettingsKeys.fields(s), answer.Data),
  });
}

/** GET /admin/custom-registration-data-list: the data sources. */
export const useDataSources = (s: SiteRef) =>
  useQuery({
    queryKey: siteSettingsKeys.dataSources(s),
    queryFn: async ({ signal }) => (await callApi('customRegistrationDataList', call(s, signal))).Data,
    ...retryOf(s),
  });

/** POST /admin/custom-registration-data: the answer (all the data sources) replaces the cache. */
export function useAddDataSource(s: SiteRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.dataSources(s), 'add'],
    mutationFn: (body: BodyOf<'addDataSource'>) => callApi('addDataSource', { ...call(s), body }),
    onSuccess: (answer) => queryClient.setQueryData(siteSettingsKeys.dataSources(s), answer.Data),
  });
}

/** GET /admin/integrations?uId=&appId= (the spec's uId spelling). */
export const useIntegrations = (s: SiteRef) =>
  useQuery({
    queryKey: siteSettingsKeys.integrations(s),
    queryFn: async ({ signal }) =>
      (
        await callApi('integrations', {
          query: { uId: s.uid, appId: s.appId },
          signal,
          ...(s.auth ? { auth: s.auth } : {}),
        })
      ).Data,
    ...retryOf(s),
  });
