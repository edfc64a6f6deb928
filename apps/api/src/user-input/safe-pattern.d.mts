/** Types of safe-pattern.mjs. */
import type { RE2JS } from 're2js';

export const PATTERN_MAX_CHARS: number;
export class UnsafePatternError extends Error {
  readonly pattern: string;
  constructor(pattern: string, reason: string);
}
export function compileSafePattern(pattern: string): RE2JS;
export function unsafePatternReason(pattern: string): string | undefined;
/** Ajv's `code.regExp` engine. */
export const safeRegExpEngine: {
  (pattern: string, flags: string): { test(text: string): boolean; toString(): string };
  code: string;
};
