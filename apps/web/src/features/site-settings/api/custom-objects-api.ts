// The custom objects section's calls: the list, create, schema change, remove, and sample validation.
import type { ResponseOf } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiAuth, useApiAuth } from '../../../lib/api-auth.tsx';
import { ApiError, callApi } from '../../../lib/api-client.ts';
import { call, retryOf, type SiteRef, siteSettingsKeys } from './site-query.ts';

export type CustomObject = ResponseOf<'customObjectList'>['Data'][number];

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
