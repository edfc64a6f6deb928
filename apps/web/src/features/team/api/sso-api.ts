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

const scimKeys = { tokens: ['team', 'scim-tokens'] as const };

/** GET /admin/scim-tokens (SuperAdmins): the SCIM provider's tokens, never their secrets. */
export const useScimTokens = () =>
  useQuery({
    queryKey: scimKeys.tokens,
    queryFn: async ({ signal }) => (await callApi('scimTokenList', { signal })).Data,
  });

/** POST /admin/scim-tokens: the secret answered once. */
export function useCreateScimToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...scimKeys.tokens, 'create'],
    mutationFn: (Name: string) => callApi('scimTokenCreate', { body: { Name } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: scimKeys.tokens }),
  });
}

/** DELETE /admin/scim-tokens: refused from its next call. */
export function useRevokeScimToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...scimKeys.tokens, 'revoke'],
    mutationFn: (Id: number) => callApi('scimTokenRevoke', { body: { Id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: scimKeys.tokens }),
  });
}
