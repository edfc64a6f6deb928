// The plan info and web apps section's calls: the app settings and their save.
import type { ResponseOf } from '@sac/contract/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiAuth } from '../../../lib/api-auth.tsx';
import { callApiVersioned } from '../../../lib/api-client.ts';
import { keepVersion, versionOf } from '../../../lib/record-version.ts';
import { call, retryOf, type SiteRef, siteSettingsKeys } from './site-query.ts';

export type AppSettings = ResponseOf<'appSettings'>['Data'];

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
