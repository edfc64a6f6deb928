import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.ts';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once and the rest in arrival order', async () => {
    const s = new Semaphore(2);
    const started: number[] = [];
    const finish: Array<() => void> = [];
    const tasks = [0, 1, 2, 3].map((i) =>
      s.run(async () => {
        started.push(i);
        await new Promise<void>((r) => finish.push(r));
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(s.load).toEqual({ running: 2, waiting: 2 });
    finish[0]!();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    finish[1]!();
    finish[2]!();
    await tick();
    finish[3]!();
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3]);
    expect(s.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot when a task fails', async () => {
    const s = new Semaphore(1);
    await expect(s.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await s.run(async () => 'next')).toBe('next');
  });

  it('refuses a limit below one', () => {
    expect(() => new Semaphore(0)).toThrow('positive integer');
  });
});
