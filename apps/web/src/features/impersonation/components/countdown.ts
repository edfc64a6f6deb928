import { useEffect, useState } from 'react';

/** Milliseconds left until `expiresAt` (never negative; 0 for an unreadable time). */
export function remainingMs(expiresAt: string, now: number): number {
  const end = new Date(expiresAt).getTime();
  return Number.isNaN(end) ? 0 : Math.max(0, end - now);
}

/** A countdown: 'mm:ss' under an hour, 'h:mm:ss' from an hour on (whole seconds, rounded up). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

/** The milliseconds left until `expiresAt`, updated every second. */
export function useRemaining(expiresAt: string): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return remainingMs(expiresAt, now);
}
