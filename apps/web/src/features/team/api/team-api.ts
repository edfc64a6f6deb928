import { versionTag } from '@sac/contract/constants';
import type { BodyOf } from '@sac/contract/endpoints';
import { MESSAGES } from '@sac/contract/messages';
import type { SuperUser } from '@sac/contract/team';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';

/** Query keys of the team feature. */
const teamKeys = {
  all: ['team'] as const,
  list: () => [...teamKeys.all, 'list'] as const,
  roles: () => [...teamKeys.all, 'roles'] as const,
  profile: (uid: string) => [...teamKeys.all, 'profile', uid] as const,
  sessions: (uid: string) => [...teamKeys.all, 'sessions', uid] as const,
};

/** GET /admin/team: the super users. */
export const readTeamList = async (signal?: AbortSignal): Promise<SuperUser[]> =>
  (await callApi('teamList', { signal })).Data;

/** The super users; a failed load toasts 'Unable to load Superadmin user data'. */
const teamListQuery = () =>
  queryOptions({
    queryKey: teamKeys.list(),
    queryFn: ({ signal }) => readTeamList(signal),
    meta: { errorToast: MESSAGES.superAdminDataLoadFailed },
  });

export const useTeamList = (enabled = true) => useQuery({ ...teamListQuery(), enabled });

/**
 * GET /admin/team/roles: every staff role (built in and custom) with its description, permissions,
 * scope and holders, and the data centers a scope may name.
 */
const teamRolesQuery = () =>
  queryOptions({
    queryKey: teamKeys.roles(),
    queryFn: ({ signal }) => callApi('teamRoles', { signal }),
    staleTime: 5 * 60_000,
  });

export const useTeamRoles = () => useQuery({ ...teamRolesQuery(), select: (a) => a.Data });
/** The roles with the data centers their scopes name. */
export const useRoleCatalogue = () => useQuery(teamRolesQuery());

/**
 * POST, PUT (If-Match: the role's Version) and DELETE /admin/team/custom-roles; the roles are read
 * again after each (a holder count or another's edit may have changed meanwhile).
 */
export function useSaveCustomRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...teamKeys.roles(), 'save'],
    // The form shows what went wrong, by field or above it: no toast besides.
    meta: { errorFallback: false },
    mutationFn: async (v: { body: BodyOf<'customRoleCreate'>; version: number | undefined }) =>
      v.version === undefined
        ? (await callApi('customRoleCreate', { body: v.body })).Data
        : (await callApi('customRoleUpdate', { body: v.body, ifMatch: versionTag(v.version) })).Data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.roles() }),
  });
}

export function useDeleteCustomRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...teamKeys.roles(), 'delete'],
    // The dialog shows why the server refused (a role still held): no toast besides.
    meta: { errorFallback: false },
    mutationFn: (Name: string) => callApi('customRoleDelete', { body: { Name } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.roles() }),
  });
}

/** GET /admin/team/profile?uid= */
export const useSuperUserProfile = (uid: string) =>
  useQuery({
    queryKey: teamKeys.profile(uid),
    queryFn: async ({ signal }) => (await callApi('teamProfile', { query: { uid }, signal })).Data,
  });

type ListUpdate = (rows: SuperUser[]) => SuperUser[];

/** Updates the cached list in place (no refetch); a list not loaded yet stays unloaded. */
function useUpdateList() {
  const queryClient = useQueryClient();
  return (update: ListUpdate) =>
    queryClient.setQueryData<SuperUser[]>(teamKeys.list(), (rows) => (rows ? update(rows) : rows));
}

/** POST /admin/team; the created row is appended to the cached list. */
export function useCreateSuperUser() {
  const updateList = useUpdateList();
  return useMutation({
    mutationKey: [...teamKeys.all, 'create'],
    meta: { errorFallback: MESSAGES.superUserCreateFailed },
    mutationFn: async (body: BodyOf<'teamCreate'>) => (await callApi('teamCreate', { body })).Data,
    onSuccess: (row) => updateList((rows) => [...rows.filter((r) => r.Uid !== row.Uid), row]),
  });
}

/** PUT /admin/team/roles, naming the row's Version (If-Match); the row is replaced by Uid in the cached list. */
export function useUpdateRoles() {
  const queryClient = useQueryClient();
  const updateList = useUpdateList();
  return useMutation({
    mutationKey: [...teamKeys.all, 'update-roles'],
    mutationFn: async (v: { body: BodyOf<'teamUpdateRoles'>; ifMatch: string | undefined }) =>
      (await callApi('teamUpdateRoles', { body: v.body, ifMatch: v.ifMatch })).Data,
    onSuccess: (row) => {
      updateList((rows) => rows.map((r) => (r.Uid === row.Uid ? row : r)));
      queryClient.removeQueries({ queryKey: teamKeys.profile(row.Uid) });
    },
  });
}

/** DELETE /admin/team; the row is removed by Uid from the cached list. */
export function useDeleteSuperUser() {
  const queryClient = useQueryClient();
  const updateList = useUpdateList();
  return useMutation({
    mutationKey: [...teamKeys.all, 'delete'],
    mutationFn: (body: BodyOf<'teamDelete'>) => callApi('teamDelete', { body }),
    onSuccess: (answer, body) => {
      const uid = answer.Uid || body.uid;
      updateList((rows) => rows.filter((r) => r.Uid !== uid));
      queryClient.removeQueries({ queryKey: teamKeys.profile(uid) });
    },
  });
}

/**
 * POST /admin/team/invitation/resend: a pending invitee's invitation again (a new link; the one
 * before stops working). The list is read again: a refusal may mean the row changed meanwhile.
 */
export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...teamKeys.all, 'resend-invitation'],
    mutationFn: (uid: string) => callApi('teamResendInvitation', { body: { uid } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.list() }),
  });
}

/** GET /admin/team/sessions?uid=: a colleague's live sessions (SuperAdmins). */
export const useStaffSessions = (uid: string, enabled: boolean) =>
  useQuery({
    queryKey: teamKeys.sessions(uid),
    queryFn: async ({ signal }) => (await callApi('staffSessions', { query: { uid }, signal })).Data,
    enabled,
  });

/** DELETE /admin/team/sessions: end one of a colleague's sessions, or all; the list reloads. */
export function useEndStaffSessions(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...teamKeys.sessions(uid), 'end'],
    mutationFn: (Id: number | undefined) =>
      callApi('endStaffSessions', { body: Id === undefined ? { uid } : { uid, Id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.sessions(uid) }),
  });
}

/** DELETE /admin/team/mfa: remove a colleague's second factors (SuperAdmins); their sessions end. */
export function useResetStaffFactors(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...teamKeys.sessions(uid), 'factors-reset'],
    mutationFn: () => callApi('staffFactorsReset', { body: { uid } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.sessions(uid) }),
  });
}

/**
 * POST /admin/team/review: a SuperAdmin confirms or removes a colleague's roles (If-Match: the
 * row's Version, so roles changed meanwhile are not confirmed); the row takes the answer's roles,
 * version and review in the cached list.
 */
export function useReviewDecision() {
  const queryClient = useQueryClient();
  const updateList = useUpdateList();
  return useMutation({
    mutationKey: [...teamKeys.all, 'review'],
    mutationFn: async (v: { row: SuperUser; decision: 'confirm' | 'revoke' }) =>
      (
        await callApi('teamReviewDecide', {
          body: { Uid: v.row.Uid, Decision: v.decision },
          ifMatch: versionTag(v.row.Version),
        })
      ).Data,
    onSuccess: (d) => {
      updateList((rows) =>
        rows.map((r) =>
          r.Uid === d.Uid ? { ...r, Roles: d.Roles, Version: d.Version, Review: d.Review } : r,
        ),
      );
      queryClient.removeQueries({ queryKey: teamKeys.profile(d.Uid) });
    },
    // A version conflict: the list is read again, so the reviewer sees the roles as they are now.
    onError: () => queryClient.invalidateQueries({ queryKey: teamKeys.list() }),
  });
}
