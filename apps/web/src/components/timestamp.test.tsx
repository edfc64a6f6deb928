import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chooseTimeZone } from '../lib/time-zone.ts';
import { Timestamp } from './timestamp.tsx';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-26T09:33:00Z') });
  chooseTimeZone('utc');
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Timestamp', () => {
  it('reads relative to the time now, with the exact time in the chosen zone as its name', () => {
    render(<Timestamp value="2026-11-26T09:30:00.000Z" />);
    const time = screen.getByTitle('11-26-2026 09:30:00 (UTC)');
    expect(time.tagName).toBe('TIME');
    expect(time.textContent).toBe('3 minutes ago (11-26-2026 09:30:00 (UTC))');
  });

  it('moves on while shown', () => {
    render(<Timestamp value="2026-11-26T09:30:00.000Z" />);
    act(() => vi.advanceTimersByTime(2 * 60_000));
    expect(screen.getByTitle('11-26-2026 09:30:00 (UTC)').textContent).toMatch(/^5 minutes ago/);
  });

  it('a time first shown after an hour with none on screen reads from the time then, not an old one', () => {
    const first = render(<Timestamp value="2026-11-26T09:30:00.000Z" />);
    first.unmount();
    vi.setSystemTime(new Date('2026-11-26T11:00:00Z'));
    render(<Timestamp value="2026-11-26T10:59:00.000Z" />);
    expect(screen.getByTitle('11-26-2026 10:59:00 (UTC)').textContent).toMatch(/^1 minute ago/);
  });
});
