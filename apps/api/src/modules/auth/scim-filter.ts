/**
 * The SCIM filters this server answers (RFC 7644 §3.4.2.2), parsed strictly by hand: one
 * `attribute eq "string"` with an attribute from the resource's short list; anything else is an
 * invalidFilter. No regular expression sees the input, and it is bounded before it is read.
 */
const FILTER_MAX = 300;

export class ScimError extends Error {
  readonly status: number;
  readonly scimType: string | undefined;
  constructor(status: number, detail: string, scimType?: string) {
    super(detail);
    this.status = status;
    this.scimType = scimType;
  }
}

const invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter');

/** `attr eq "value"` → the attribute as listed in `allowed` (matched case-insensitively) and the value. */
export function parseEqFilter(text: string, allowed: readonly string[]): { attr: string; value: string } {
  if (text.length > FILTER_MAX) throw invalidFilter(`A filter is at most ${FILTER_MAX} characters.`);
  const s = text.trim();
  const sp1 = s.indexOf(' ');
  if (sp1 < 1) throw invalidFilter('A filter is: attribute eq "value".');
  const attrText = s.slice(0, sp1);
  const attr = allowed.find((a) => a.toLowerCase() === attrText.toLowerCase());
  if (!attr) throw invalidFilter(`Filtering is by ${allowed.join(', ')} only.`);
  const rest = s.slice(sp1 + 1).trimStart();
  if (rest.slice(0, 3).toLowerCase() !== 'eq ') throw invalidFilter('Only the eq operator is supported.');
  const literal = rest.slice(3).trim();
  if (literal.length < 2 || literal[0] !== '"' || literal[literal.length - 1] !== '"')
    throw invalidFilter('The value of a filter is a quoted string.');
  let value: unknown;
  try {
    value = JSON.parse(literal);
  } catch {
    throw invalidFilter('The value of a filter is a quoted string.');
  }
  if (typeof value !== 'string') throw invalidFilter('The value of a filter is a quoted string.');
  return { attr, value };
}

/** `members[value eq "…"]` (a PATCH path, RFC 7644 §3.5.2.2) → the member's id; undefined for plain `members`. */
export function memberPathValue(path: string): string | undefined {
  const p = path.trim();
  if (p.toLowerCase() === 'members') return undefined;
  if (p.slice(0, 8).toLowerCase() !== 'members[' || !p.endsWith(']'))
    throw new ScimError(400, `The path ${p.slice(0, 100)} is not supported.`, 'invalidPath');
  return parseEqFilter(p.slice(8, -1), ['value']).value;
}
