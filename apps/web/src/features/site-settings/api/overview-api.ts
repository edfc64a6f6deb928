// The overview section's calls: the site's information and its status.
import type { BodyOf, ResponseOf } from '@sac/contract/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiAuth, withAuth } from '../../../lib/api-auth.tsx';
import { callApi } from '../../../lib/api-client.ts';
import { retryOf, type SiteRef, siteSettingsKeys } from './site-query.ts';

export type SiteInfo = ResponseOf<'appInfoById'>['Data'];

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
