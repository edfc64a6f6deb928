// Regular expressions that users supply run on RE2JS, a port of RE2: matching takes time linear in
// the text, whatever the pattern, so no pattern can backtrack for hours on the event loop (or in
// the sandbox). Plain JavaScript, so the sandbox's worker thread loads it as it is in every way the
// API runs (Node's type stripping, the test runner).
import { RE2JS } from 're2js';

/** Longest pattern accepted; the contract's PATTERN_MAX_CHARS says the same to the console. */
export const PATTERN_MAX_CHARS = 512;

/** A pattern that the safe engine refuses, with words a person can act on. */
export class UnsafePatternError extends Error {
  constructor(pattern, reason) {
    const shown = pattern.length > 60 ? `${pattern.slice(0, 57)}…` : pattern;
    super(
      `The pattern ${JSON.stringify(shown)} cannot be used: ${reason}. Patterns run on a linear-time engine ` +
        '(RE2 syntax), which has no lookahead, lookbehind or backreferences.',
    );
    this.name = 'UnsafePatternError';
    this.pattern = pattern;
  }
}

/** Compiles a pattern on the safe engine, or throws UnsafePatternError saying why not. */
export function compileSafePattern(pattern) {
  if (typeof pattern !== 'string') throw new UnsafePatternError(String(pattern), 'it is not text');
  if (pattern.length > PATTERN_MAX_CHARS)
    throw new UnsafePatternError(pattern, `it is longer than ${PATTERN_MAX_CHARS} characters`);
  try {
    return RE2JS.compile(pattern);
  } catch (e) {
    // RE2JS says "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"
    const reason = String(e?.message ?? e).replace(/^error parsing regexp: /, '');
    throw new UnsafePatternError(pattern, reason);
  }
}

/** Why a pattern cannot be used, or undefined when it can. */
export function unsafePatternReason(pattern) {
  try {
    compileSafePattern(pattern);
    return undefined;
  } catch (e) {
    return e.message;
  }
}

/**
 * Ajv's `code.regExp` engine: JSON Schema `pattern`, `patternProperties` and the like compile
 * here. Ajv asks for the flag "u"; RE2 matches Unicode code points anyway.
 */
export function safeRegExpEngine(pattern, _flags) {
  const re = compileSafePattern(pattern);
  return {
    test: (text) => re.test(text),
    toString: () => `re2:/${pattern}/`,
  };
}
safeRegExpEngine.code = 'safeRegExpEngine';
