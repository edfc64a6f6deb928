import type { BodyOf } from '@sac/contract/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { impersonationKeys } from './impersonation-api.ts';

/** Break-glass access (contract break-glass.ts): SuperAdmins only. */
const breakGlassKeys = { options: [...impersonationKeys.all, 'break-glass'] as const };

/** GET /admin/impersonation/break-glass: on or off, its reasons, the SuperAdmins an opening tells. */
export const useBreakGlassOptions = (enabled: boolean) =>
  useQuery({
    queryKey: breakGlassKeys.options,
    queryFn: async ({ signal }) => (await callApi('breakGlassOptions', { signal })).Data,
    enabled,
    staleTime: 60_000,
  });

/** POST /admin/impersonation/break-glass: the grant, open at once. */
export function useOpenBreakGlass() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...impersonationKeys.all, 'break-glass', 'open'],
    mutationFn: (body: BodyOf<'breakGlassOpen'>) => callApi('breakGlassOpen', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: impersonationKeys.all }),
  });
}
