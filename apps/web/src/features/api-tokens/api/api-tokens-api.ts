import type { BodyOf } from '@sac/contract/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';

/** Query keys of the API tokens feature. */
const tokenKeys = {
  all: ['api-tokens'] as const,
  list: (everyone: boolean) => [...tokenKeys.all, 'list', everyone] as const,
  serviceAccounts: () => [...tokenKeys.all, 'service-accounts'] as const,
};

/** GET /admin/api-tokens: mine, or (a SuperAdmin) everyone's. */
export const useApiTokens = (everyone: boolean) =>
  useQuery({
    queryKey: tokenKeys.list(everyone),
    queryFn: async ({ signal }) =>
      (await callApi('apiTokenList', { query: everyone ? { all: 'true' } : {}, signal })).Data,
  });

/** The service accounts a SuperAdmin may make tokens for (the team list's, marked as such). */
export const useServiceAccounts = (enabled: boolean) =>
  useQuery({
    queryKey: tokenKeys.serviceAccounts(),
    queryFn: async ({ signal }) =>
      (await callApi('teamList', { signal })).Data.filter((s) => s.Service === true),
    enabled,
  });

/** GET /admin/team/roles: the roles a service account may be given (the SuperAdmin's screen). */
export const useStaffRoles = (enabled: boolean) =>
  useQuery({
    queryKey: [...tokenKeys.all, 'roles'],
    queryFn: async ({ signal }) => (await callApi('teamRoles', { signal })).Data,
    staleTime: 5 * 60_000,
    enabled,
  });

/** POST /admin/team/service-accounts (SuperAdmins): the owner picker reloads with it. */
export function useCreateServiceAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...tokenKeys.all, 'service-account'],
    mutationFn: (body: BodyOf<'serviceAccountCreate'>) => callApi('serviceAccountCreate', { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokenKeys.serviceAccounts() }),
  });
}

/** POST /admin/api-tokens: answers the token, once; the lists reload. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...tokenKeys.all, 'create'],
    mutationFn: (body: BodyOf<'apiTokenCreate'>) => callApi('apiTokenCreate', { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}

/** DELETE /admin/api-tokens; the lists reload. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...tokenKeys.all, 'revoke'],
    mutationFn: (id: number) => callApi('apiTokenRevoke', { body: { Id: id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}

/** GET /admin/address-allowlist (SuperAdmins): the entries and the caller's address. */
export const useAddressAllowlist = (enabled: boolean) =>
  useQuery({
    queryKey: [...tokenKeys.all, 'allowlist'],
    queryFn: ({ signal }) => callApi('addressAllowlist', { signal }),
    enabled,
  });

/** PUT /admin/address-allowlist; the server refuses a list without the caller's own address. */
export function useSaveAddressAllowlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...tokenKeys.all, 'allowlist', 'save'],
    mutationFn: (entries: string[]) => callApi('addressAllowlistSave', { body: { Entries: entries } }),
    onSuccess: (answer) => queryClient.setQueryData([...tokenKeys.all, 'allowlist'], answer),
  });
}
