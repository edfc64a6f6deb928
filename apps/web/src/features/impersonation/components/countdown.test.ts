import { describe, expect, it } from 'vitest';
import { formatCountdown, remainingMs } from './countdown.ts';

describe('impersonation countdown', () => {
  it('reads mm:ss under an hour and h:mm:ss from an hour on', () => {
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(5_000)).toBe('00:05');
    expect(formatCountdown(61_000)).toBe('01:01');
    expect(formatCountdown(3_599_000)).toBe('59:59');
    expect(formatCountdown(3_600_000)).toBe('1:00:00');
    expect(formatCountdown(3_725_000)).toBe('1:02:05');
    expect(formatCountdown(30 * 86_400_000)).toBe('720:00:00');
  });

  it('rounds part seconds up, so it shows 00:00 only when the time is up', () => {
    expect(formatCountdown(1)).toBe('00:01');
    expect(formatCountdown(59_001)).toBe('01:00');
    expect(formatCountdown(-5_000)).toBe('00:00');
  });

  it('counts to the expiry, never below zero', () => {
    const now = Date.parse('2025-01-01T10:00:00Z');
    expect(remainingMs('2025-01-01T10:30:00Z', now)).toBe(30 * 60_000);
    expect(remainingMs('2025-01-01T09:00:00Z', now)).toBe(0);
    expect(remainingMs('not a date', now)).toBe(0);
  });
});
