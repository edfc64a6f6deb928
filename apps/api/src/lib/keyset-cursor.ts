import { AppError } from './app-error.ts';

/**
 * Opaque keyset cursors: the key of the last row of a page, '|'-joined and base64url-encoded.
 * Clients pass them back untouched; anything else is a clear 400 naming `cursor`.
 */

/** What a part of a cursor must be. */
interface PartRule {
  test(part: string): boolean;
}

const PG_TIMESTAMP_TEXT = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?)([+-]\d{2})(:\d{2})?$/;
/**
 * A timestamp as PostgreSQL writes it (`at::text`), microseconds kept, so a key compares exactly;
 * a real instant, so the database never meets one it refuses (a 500, not a 400).
 */
export const PG_TIMESTAMP: PartRule = {
  test: (part) => {
    const m = PG_TIMESTAMP_TEXT.exec(part);
    if (!m || Math.abs(Number(m[3])) > 14) return false;
    const day = Date.parse(`${m[1]}T00:00:00Z`);
    // Date.parse takes 02-30 as 03-02: the day must come back as written
    if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== m[1]) return false;
    return !Number.isNaN(Date.parse(`${m[1]}T${m[2]!.slice(0, 12)}${m[3]}${m[4] ?? ':00'}`));
  },
};
/** A bigint id, within bigint's range. */
export const DIGITS: PartRule = {
  test: (part) => /^\d{1,19}$/.test(part) && BigInt(part) <= 9_223_372_036_854_775_807n,
};

const MESSAGE = 'cursor is not a cursor of this list.';

export function badCursor(): never {
  throw new AppError('validation', MESSAGE, [{ Field: 'cursor', Message: MESSAGE }]);
}

export const encodeCursor = (parts: readonly string[]): string =>
  Buffer.from(parts.join('|'), 'utf8').toString('base64url');

/** The parts of a cursor, each checked by its pattern (as many parts as patterns), else 400. */
export function decodeCursor(cursor: string, patterns: readonly PartRule[]): string[] {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (parts.length !== patterns.length || parts.some((p, i) => !patterns[i]!.test(p))) badCursor();
  return parts;
}
