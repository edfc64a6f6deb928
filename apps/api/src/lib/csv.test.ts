import { describe, expect, it } from 'vitest';
import { csvFile, readAhead } from './csv.ts';

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

describe('csvFile', () => {
  it('writes a large page in chunks of at most 1,000 lines, every row once and in order', async () => {
    const ids = Array.from({ length: 2500 }, (_, i) => i + 1);
    const body = csvFile<number, number>({
      header: ['Id'],
      page: async (cursor) =>
        cursor === undefined
          ? { rows: ids.slice(0, 2400), next: 2400 }
          : { rows: ids.slice(cursor), next: null },
      line: (id) => [id],
      release: () => {},
    });
    const chunks: string[] = [];
    for await (const c of body) chunks.push(String(c));
    const lines = chunks.map((c) => c.split('\n').filter(Boolean).length);
    expect(Math.max(...lines)).toBeLessThanOrEqual(1000);
    // the header, then 1,000 + 1,000 + 400 of the first page and 100 of the second
    expect(lines).toEqual([1, 1000, 1000, 400, 100]);
    expect(chunks.join('').trim().split(/\r?\n/)).toEqual(['Id', ...ids.map(String)]);
  });
});
