// The registration fields, data sources and integrations sections' calls.
import type { BodyOf, ResponseOf } from '@sac/contract/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiAuth, useApiAuth, withAuth } from '../../../lib/api-auth.tsx';
import { callApi, callApiVersioned } from '../../../lib/api-client.ts';
import { call, retryOf, type SiteRef, siteSettingsKeys } from './site-query.ts';

export type RegistrationField = ResponseOf<'activeCustomFields'>['Data'][number];
export type DataSource = ResponseOf<'customRegistrationDataList'>['Data'][number];
export type Integration = ResponseOf<'integrations'>['Data'][number];

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
