import type { BodyOf, ResponseOf } from '@sac/contract/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import {
  clearImpersonation,
  type ImpersonationSession,
  startImpersonation,
} from '../../../lib/impersonation-mode.ts';
import { impersonationKeys } from './impersonation-api.ts';

export type BasicSettings = ResponseOf<'siteBasicSettings'>['Data'];

/**
 * Calls made THROUGH an impersonation session: each sends the session's own pair, never the
 * admin's, so the server applies the granted customer permissions. A 401 ends the impersonation
 * (the client clears the pair; the site screen shows the ended notice).
 */
export const impersonatedKeys = {
  all: [...impersonationKeys.all, 'impersonated'] as const,
  session: (s: ImpersonationSession) => [...impersonatedKeys.all, s.startedAt, s.grant.AppId] as const,
  basicSettings: (s: ImpersonationSession) => [...impersonatedKeys.session(s), 'basic-settings'] as const,
  features: (s: ImpersonationSession) => [...impersonatedKeys.session(s), 'features'] as const,
  dataCenter: (s: ImpersonationSession) => [...impersonatedKeys.session(s), 'data-center'] as const,
  siteInfo: (s: ImpersonationSession) => [...impersonatedKeys.session(s), 'site-info'] as const,
  heartbeat: (s: ImpersonationSession) => [...impersonatedKeys.session(s), 'heartbeat'] as const,
};

/** How often an open impersonated screen asks whether the session still stands. */
export const HEARTBEAT_MS = 30_000;

/**
 * GET /admin/session with the impersonation pair every HEARTBEAT_MS while the screen is open: a
 * revocation shows within that time even when nothing else is called (the 401 ends the mode).
 */
export const useImpersonationHeartbeat = (s: ImpersonationSession) =>
  useQuery({
    queryKey: impersonatedKeys.heartbeat(s),
    queryFn: async ({ signal }) => (await callApi('session', { signal, auth: s })).Email,
    refetchInterval: HEARTBEAT_MS,
    refetchIntervalInBackground: true,
    ...once,
  });

const ids = (s: ImpersonationSession) => ({ uid: s.ownerUid, appId: s.grant.AppId });
const once = { retry: false, refetchOnWindowFocus: false } as const;

/** GET /admin/site/basicsettings {uID, appId} (ViewData). */
export const useImpersonatedBasicSettings = (s: ImpersonationSession) =>
  useQuery({
    queryKey: impersonatedKeys.basicSettings(s),
    queryFn: async ({ signal }) => {
      const { uid, appId } = ids(s);
      return (await callApi('siteBasicSettings', { query: { uID: uid, appId }, signal, auth: s })).Data;
    },
    ...once,
  });

/** GET /admin/site/feature {userId, appId} (ViewData). */
export const useImpersonatedFeatures = (s: ImpersonationSession) =>
  useQuery({
    queryKey: impersonatedKeys.features(s),
    queryFn: async ({ signal }) => {
      const { uid, appId } = ids(s);
      return (await callApi('siteFeature', { query: { userId: uid, appId }, signal, auth: s })).Data;
    },
    ...once,
  });

/** GET /admin/site/datacenter {userId, appId} (ViewData): the catalogue and the site's current choice. */
export const useImpersonatedDataCenter = (s: ImpersonationSession) =>
  useQuery({
    queryKey: impersonatedKeys.dataCenter(s),
    queryFn: async ({ signal }) => {
      const { uid, appId } = ids(s);
      return (await callApi('siteDataCenter', { query: { userId: uid, appId }, signal, auth: s })).Data;
    },
    ...once,
  });

/** GET /admin/appinfobyid {uId, appId} (ViewData): the database, its connection string masked. */
export const useImpersonatedSiteInfo = (s: ImpersonationSession) =>
  useQuery({
    queryKey: impersonatedKeys.siteInfo(s),
    queryFn: async ({ signal }) => {
      const { uid, appId } = ids(s);
      return (await callApi('appInfoById', { query: { uId: uid, appId }, signal, auth: s })).Data;
    },
    ...once,
  });

/** PUT /admin/site/basicsettings (ManageSettings); the cached settings take the answer. */
export function useImpersonatedSaveBasicSettings(s: ImpersonationSession) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...impersonatedKeys.session(s), 'save-basic-settings'],
    mutationFn: async (body: BodyOf<'updateSiteBasicSettings'>) => {
      const { uid, appId } = ids(s);
      return (await callApi('updateSiteBasicSettings', { query: { uID: uid, appId }, body, auth: s })).Data;
    },
    onSuccess: (data) => {
      queryClient.setQueryData(impersonatedKeys.basicSettings(s), data);
      void queryClient.invalidateQueries({ queryKey: impersonatedKeys.siteInfo(s) });
    },
  });
}

/** PUT /admin/site/status (ManageSite); refused (403, toasted) when the grant lacks it. */
export function useImpersonatedSiteStatus(s: ImpersonationSession) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...impersonatedKeys.session(s), 'site-status'],
    mutationFn: async (Status: BodyOf<'setSiteStatus'>['Status']) => {
      const { uid, appId } = ids(s);
      return (await callApi('setSiteStatus', { query: { uId: uid, appId }, body: { Status }, auth: s })).Data;
    },
    onSuccess: (site) => {
      queryClient.setQueryData<BasicSettings>(impersonatedKeys.basicSettings(s), (prev) =>
        prev ? { ...prev, Status: site.Status } : prev,
      );
      void queryClient.invalidateQueries({ queryKey: impersonatedKeys.siteInfo(s) });
    },
  });
}

/**
 * GET /account/switchapp?appid= with the admin's pair: opens an impersonation session (a new pair)
 * and keeps it for this tab.
 */
export function useStartImpersonation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...impersonationKeys.all, 'start'],
    mutationFn: async (v: { ownerUid: string; appId: number }) => {
      const answer = await callApi('switchApp', { query: { appid: v.appId } });
      return {
        xtoken: answer.xtoken,
        xsign: answer.xsign,
        grant: answer.Data,
        ownerUid: v.ownerUid,
        startedAt: new Date().toISOString(),
      } satisfies ImpersonationSession;
    },
    onSuccess: (session) => {
      queryClient.removeQueries({ queryKey: impersonatedKeys.all });
      startImpersonation(session);
    },
  });
}

/**
 * Ends the impersonation: forgets it at once (the caller may leave the screen right away), then
 * POST /admin/logout with its pair (best effort: an already ended session answers 401, which is
 * fine). What it changed shows on the next admin reads.
 */
export function useEndImpersonation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...impersonationKeys.all, 'end'],
    meta: { errorFallback: false },
    mutationFn: async (s: ImpersonationSession) => {
      clearImpersonation();
      try {
        await callApi('logout', { auth: s });
      } catch {
        // Ended or unreachable: the console leaves impersonation mode regardless.
      }
    },
    onSettled: () => {
      queryClient.removeQueries({ queryKey: impersonatedKeys.all });
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
    },
  });
}
