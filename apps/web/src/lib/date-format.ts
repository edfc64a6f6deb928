import { DATE_FORMAT } from '@sac/contract/constants';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * A date as MM-DD-YYYY (spec section 9), read in UTC so every viewer sees the server's day.
 * Answers '' for a missing or unreadable value.
 */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return DATE_FORMAT.replace('MM', pad(d.getUTCMonth() + 1))
    .replace('DD', pad(d.getUTCDate()))
    .replace('YYYY', pad(d.getUTCFullYear(), 4));
}

/** A date and time as MM-DD-YYYY HH:mm:ss in UTC (the customer view's UTC columns); '' when unreadable. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const day = formatDate(value);
  if (!day) return '';
  const d = value instanceof Date ? value : new Date(value as string | number);
  return `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** A date and time as MM-DD-YYYY HH:mm in UTC (impersonation expiries and log times); '' when unreadable. */
export function formatDateTimeMinutes(value: string | number | Date | null | undefined): string {
  const day = formatDate(value);
  if (!day) return '';
  const d = value instanceof Date ? value : new Date(value as string | number);
  return `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** The viewer's time zone as the browser names it (e.g. 'Europe/Paris'), 'UTC' when unknown. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * A date and time as MM-DD-YYYY HH:mm:ss in the viewer's time zone (or `timeZone`); '' when
 * unreadable. For screens whose column header names the zone.
 */
export function formatLocalDateTime(
  value: string | number | Date | null | undefined,
  timeZone: string = viewerTimeZone(),
): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${DATE_FORMAT.replace('MM', parts.month!).replace('DD', parts.day!).replace('YYYY', parts.year!)} ${parts.hour}:${parts.minute}:${parts.second}`;
}

const RELATIVE_STEPS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** How long ago (or how soon) a time is, in words: 'just now', '3 minutes ago', 'in 2 hours'. */
export function formatRelative(value: string | number | Date, now: number, locale = 'en'): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  let amount = (d.getTime() - now) / 1000;
  if (Math.abs(amount) < 45)
    return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(0, 'second');
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return '';
}
