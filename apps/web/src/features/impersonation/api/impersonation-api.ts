import { reasonSettingsOf } from '@sac/contract/access-reasons';
import type { BodyOf, QueryOf, ResponseOf } from '@sac/contract/endpoints';
import type { DISPLAY_STATUSES, ImpersonationRequest } from '@sac/contract/impersonation-api';
import { type ListSort, sortParam } from '@sac/contract/list-sort';
import { MESSAGES } from '@sac/contract/messages';
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useMemo } from 'react';
import { callApi } from '../../../lib/api-client.ts';

export type DisplayStatus = (typeof DISPLAY_STATUSES)[number];
export type LogEntry = ResponseOf<'impersonationLogs'>['Data'][number];
type ActionAnswer = ResponseOf<'impersonationAction'>;

/** Query keys of the impersonation feature. */
export const impersonationKeys = {
  all: ['impersonation'] as const,
  requestLists: () => [...impersonationKeys.all, 'requests'] as const,
  requests: (status: DisplayStatus | undefined, sort: ListSort | undefined) =>
    [...impersonationKeys.requestLists(), status ?? 'all', sort ? sortParam(sort) : 'own'] as const,
  logLists: () => [...impersonationKeys.all, 'logs'] as const,
  logs: (status: DisplayStatus | undefined, sort: ListSort | undefined) =>
    [...impersonationKeys.logLists(), status ?? 'all', sort ? sortParam(sort) : 'own'] as const,
  customerRoles: () => [...impersonationKeys.all, 'customer-roles'] as const,
  superAdmins: () => [...impersonationKeys.all, 'superadmins'] as const,
  site: (uid: string, appId: number) => [...impersonationKeys.all, 'site', uid, appId] as const,
  consent: (token: string) => [...impersonationKeys.all, 'consent', token] as const,
  siteAccess: (token: string) => [...impersonationKeys.all, 'site-access', token] as const,
  grant: (uid: string, appId: number) => [...impersonationKeys.all, 'grant', uid, appId] as const,
  takenRoles: (appId: number, exceptId: number | undefined) =>
    [...impersonationKeys.all, 'taken-roles', appId, exceptId ?? 'none'] as const,
};

type RequestPage = ResponseOf<'impersonationList'>;
type LogPage = ResponseOf<'impersonationLogs'>;
type RequestFilter = Omit<QueryOf<'impersonationList'>, 'cursor' | 'limit'>;

/** A list's filter and order as its query (and its export's). */
export const listQuery = (status: DisplayStatus | undefined, sort: ListSort | undefined) => ({
  ...(status ? { status } : {}),
  ...(sort ? { sort: sortParam(sort) } : {}),
});

/** GET /admin/impersonation/requests?...: one page (the first, or after `cursor`). */
const readRequestPage = (query: RequestFilter, cursor: string | undefined, signal?: AbortSignal) =>
  callApi('impersonationList', { query: { ...query, ...(cursor ? { cursor } : {}) }, signal });

/** One request by Id, as the viewer may see it (undefined when they may not, or it is gone). */
export const readRequest = async (
  id: number,
  signal?: AbortSignal,
): Promise<ImpersonationRequest | undefined> =>
  (await readRequestPage({ requestId: id }, undefined, signal)).Data[0];

/**
 * GET /admin/impersonation/requests?status=: in the server's order (pending and active first),
 * a page at a time; `rows` are the pages read so far, `list.fetchNextPage` reads the next (the
 * table's Next).
 */
export function useRequests(status: DisplayStatus | undefined, sort: ListSort | undefined, enabled = true) {
  const list = useInfiniteQuery({
    queryKey: impersonationKeys.requests(status, sort),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => readRequestPage(listQuery(status, sort), pageParam, signal),
    getNextPageParam: (last: RequestPage) => last.NextCursor ?? undefined,
    enabled,
  });
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.Data), [list.data]);
  return { list, rows };
}

/** One request, for a log entry's popup: asked for by Id, not looked for in the list. */
export const useRequest = (id: number | undefined, enabled: boolean) =>
  useQuery({
    queryKey: [...impersonationKeys.requestLists(), 'one', id ?? 0] as const,
    queryFn: ({ signal }) => readRequest(id!, signal).then((r) => r ?? null),
    enabled: enabled && id !== undefined,
  });

/** The viewer's pending requests on one site (a role is in one live request a site, so one page holds them). */
export const usePendingOnSite = (appId: number) =>
  useQuery({
    queryKey: [...impersonationKeys.requestLists(), 'site-pending', appId] as const,
    queryFn: async ({ signal }) =>
      (await readRequestPage({ status: 'Pending', appId }, undefined, signal)).Data,
  });

/**
 * GET /admin/impersonation/taken-roles: the roles other live requests of the site hold (the server
 * refuses them with 945); exceptId leaves out the request being edited. Empty until known.
 */
export const useTakenRoles = (appId: number, exceptId?: number) =>
  useQuery({
    queryKey: impersonationKeys.takenRoles(appId, exceptId),
    queryFn: async ({ signal }) =>
      (
        await callApi('impersonationTakenRoles', {
          query: { appId, ...(exceptId ? { exceptId } : {}) },
          signal,
        })
      ).Data.Roles,
  });

/**
 * GET /admin/impersonation/logs?status=&sort=: every step, newest first unless sorted, a page at a
 * time (as useRequests).
 */
export function useLogs(status: DisplayStatus | undefined, sort: ListSort | undefined, enabled = true) {
  const list = useInfiniteQuery({
    queryKey: impersonationKeys.logs(status, sort),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      callApi('impersonationLogs', {
        query: { ...listQuery(status, sort), ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
      }),
    getNextPageParam: (last: LogPage) => last.NextCursor ?? undefined,
    enabled,
  });
  const rows = useMemo(() => list.data?.pages.flatMap((p): LogEntry[] => p.Data), [list.data]);
  return { list, rows };
}

/** GET /admin/customer/roles; a failure toasts 'Unable to fetch customer roles. Please try again.'. */
export const useCustomerRoles = () =>
  useQuery({
    queryKey: impersonationKeys.customerRoles(),
    queryFn: async ({ signal }) => (await callApi('customerRoles', { signal })).Data,
    staleTime: 5 * 60_000,
    meta: { errorToast: MESSAGES.customerRolesFailed },
  });

/**
 * The SuperAdmins a request can be assigned to (GET /admin/impersonation/approvers), by name and
 * email, for every requester; a failure toasts the spec's superadmin-list message.
 */
export const useApprovers = () =>
  useQuery({
    queryKey: impersonationKeys.superAdmins(),
    queryFn: async ({ signal }) => (await callApi('impersonationApprovers', { signal })).Data,
    staleTime: 60_000,
    meta: { errorToast: MESSAGES.superAdminListFailed },
  });

/**
 * GET /admin/impersonation/reasons: the reason codes the operator offers and the case's rule
 * (IMPERSONATION_REASON_CODES, IMPERSONATION_CASE_REQUIRED, IMPERSONATION_CASE_URL).
 */
export const useReasonSettings = () =>
  useQuery({
    queryKey: [...impersonationKeys.all, 'reasons'] as const,
    queryFn: async ({ signal }) => reasonSettingsOf((await callApi('impersonationReasons', { signal })).Data),
    staleTime: 5 * 60_000,
  });

/** GET /admin/appbyid: the name of the site a request is for. */
export const useSite = (uid: string, appId: number, enabled: boolean) =>
  useQuery({
    queryKey: impersonationKeys.site(uid, appId),
    queryFn: async ({ signal }) => (await callApi('appById', { query: { uId: uid, appId }, signal })).Data,
    enabled,
  });

/** GET /admin/impersonation/consent?token= (public): what the consent link asks. */
export const useConsentDetails = (token: string, enabled: boolean) =>
  useQuery({
    queryKey: impersonationKeys.consent(token),
    queryFn: async ({ signal }) => (await callApi('consentDetails', { query: { token }, signal })).Data,
    enabled,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

export type SiteAccess = ResponseOf<'siteAccess'>['Data'];
export type SiteAccessStep = SiteAccess['Log'][number];

/** GET /admin/impersonation/site-access?token= (public): every request and step on the owner's site. */
export const useSiteAccess = (token: string, enabled: boolean) =>
  useQuery({
    queryKey: impersonationKeys.siteAccess(token),
    queryFn: async ({ signal }): Promise<SiteAccess> =>
      (await callApi('siteAccess', { query: { token }, signal })).Data,
    enabled,
    retry: false,
    staleTime: 60_000,
  });

type ListUpdate = (rows: ImpersonationRequest[], status: DisplayStatus | undefined) => ImpersonationRequest[];

/**
 * Updates every cached request list in place, page by page (each list knows its status filter),
 * and the requests read one by one; no refetch.
 */
function updateLists(queryClient: QueryClient, update: ListUpdate) {
  for (const [key, data] of queryClient.getQueriesData<
    InfiniteData<RequestPage> | ImpersonationRequest[] | ImpersonationRequest | null
  >({ queryKey: impersonationKeys.requestLists() })) {
    if (!data) continue;
    if (Array.isArray(data)) {
      queryClient.setQueryData(key, update(data, key[2] === 'site-pending' ? 'Pending' : undefined));
    } else if ('pages' in data) {
      const filter = key[2] === 'all' ? undefined : (key[2] as DisplayStatus);
      queryClient.setQueryData<InfiniteData<RequestPage>>(key, {
        ...data,
        pages: data.pages.map((p) => ({ ...p, Data: update(p.Data, filter) })),
      });
    } else {
      queryClient.setQueryData(key, update([data], undefined)[0] ?? null);
    }
  }
}

/** Log lists change with every write: cached ones refetch when shown. */
/** After a change to a request: the logs and the roles requests hold are read again when shown. */
const staleLogs = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: impersonationKeys.logLists() }),
    queryClient.invalidateQueries({ queryKey: [...impersonationKeys.all, 'taken-roles'] }),
  ]);

/** POST /admin/impersonation/requests; the lists reload when next shown. */
export function useCreateRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...impersonationKeys.all, 'create'],
    mutationFn: (body: BodyOf<'impersonationCreate'>) => callApi('impersonationCreate', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: impersonationKeys.all }),
  });
}

/** PUT /admin/impersonation/request?requestId=, naming the row's Version (If-Match); the row is replaced by Id in the cached lists. */
export function useEditRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...impersonationKeys.all, 'edit'],
    mutationFn: (v: { requestId: number; body: BodyOf<'impersonationEdit'>; ifMatch: string | undefined }) =>
      callApi('impersonationEdit', { query: { requestId: v.requestId }, body: v.body, ifMatch: v.ifMatch }),
    onSuccess: (answer) => {
      updateLists(queryClient, (rows) => rows.map((r) => (r.Id === answer.Data.Id ? answer.Data : r)));
      void staleLogs(queryClient);
    },
  });
}

/** DELETE /admin/impersonation/request?requestId=; the row is removed by Id from the cached lists. */
export function useDeleteRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...impersonationKeys.all, 'delete'],
    mutationFn: (requestId: number) => callApi('impersonationDelete', { query: { requestId } }),
    onSuccess: (answer, requestId) => {
      const id = answer.Id || requestId;
      updateLists(queryClient, (rows) => rows.filter((r) => r.Id !== id));
      void staleLogs(queryClient);
    },
  });
}

export interface ActionInput {
  requestId: number;
  body: BodyOf<'impersonationAction'>;
  revokeAction?: QueryOf<'impersonationAction'>['revokeAction'];
  /** The viewer, recorded as ActionTakenBy until the list reloads. */
  actor: string;
}

/** The row after an action, from the answer (and the comments the viewer sent). */
function applyAnswer(
  row: ImpersonationRequest,
  answer: ActionAnswer,
  input: Pick<ActionInput, 'actor' | 'body'>,
  now: Date,
): ImpersonationRequest {
  const d = answer.Data;
  return {
    ...row,
    Action: {
      ...row.Action,
      Status: d.Action.Status,
      ApprovedProxyRoles: d.ApprovedProxyRoles,
      ApprovedAdditionalPermissions: d.ApprovedAdditionalPermissions,
      ExpiresAt: d.ExpiresAt,
      ActionTakenBy: input.actor,
      ActionTakenAt: now.toISOString(),
      Reason: input.body.Comments ?? '',
    },
  };
}

/**
 * POST /admin/impersonation/request/action?requestId=&revokeAction=: approve, reject or revoke. The
 * row's Action takes the answer in every cached list; a filtered list drops a row that no longer
 * matches its status.
 */
export function useRequestAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...impersonationKeys.all, 'action'],
    mutationFn: (v: ActionInput) =>
      callApi('impersonationAction', {
        query: { requestId: v.requestId, ...(v.revokeAction ? { revokeAction: v.revokeAction } : {}) },
        body: v.body,
      }),
    onSuccess: (answer, input) => {
      const now = new Date();
      updateLists(queryClient, (rows, filter) =>
        rows
          .map((r) => (r.Id === answer.Data.Id ? applyAnswer(r, answer, input, now) : r))
          .filter((r) => r.Id !== answer.Data.Id || !filter || r.Action.Status === filter),
      );
      void staleLogs(queryClient);
    },
  });
}

/**
 * GET /admin/updateaccess?appId=&userId=: the viewer's live grant on the site (approved, consented,
 * unexpired, their own); 403 when there is none. Asked afresh each time the screen opens.
 */
export const useLiveGrant = (uid: string, appId: number, enabled = true) =>
  useQuery({
    queryKey: impersonationKeys.grant(uid, appId),
    queryFn: async ({ signal }) =>
      (await callApi('updateAccess', { query: { appId, userId: uid }, signal })).Data,
    enabled,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });

/** POST /admin/impersonation/consent (public): the site owner's answer. */
export const useAnswerConsent = () =>
  useMutation({
    mutationKey: [...impersonationKeys.all, 'consent-answer'],
    meta: { errorFallback: false },
    mutationFn: (body: BodyOf<'consentAnswer'>) => callApi('consentAnswer', { body }),
  });
