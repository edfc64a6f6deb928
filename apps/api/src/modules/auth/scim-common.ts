import { ScimError } from './scim-filter.ts';
import { PAGE_MAX, PATCH_OPS_MAX, URN } from './scim-schema.ts';

/** Who makes a SCIM call: the provider's token, and where from (for the trail). */
export interface ScimCaller {
  token: { id: number; name: string };
  clientAddress: string;
  /** The server's public origin, for meta.location. */
  base: string;
}

export const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
export const bad = (detail: string, scimType = 'invalidValue') => new ScimError(400, detail, scimType);
export const notFound = (what: string) => new ScimError(404, `There is no ${what} with that id.`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isId = (s: string) => s.length === 36 && UUID.test(s);

export const trailOf = (c: ScimCaller, at: Date) => ({
  at,
  actorUid: null,
  actorEmail: `scim:${c.token.name}`,
  clientAddress: c.clientAddress,
});

export function pageOf(q: { startIndex?: string; count?: string }) {
  const start = Math.max(1, Math.min(1_000_000, Number.parseInt(q.startIndex ?? '1', 10) || 1));
  const n = Number.parseInt(q.count ?? String(PAGE_MAX), 10);
  const count = Number.isNaN(n) ? PAGE_MAX : Math.max(0, Math.min(PAGE_MAX, n));
  return { start, count };
}

export const listResponse = (total: number, start: number, resources: unknown[]) => ({
  schemas: [URN.list],
  totalResults: total,
  startIndex: start,
  itemsPerPage: resources.length,
  Resources: resources,
});

export const str = (v: unknown, field: string, max: number): string => {
  if (typeof v !== 'string' || v.trim() === '' || v.length > max)
    throw bad(`${field} is a string of 1 to ${max} characters.`);
  return v.trim();
};

/** A userName is the member's email address (bounded, one @, no spaces). */

export const externalIdOf = (v: unknown): string | null =>
  v === undefined || v === null ? null : str(v, 'externalId', 200);

export interface PatchOp {
  op: 'add' | 'replace' | 'remove';
  path: string | undefined;
  value: unknown;
}

/** The Operations of a PatchOp body (RFC 7644 §3.5.2), bounded and checked. */
export function patchOpsOf(body: unknown): PatchOp[] {
  const b = (body ?? {}) as { schemas?: unknown; Operations?: unknown };
  if (!Array.isArray(b.schemas) || !b.schemas.includes(URN.patch))
    throw bad('The body is a PatchOp.', 'invalidSyntax');
  if (!Array.isArray(b.Operations) || b.Operations.length === 0 || b.Operations.length > PATCH_OPS_MAX)
    throw bad(`A PatchOp has 1 to ${PATCH_OPS_MAX} Operations.`, 'invalidSyntax');
  return b.Operations.map((o: unknown) => {
    const x = (o ?? {}) as { op?: unknown; path?: unknown; value?: unknown };
    const op = typeof x.op === 'string' ? x.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw bad('op is add, replace or remove.', 'invalidSyntax');
    if (x.path !== undefined && (typeof x.path !== 'string' || x.path.length > 300))
      throw bad('path is a string.', 'invalidPath');
    if (op === 'remove' && x.path === undefined) throw bad('A remove names its path.', 'noTarget');
    return { op, path: x.path as string | undefined, value: x.value };
  });
}

/** One User PATCH operation applied to a state. */
