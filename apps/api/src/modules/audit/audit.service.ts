import { Readable } from 'node:stream';
import { AUDIT_PAGE_SIZE, type AuditExportFormat, type AuditFilters } from '@sac/contract/audit';
import { type AUDIT_SORT_KEYS, type ListSort, sortParam } from '@sac/contract/list-sort';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import { readAhead } from '../../lib/csv.ts';
import { DIGITS, decodeCursor, encodeCursor, literal, PG_TIMESTAMP } from '../../lib/keyset-cursor.ts';
import { recordEvent } from '../activity/activity.service.ts';
import { countTrail, lastTrailId, readTrail, type TrailKey } from './audit.repo.ts';
import { exportSigningKey, GENESIS, signSeal } from './audit-chain.ts';
import { fileHeader, fileRow, fileSeal } from './audit-file.ts';

/** The check of an exported file against the verification key (the `audit:verify` command, ops/). */
export { verifyExport } from './audit-file.ts';

/** Rows an export reads per query: large enough to stream fast, small enough to interleave. */
const EXPORT_BATCH = 2000;

type AuditSort = ListSort<(typeof AUDIT_SORT_KEYS)[number]>;

/**
 * A cursor of the trail: the last row's (at, id); oldest first (sort=time) marked 'a' before them,
 * so a cursor of one order is refused under the other. Newest first keeps its cursors as they were.
 */
const cursorOf = (k: TrailKey, oldest: boolean): string =>
  encodeCursor(oldest ? ['a', k.at, k.id] : [k.at, k.id]);
function keyOf(cursor: string, oldest: boolean): TrailKey {
  if (oldest) {
    const [, at, id] = decodeCursor(cursor, [literal('a'), PG_TIMESTAMP, DIGITS]);
    return { at, id };
  }
  const [at, id] = decodeCursor(cursor, [PG_TIMESTAMP, DIGITS]);
  return { at, id };
}

/** One page of the trail, newest first (sort=time: oldest first). */
export async function listTrail(ctx: AppContext, f: AuditFilters & { cursor?: string; sort?: AuditSort }) {
  const { cursor, sort, ...filters } = f;
  const oldest = sort?.descending === false;
  const after = cursor ? keyOf(cursor, oldest) : undefined;
  const order = oldest ? 'oldest' : 'newest';
  const page = await readTrail(ctx.db, filters, { after, limit: AUDIT_PAGE_SIZE + 1, order });
  // One row more than a page tells whether a next page exists.
  const more = page.events.length > AUDIT_PAGE_SIZE;
  return {
    Data: page.events.slice(0, AUDIT_PAGE_SIZE),
    NextCursor: more ? cursorOf(page.keys[AUDIT_PAGE_SIZE - 1]!, oldest) : null,
  };
}

/** The export's filters as recorded in its seal and in the trail: only those given. */
const givenFilters = (f: AuditFilters): Record<string, unknown> =>
  Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));

/**
 * The filtered trail as a file, oldest first (sort=-time: newest first), up to the last row when
 * the export began: its header names how many rows follow (the console's progress), its rows
 * carry the hash chain in file order and its last line the signed seal, whose filters name a
 * newest-first order (`sort: '-time'`). The export itself is recorded in the trail.
 */
export async function exportTrail(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  f: AuditFilters,
  format: AuditExportFormat,
  release: () => void,
  sort?: AuditSort,
): Promise<{ rows: number; body: Readable; filename: string }> {
  try {
    const newest = sort?.descending === true;
    const filters = { ...givenFilters(f), ...(newest ? { sort: sortParam(sort) } : {}) };
    const upTo = await lastTrailId(ctx.db);
    const rows = await countTrail(ctx.db, f, upTo);
    const exportedAt = ctx.clock.now().toISOString();
    await recordEvent(ctx.db, {
      at: new Date(exportedAt),
      action: 'audit.export',
      actorUid: actor.uid,
      actorEmail: actor.email,
      clientAddress: caller.clientAddress,
      details: { format, rows, filters },
    });
    const { privateKey } = exportSigningKey(ctx.crypto);
    const db = ctx.db;
    async function* file(): AsyncGenerator<string> {
      yield fileHeader(format, { rows, filters, exportedAt });
      let chain = GENESIS;
      let written = 0;
      // The next batch is read while this one is hashed and written (readAhead).
      const batches = readAhead(
        (after: TrailKey | undefined) =>
          readTrail(db, f, { after, limit: EXPORT_BATCH, order: newest ? 'newest' : 'oldest', upTo }),
        (b) => (b.events.length < EXPORT_BATCH ? undefined : b.keys.at(-1)),
      );
      for await (const batch of batches) {
        let out = '';
        for (const e of batch.events) {
          const r = fileRow(format, e, chain);
          chain = r.chain;
          out += r.line;
        }
        written += batch.events.length;
        if (out) yield out;
      }
      const seal = { rows: written, head: chain, filters, exportedAt };
      yield fileSeal(format, seal, signSeal(seal, privateKey));
    }
    const body = Readable.from(file(), { objectMode: false });
    body.once('close', release);
    const stamp = exportedAt.replace(/[:.]/g, '-');
    return { rows, body, filename: `audit-trail-${stamp}.${format === 'csv' ? 'csv' : 'jsonl'}` };
  } catch (e) {
    release();
    throw e;
  }
}

/** GET /admin/audit/signing-key */
export function signingKey(ctx: AppContext) {
  return { Data: { Algorithm: 'Ed25519', PublicKey: exportSigningKey(ctx.crypto).publicKeyPem } };
}
