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
