import {
  STAFF_CHANGE_EVENT,
  STAFF_NOTIFICATION_EVENT,
  type StaffChangeEventData,
  type StaffNotificationEventData,
  type StaffNotificationKind,
} from '@sac/contract/staff-notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, callApi, readEventStream } from '../../../lib/api-client.ts';
import { announceChange } from '../../../lib/live-changes.ts';

const staffNotificationKeys = {
  all: ['staff-notifications'] as const,
  list: ['staff-notifications', 'list'] as const,
  preferences: ['staff-notifications', 'preferences'] as const,
};

/** The bell's page: the newest notifications and the unread count. */
export const useStaffNotifications = (live: boolean) =>
  useQuery({
    queryKey: staffNotificationKeys.list,
    queryFn: ({ signal }) => callApi('staffNotifications', { query: { limit: 20 }, signal }),
    // the stream says when to read again; without it, once a minute
    refetchInterval: live ? false : 60_000,
    staleTime: live ? Number.POSITIVE_INFINITY : 30_000,
  });

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (which: { Ids: number[] } | { All: true }) =>
      callApi('staffNotificationsRead', { body: which }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffNotificationKeys.list }),
  });
}

export const useNotificationPreferences = () =>
  useQuery({
    queryKey: staffNotificationKeys.preferences,
    queryFn: ({ signal }) => callApi('staffNotificationPreferences', { signal }),
  });

export function useSaveNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (prefs: Array<{ Kind: StaffNotificationKind; Delivery: 'in-app' | 'email' }>) =>
      callApi('staffNotificationPreferencesSave', { body: { Preferences: prefs } }),
    onSuccess: (answer) => queryClient.setQueryData(staffNotificationKeys.preferences, answer),
  });
}

/** Waits before the n-th reconnect: 1, 2, 4 … at most 30 seconds. */
const backoffMs = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

/**
 * Holds the live stream while the shell is shown: each event refreshes the bell's page (its
 * unread count at once); a dropped stream reconnects with Last-Event-ID, so nothing is missed.
 * Its 'changed' events (and a reconnect, which may have missed some) are announced to the screens
 * that show what changed (lib/live-changes.ts: the dashboard).
 * Answers whether it is live; when the server refuses it (too many tabs: 429) or it keeps
 * failing, the bell falls back to reading once a minute.
 */
export function useNotificationStream(enabled: boolean): boolean {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    if (!enabled || typeof ReadableStream === 'undefined') return;
    const abort = new AbortController();
    let lastEventId: string | undefined;
    let attempt = 0;
    let opened = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      while (!abort.signal.aborted) {
        try {
          await readEventStream('staffNotificationStream', {
            lastEventId,
            signal: abort.signal,
            onOpen: () => {
              attempt = 0;
              setLive(true);
              // what came while it was away
              void queryClient.invalidateQueries({ queryKey: staffNotificationKeys.list });
              if (opened) announceChange('impersonation');
              opened = true;
            },
            onEvent: (e) => {
              if (e.event === STAFF_CHANGE_EVENT) {
                try {
                  announceChange((JSON.parse(e.data) as StaffChangeEventData).Topic);
                } catch {
                  // a malformed event: nothing to read again
                }
                return;
              }
              if (e.event !== STAFF_NOTIFICATION_EVENT) return;
              lastEventId = e.id ?? lastEventId;
              try {
                const data = JSON.parse(e.data) as StaffNotificationEventData;
                queryClient.setQueryData(
                  staffNotificationKeys.list,
                  (old: { UnreadCount: number } | undefined) =>
                    old ? { ...old, UnreadCount: data.UnreadCount } : old,
                );
              } catch {
                // a malformed event: the refresh below reads the truth
              }
              void queryClient.invalidateQueries({ queryKey: staffNotificationKeys.list });
            },
          });
        } catch (e) {
          if (abort.signal.aborted) return;
          // signed out (the client has ended the session), not for this session, too many tabs,
          // or a server without the stream: reading each minute will do
          if (e instanceof ApiError && [401, 403, 404, 429].includes(e.status)) {
            setLive(false);
            return;
          }
        }
        if (abort.signal.aborted) return;
        setLive(false);
        await new Promise<void>((resolve) => {
          timer = setTimeout(resolve, backoffMs(attempt++));
        });
      }
    };
    void run();
    return () => {
      abort.abort();
      if (timer) clearTimeout(timer);
      setLive(false);
    };
  }, [enabled, queryClient]);
  return live;
}
