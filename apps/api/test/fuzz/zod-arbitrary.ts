/**
 * A small zod-to-fast-check deriver for the zod types the contract's request schemas use:
 * object, string (trim/lower-case overwrites, min/max length, regex, uuid, url), number (coerce,
 * int, bounds), boolean, enum, literal, array, optional, default, nullable, union (also
 * discriminated), pipe (a transform's input side) and unknown.
 *
 * Refinements (`refine`/`superRefine`) cannot be read back from a schema: a string leaf with one
 * needs a hint (by its key), or deriving fails, so that a new refined field is noticed here.
 */
import fc from 'fast-check';
import type { z } from 'zod';

interface Def {
  type: string;
  [k: string]: unknown;
}
interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (s: z.ZodType): CheckDef[] =>
  ((defOf(s).checks as Array<{ _zod: { def: CheckDef } }> | undefined) ?? []).map((c) => c._zod.def);

/** Values for a key whose schema carries a refinement (or whose realistic values matter). */
export type Hints = (key: string, path: readonly string[]) => fc.Arbitrary<unknown> | undefined;

/** Arbitrary valid-looking values of a schema: valid by construction except for object-level refinements. */
export function validArbitrary(
  schema: z.ZodType,
  hints: Hints,
  path: readonly string[] = [],
): fc.Arbitrary<unknown> {
  const key = path[path.length - 1];
  if (key !== undefined) {
    const hinted = hints(key, path);
    if (hinted) return hinted;
  }
  const d = defOf(schema);
  switch (d.type) {
    case 'string':
      return stringArbitrary(schema, path);
    case 'number':
      return numberArbitrary(schema, Boolean(d.coerce));
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(d.entries as Record<string, string>));
    case 'literal':
      return fc.constantFrom(...(d.values as unknown[]));
    case 'optional':
    case 'default':
      return fc.option(validArbitrary(d.innerType as z.ZodType, hints, path), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(validArbitrary(d.innerType as z.ZodType, hints, path), { nil: null, freq: 4 });
    case 'array': {
      const min = checksOf(schema).find((c) => c.check === 'min_length')?.minimum ?? 0;
      return fc.array(validArbitrary(d.element as z.ZodType, hints, [...path, '0']), {
        minLength: min,
        maxLength: min + 3,
      });
    }
    case 'object':
      return objectArbitrary(d.shape as Record<string, z.ZodType>, hints, path);
    case 'union':
      return fc.oneof(...(d.options as z.ZodType[]).map((o) => validArbitrary(o, hints, path)));
    case 'pipe': {
      const inner = d.in as z.ZodType;
      // A preprocess (a transform into a schema, as decimalInteger) takes what its schema takes.
      if ((inner as unknown as { def: { type: string } }).def.type === 'transform')
        return validArbitrary(d.out as z.ZodType, hints, path);
      // A transform's output side says nothing about its input: derive from the input side.
      return validArbitrary(inner, hints, path);
    }
    case 'unknown':
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
    default:
      throw new Error(`zod-arbitrary: no rule for zod type '${d.type}' at ${path.join('.') || '(root)'}`);
  }
}

function objectArbitrary(
  shape: Record<string, z.ZodType>,
  hints: Hints,
  path: readonly string[],
): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(shape);
  return fc.tuple(...keys.map((k) => validArbitrary(shape[k]!, hints, [...path, k]))).map((values) => {
    const out: Record<string, unknown> = {};
    keys.forEach((k, i) => {
      if (values[i] !== undefined) out[k] = values[i];
    });
    return out;
  });
}

function stringArbitrary(schema: z.ZodType, path: readonly string[]): fc.Arbitrary<string> {
  const checks = checksOf(schema);
  const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
  const max = checks.find((c) => c.check === 'max_length')?.maximum ?? Math.max(min, 40);
  const format = checks.find((c) => c.check === 'string_format');
  if (format?.format === 'uuid') return fc.uuid({ version: [4] });
  if (format?.format === 'url') return fc.webUrl();
  if (checks.some((c) => c.check === 'custom')) {
    throw new Error(`zod-arbitrary: the refined string at ${path.join('.')} needs a hint`);
  }
  if (format?.format === 'regex' && format.pattern) {
    return fc
      .stringMatching(format.pattern)
      .filter((s) => s.length >= min && s.length <= max && s.trim() === s);
  }
  // Trimmed before the length checks: keep the value's own ends non-blank.
  return fc
    .string({ minLength: min, maxLength: Math.min(max, min + 40), unit: 'grapheme' })
    .map((s) => s.trim())
    .filter((s) => s.length >= min);
}

function numberArbitrary(schema: z.ZodType, coerce: boolean): fc.Arbitrary<number | string> {
  let min = -1_000_000;
  let max = 1_000_000;
  for (const c of checksOf(schema)) {
    if (c.check === 'greater_than') min = c.inclusive ? c.value! : c.value! + 1;
    if (c.check === 'less_than') max = c.inclusive ? c.value! : c.value! - 1;
  }
  const n = fc.integer({ min, max });
  // A coerced number also takes its decimal text.
  return coerce ? fc.oneof(n, n.map(String)) : n;
}
