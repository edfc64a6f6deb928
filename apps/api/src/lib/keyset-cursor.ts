import { AppError } from './app-error.ts';

/**
 * Opaque keyset cursors: the key of the last row of a page, '|'-joined and base64url-encoded.
 * Clients pass them back untouched; anything else is a clear 400 naming `cursor`.
 */

/** A timestamp as PostgreSQL writes it (`at::text`), microseconds kept, so a key compares exactly. */
export const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;
/** A bigint id. */
export const DIGITS = /^\d{1,19}$/;

const MESSAGE = 'cursor is not a cursor of this list.';

export function badCursor(): never {
  throw new AppError('validation', MESSAGE, [{ Field: 'cursor', Message: MESSAGE }]);
}

export const encodeCursor = (parts: readonly string[]): string =>
  Buffer.from(parts.join('|'), 'utf8').toString('base64url');

/** The parts of a cursor, each checked by its pattern (as many parts as patterns), else 400. */
export function decodeCursor(cursor: string, patterns: readonly RegExp[]): string[] {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (parts.length !== patterns.length || parts.some((p, i) => !patterns[i]!.test(p))) badCursor();
  return parts;
}
