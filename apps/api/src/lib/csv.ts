import { Readable } from 'node:stream';
import { csvLine } from '@sac/contract/csv';
import { consistentReader, type Db, type Queryable, type Snapshot } from '../db/db.ts';

/** The exports' CSV fields, written as the console writes the CSV of a list it holds whole. */
export { csvLine };

/**
 * Lines written between two chunks of a file: each chunk is larger than the stream's buffer, so
 * the next waits for the socket to take it, and other requests run in between.
 */
const CHUNK_LINES = 1000;

/**
 * A list's CSV file, streamed with back-pressure: the header, then every row the list's pages
 * read (each page asked for with the previous one's cursor), cut at `limit` rows when given (the
 * count sent ahead in x-export-rows, which a row listed twice by a change meanwhile may pass).
 * The next page is asked for before this one is written out (readAhead), so on PostgreSQL the
 * database reads it while this process formats; at most two pages are held.
 * `release` runs once the stream closes, read to its end or not.
 */
export function csvFile<T, C>(opts: {
  header: readonly string[];
  page: (cursor: C | undefined) => Promise<{ rows: readonly T[]; next: C | null | undefined }>;
  line: (row: T) => readonly unknown[];
  limit?: number;
  release: () => void;
}): Readable {
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  async function* lines(): AsyncGenerator<string> {
    yield csvLine(opts.header);
    let written = 0;
    const pages = readAhead(opts.page, (p) => p.next ?? undefined);
    for await (const p of pages) {
      let out = '';
      let lines = 0;
      for (const row of p.rows) {
        if (written === limit) break;
        out += csvLine(opts.line(row));
        written++;
        // a chunk at a time, so that a large page does not hold the event loop while it is written
        if (++lines === CHUNK_LINES) {
          yield out;
          out = '';
          lines = 0;
        }
      }
      if (out) yield out;
      if (written >= limit) break;
    }
  }
  const body = Readable.from(lines(), { objectMode: false });
  body.once('close', opts.release);
  return body;
}

/**
 * The pages of a keyset read, from the first (cursor undefined) until `next` gives none, each page
 * asked for as soon as the one before it has come (before that one is used): one read in flight
 * while the caller works on the page before it. Ending early leaves at most that one read, whose
 * page is dropped.
 */
export async function* readAhead<P, C>(
  read: (cursor: C | undefined) => Promise<P>,
  next: (page: P) => C | undefined,
): AsyncGenerator<P> {
  let pending: Promise<P> | undefined = read(undefined);
  while (pending) {
    const page: P = await pending;
    const cursor = next(page);
    pending = cursor === undefined ? undefined : read(cursor);
    // A read given up on (the caller stopped) must not fail unhandled.
    pending?.catch(() => {});
    yield page;
  }
}

/** An instant as it reads in a file name (no ':' or '.'). */
export const fileStamp = (at: Date): string => at.toISOString().replace(/[:.]/g, '-');

/**
 * Builds an export on its own reader (consistentReader: one snapshot on PostgreSQL). `build` gets
 * the reader's statements and the export's end, for csvFile's `release`: the snapshot's connection
 * given back, then the export's place among those at once (`release`). A failure before the file
 * is made ends both at once.
 */
export async function exportReading<T>(
  db: Db,
  release: () => void,
  build: (q: Queryable, end: () => void) => Promise<T>,
): Promise<T> {
  let reader: Snapshot | undefined;
  const end = () => {
    reader?.end();
    release();
  };
  try {
    reader = await consistentReader(db);
    return await build(reader.q, end);
  } catch (e) {
    end();
    throw e;
  }
}
