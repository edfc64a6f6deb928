/**
 * Bounds on JSON that users type (a custom object's schema, a sample to check against it). They are
 * checked before anything parses or compiles the text, by a single pass over its characters, so
 * that a deep or huge document costs the server no more than reading it once.
 */
export const SCHEMA_MAX_CHARS = 65_536;
export const SCHEMA_MAX_DEPTH = 32;
export const SAMPLE_MAX_CHARS = 65_536;
export const SAMPLE_MAX_DEPTH = 64;
/** Longest regular expression a user may supply (JSON Schema `pattern`, rules of fields and data sources). */
export const PATTERN_MAX_CHARS = 512;

export const JSON_LIMIT_MESSAGES = {
  schemaTooLong: `The schema is too long: at most ${SCHEMA_MAX_CHARS.toLocaleString('en-US')} characters.`,
  schemaTooDeep: `The schema is nested too deeply: at most ${SCHEMA_MAX_DEPTH} levels of objects and arrays.`,
  sampleTooLong: `The sample is too long: at most ${SAMPLE_MAX_CHARS.toLocaleString('en-US')} characters.`,
  sampleTooDeep: `The sample is nested too deeply: at most ${SAMPLE_MAX_DEPTH} levels of objects and arrays.`,
  patternTooLong: `A pattern may have at most ${PATTERN_MAX_CHARS} characters.`,
} as const;

/**
 * The deepest nesting of objects and arrays in a JSON text, brackets inside strings not counted.
 * Stops counting once `limit` is passed (answers limit + 1), so its cost is one pass at most.
 */
export function jsonNesting(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return deepest;
}
