import { useSyncExternalStore } from 'react';
import { viewerTimeZone } from './date-format.ts';
import { storedChoice } from './stored-choice.ts';

/**
 * Where times are shown: the viewer's own time zone (default) or UTC, chosen in the user menu and
 * kept in this browser. The spec's MM-DD-YYYY dates are days in UTC and do not follow it.
 */
export const TIME_ZONE_CHOICES = ['local', 'utc'] as const;
type TimeZoneChoice = (typeof TIME_ZONE_CHOICES)[number];

const timeZone = storedChoice<TimeZoneChoice>('lr-admin-time-zone', TIME_ZONE_CHOICES, 'local');

export const chooseTimeZone = timeZone.write;
export const useTimeZoneChoice = timeZone.useChoice;

/** The zone times are shown in: the viewer's (e.g. 'Europe/Paris') or 'UTC'. */
export function useTimeZone(): string {
  return useTimeZoneChoice() === 'utc' ? 'UTC' : viewerTimeZone();
}

// One clock for every relative time on the page, ticking while something shows one.
const clockListeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
const subscribeClock = (l: () => void) => {
  clockListeners.add(l);
  timer ??= setInterval(() => {
    now = Date.now();
    for (const c of clockListeners) c();
  }, 30_000);
  return () => {
    clockListeners.delete(l);
    if (clockListeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
};
const readClock = () => now;

/** The time, moved on every 30 seconds: enough for '3 minutes ago' to stay true. */
export const useRelativeClock = (): number => useSyncExternalStore(subscribeClock, readClock, readClock);
