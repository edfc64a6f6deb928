import type { BodyOf } from '@sac/contract/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';

const ssoKeys = { settings: ['team', 'sso-settings'] as const };

/** GET /admin/sso-settings: the provider, the group table, the redirect URI (never the secret). */
export const useSsoSettings = () =>
  useQuery({ queryKey: ssoKeys.settings, queryFn: ({ signal }) => callApi('ssoSettings', { signal }) });

/** PUT /admin/sso-settings: the answer replaces the cached settings. */
export function useSaveSsoSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...ssoKeys.settings, 'save'],
    mutationFn: (body: BodyOf<'ssoSettingsUpdate'>) => callApi('ssoSettingsUpdate', { body }),
    onSuccess: (saved) => queryClient.setQueryData(ssoKeys.settings, saved),
  });
}

/** POST /admin/sso-settings/test: the issuer's discovery document and keys, or what is wrong. */
export const useTestSsoIssuer = () =>
  useMutation({
    mutationKey: [...ssoKeys.settings, 'test'],
    mutationFn: (Issuer: string) => callApi('ssoTest', { body: { Issuer } }),
  });
