import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDateTimeMinutes, formatRelative } from './date-format.ts';

describe('formatDate', () => {
  it('formats as MM-DD-YYYY', () => {
    expect(formatDate('2024-03-07T10:20:30.000Z')).toBe('03-07-2024');
    expect(formatDate('1999-12-31T00:00:00Z')).toBe('12-31-1999');
    expect(formatDate(new Date(Date.UTC(2025, 0, 5)))).toBe('01-05-2025');
  });

  it('reads the day in UTC, whatever the offset of the value', () => {
    expect(formatDate('2024-03-07T23:30:00-05:00')).toBe('03-08-2024');
    expect(formatDate('2024-03-08T00:30:00+02:00')).toBe('03-07-2024');
  });

  it("answers '' for missing or unreadable values", () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('formatDateTime', () => {
  it('adds the UTC time of day', () => {
    expect(formatDateTime('2024-03-07T23:30:05-05:00')).toBe('03-08-2024 04:30:05');
    expect(formatDateTime('2025-01-02T03:04:05Z')).toBe('01-02-2025 03:04:05');
  });

  it("answers '' for missing or unreadable values", () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('nope')).toBe('');
  });
});

describe('formatDateTimeMinutes', () => {
  it('formats as MM-DD-YYYY HH:mm in UTC', () => {
    expect(formatDateTimeMinutes('2024-03-07T23:30:05-05:00')).toBe('03-08-2024 04:30');
    expect(formatDateTimeMinutes(null)).toBe('');
  });
});

describe('formatRelative', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it('says how long ago or how soon, in the largest unit that fits', () => {
    expect(formatRelative('2026-11-26T11:59:30Z', now)).toBe('now');
    expect(formatRelative('2026-11-26T11:57:00Z', now)).toBe('3 minutes ago');
    expect(formatRelative('2026-11-26T10:00:00Z', now)).toBe('2 hours ago');
    expect(formatRelative('2026-11-25T12:00:00Z', now)).toBe('yesterday');
    expect(formatRelative('2026-11-26T14:00:00Z', now)).toBe('in 2 hours');
    expect(formatRelative('2024-11-26T12:00:00Z', now)).toBe('2 years ago');
    expect(formatRelative('not a date', now)).toBe('');
  });
});
