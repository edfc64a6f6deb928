import { AppError } from './app-error.ts';

/**
 * Opaque keyset cursors, the one codec of every paged list: the parts of the last row's key as a
 * JSON array, base64url-encoded (a part may be any text: a customer's name may hold any
 * character). Clients pass them back untouched; anything else is a clear 400 naming `cursor`.
 * Each list says what every part must be, so a cursor of one list, sort or search is never read
 * as a position in another.
 */

/** What one part of a cursor must be; a rule that holds narrows the part to its type. */
export interface PartRule<T = unknown> {
  test(part: unknown): part is T;
}

/** Text matching `pattern` (anchor it). */
export const text = (pattern: RegExp): PartRule<string> => ({
  test: (part): part is string => typeof part === 'string' && pattern.test(part),
});

/** Exactly `value`. */
export const literal = <T extends string | number | boolean>(value: T): PartRule<T> => ({
  test: (part): part is T => part === value,
});

/** One of `values`. */
export const oneOf = <T extends string | number>(values: readonly T[]): PartRule<T> => ({
  test: (part): part is T => values.includes(part as T),
});

/** Any text (a sort key). */
export const ANY_TEXT: PartRule<string> = { test: (part): part is string => typeof part === 'string' };

/** true or false. */
export const BOOLEAN: PartRule<boolean> = { test: (part): part is boolean => typeof part === 'boolean' };

/** A whole number from 0 to `max`. */
export const count = (max: number): PartRule<number> => ({
  test: (part): part is number => Number.isInteger(part) && (part as number) >= 0 && (part as number) <= max,
});

const PG_TIMESTAMP_TEXT = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?)([+-]\d{2})(:\d{2})?$/;
/**
 * A timestamp as PostgreSQL writes it (`at::text`), microseconds kept, so a key compares exactly;
 * a real instant, so the database never meets one it refuses (a 500, not a 400).
 */
export const PG_TIMESTAMP: PartRule<string> = {
  test: (part): part is string => {
    const m = typeof part === 'string' ? PG_TIMESTAMP_TEXT.exec(part) : null;
    if (!m || Math.abs(Number(m[3])) > 14) return false;
    const day = Date.parse(`${m[1]}T00:00:00Z`);
    // Date.parse takes 02-30 as 03-02: the day must come back as written
    if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== m[1]) return false;
    return !Number.isNaN(Date.parse(`${m[1]}T${m[2]!.slice(0, 12)}${m[3]}${m[4] ?? ':00'}`));
  },
};
/** A bigint id as text, within bigint's range. */
export const DIGITS: PartRule<string> = {
  test: (part): part is string =>
    typeof part === 'string' && /^\d{1,19}$/.test(part) && BigInt(part) <= 9_223_372_036_854_775_807n,
};

const MESSAGE = 'cursor is not a cursor of this list.';

/** The 400 of a cursor that is not one of this list (`message`: the list's own words for it). */
export function badCursor(message: string = MESSAGE): never {
  throw new AppError('validation', message, [{ Field: 'cursor', Message: message }]);
}

type Part = string | number | boolean;
type Parts<R extends readonly PartRule[]> = {
  -readonly [K in keyof R]: R[K] extends PartRule<infer T> ? T : never;
};

export const encodeCursor = (parts: readonly Part[]): string =>
  Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');

/**
 * The parts of a cursor, each checked by its rule (as many parts as rules), else 400. A cursor
 * given before the parts were JSON ('|'-joined text) still reads, so paging across a deploy goes on.
 */
export function decodeCursor<const R extends readonly PartRule[]>(
  cursor: string,
  rules: R,
  message?: string,
): Parts<R> {
  const textOf = Buffer.from(cursor, 'base64url').toString('utf8');
  let parts: unknown;
  if (textOf.startsWith('[')) {
    try {
      parts = JSON.parse(textOf);
    } catch {
      badCursor(message);
    }
  } else {
    parts = textOf.split('|');
  }
  if (!Array.isArray(parts) || parts.length !== rules.length || parts.some((p, i) => !rules[i]!.test(p))) {
    badCursor(message);
  }
  return parts as Parts<R>;
}
