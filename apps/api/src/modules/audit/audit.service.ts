import { Readable } from 'node:stream';
import {
  AUDIT_PAGE_SIZE,
  type AuditExportFormat,
  type AuditFilters,
  auditResultOf,
} from '@sac/contract/audit';
import {
  type AUDIT_EXPORT_SORT_KEYS,
  type AUDIT_SORT_KEYS,
  type ListSort,
  sortParam,
} from '@sac/contract/list-sort';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import { readAhead } from '../../lib/csv.ts';
import {
  ANY_TEXT,
  BOOLEAN,
  DIGITS,
  decodeCursor,
  encodeCursor,
  literal,
  PG_TIMESTAMP,
} from '../../lib/keyset-cursor.ts';
import { recordEvent } from '../activity/activity.service.ts';
import {
  countTrail,
  type KeyedTrailKey,
  lastTrailId,
  readNamedTrail,
  readTrail,
  type TrailKey,
} from './audit.repo.ts';
import { exportSigningKey, GENESIS, signSeal } from './audit-chain.ts';
import { fileHeader, fileRow, fileSeal } from './audit-file.ts';

/** The check of an exported file against the verification key (the `audit:verify` command, ops/). */
export { verifyExport } from './audit-file.ts';

/** Rows an export reads per query: large enough to stream fast, small enough to interleave. */
const EXPORT_BATCH = 2000;

type AuditSort = ListSort<(typeof AUDIT_SORT_KEYS)[number]>;
type ExportSort = ListSort<(typeof AUDIT_EXPORT_SORT_KEYS)[number]>;

/**
 * A cursor of the trail: the last row's (at, id); oldest first (sort=time) marked 'a' before them,
 * so a cursor of one order is refused under the other. Newest first keeps its cursors as they were.
 * By actor or action: the order's name and direction, the row's key (the actor's address in lower
 * case, '' for the system, kept apart by a flag) and its (at, id).
 */
function cursorOf(k: KeyedTrailKey, sort: AuditSort): string {
  if (sort.key === 'time') return encodeCursor(sort.descending ? [k.at, k.id] : ['a', k.at, k.id]);
  return encodeCursor([sortParam(sort), k.key === null, k.key ?? '', k.at, k.id]);
}
function keyOf(cursor: string, sort: AuditSort): KeyedTrailKey {
  if (sort.key === 'time' && !sort.descending) {
    const [, at, id] = decodeCursor(cursor, [literal('a'), PG_TIMESTAMP, DIGITS]);
    return { key: null, at, id };
  }
  if (sort.key === 'time') {
    const [at, id] = decodeCursor(cursor, [PG_TIMESTAMP, DIGITS]);
    return { key: null, at, id };
  }
  const [, none, key, at, id] = decodeCursor(cursor, [
    literal(sortParam(sort)),
    BOOLEAN,
    ANY_TEXT,
    PG_TIMESTAMP,
    DIGITS,
  ]);
  return { key: none ? null : key, at, id };
}

/** Newest first, the trail's own order. */
const NEWEST_FIRST: AuditSort = { key: 'time', descending: true };

/**
 * One page of the trail, newest first (or by `sort`), each row with its result and the names of
 * the customer, site and staff member it touched, read by the page's one statement.
 */
export async function listTrail(ctx: AppContext, f: AuditFilters & { cursor?: string; sort?: AuditSort }) {
  const { cursor, sort = NEWEST_FIRST, ...filters } = f;
  const after = cursor ? keyOf(cursor, sort) : undefined;
  const page = await readNamedTrail(ctx.db, filters, {
    after,
    limit: AUDIT_PAGE_SIZE + 1,
    sort: { by: sort.key, descending: sort.descending },
  });
  // One row more than a page tells whether a next page exists.
  const more = page.length > AUDIT_PAGE_SIZE;
  return {
    Data: page.slice(0, AUDIT_PAGE_SIZE).map((r) => ({
      ...r.event,
      Result: auditResultOf(r.event.Action),
      CustomerName: r.customerName,
      SiteName: r.siteName,
      StaffName: r.staffName,
      TargetGone: r.targetGone,
    })),
    NextCursor: more ? cursorOf(page[AUDIT_PAGE_SIZE - 1]!.key, sort) : null,
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
  sort?: ExportSort,
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
