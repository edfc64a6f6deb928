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

// One clock for every relative time on the page: the time in 30-second steps, read afresh (a time
// first shown after an hour with none on screen must not read from an hour-old now). While
// something shows one, a look every 5 seconds re-renders it within 5 seconds of each step.
const CLOCK_STEP_MS = 30_000;
const CLOCK_LOOK_MS = 5_000;
const clockListeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
const subscribeClock = (l: () => void) => {
  clockListeners.add(l);
  timer ??= setInterval(() => {
    for (const c of clockListeners) c();
  }, CLOCK_LOOK_MS);
  return () => {
    clockListeners.delete(l);
    if (clockListeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
};
// Stepped, so that reads in one render agree (useSyncExternalStore asks for a stable snapshot).
const readClock = () => Math.floor(Date.now() / CLOCK_STEP_MS) * CLOCK_STEP_MS;

/** The time, in 30-second steps, for relative times ('3 minutes ago'); re-renders as it moves on. */
export const useRelativeClock = (): number => useSyncExternalStore(subscribeClock, readClock, readClock);
