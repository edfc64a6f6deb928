import { describe, expect, it } from 'vitest';
import { readAhead } from './csv.ts';

describe('readAhead', () => {
  it('asks for the next page as soon as one comes, holds one read in flight, and stops at the last', async () => {
    const asked: Array<number | undefined> = [];
    const read = async (cursor: number | undefined) => {
      asked.push(cursor);
      return { n: cursor ?? 0 };
    };
    const seen: Array<{ page: number; asked: number }> = [];
    for await (const p of readAhead(read, (p) => (p.n < 3 ? p.n + 1 : undefined)))
      seen.push({ page: p.n, asked: asked.length });
    // each page is handed over with the read of the next one already sent, never two ahead
    expect(seen).toEqual([
      { page: 0, asked: 2 },
      { page: 1, asked: 3 },
      { page: 2, asked: 4 },
      { page: 3, asked: 4 },
    ]);
  });

  it('drops a failed read it was given up on (no unhandled rejection), and fails one it waits for', async () => {
    const read = async (cursor: number | undefined) => {
      if (cursor === 1) throw new Error('gone');
      return cursor ?? 0;
    };
    // stopped after the first page: the failing read ahead is dropped without an unhandled rejection
    for await (const _ of readAhead(read, (n) => n + 1)) break;
    await new Promise((r) => setTimeout(r, 10));
    // read on: the failure reaches the reader
    const pages: number[] = [];
    await expect(
      (async () => {
        for await (const n of readAhead(read, (n) => n + 1)) pages.push(n);
      })(),
    ).rejects.toThrow('gone');
    expect(pages).toEqual([0]);
  });
});
