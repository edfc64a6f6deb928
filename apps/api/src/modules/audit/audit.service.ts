import { Readable } from 'node:stream';
import { AUDIT_PAGE_SIZE, type AuditExportFormat, type AuditFilters } from '@sac/contract/audit';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import { DIGITS, decodeCursor, encodeCursor, PG_TIMESTAMP } from '../../lib/keyset-cursor.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { countTrail, lastTrailId, readTrail, type TrailKey } from './audit.repo.ts';
import { exportSigningKey, GENESIS, signSeal } from './audit-chain.ts';
import { fileHeader, fileRow, fileSeal } from './audit-file.ts';

/** Rows an export reads per query: large enough to stream fast, small enough to interleave. */
const EXPORT_BATCH = 2000;

const cursorOf = (k: TrailKey): string => encodeCursor([k.at, k.id]);
function keyOf(cursor: string): TrailKey {
  const [at, id] = decodeCursor(cursor, [PG_TIMESTAMP, DIGITS]);
  return { at: at!, id: id! };
}

/** One page of the trail, newest first. */
export async function listTrail(ctx: AppContext, f: AuditFilters & { cursor?: string }) {
  const { cursor, ...filters } = f;
  const after = cursor ? keyOf(cursor) : undefined;
  const page = await readTrail(ctx.db, filters, { after, limit: AUDIT_PAGE_SIZE + 1, order: 'newest' });
  // One row more than a page tells whether an older page exists.
  const more = page.events.length > AUDIT_PAGE_SIZE;
  return {
    Data: page.events.slice(0, AUDIT_PAGE_SIZE),
    NextCursor: more ? cursorOf(page.keys[AUDIT_PAGE_SIZE - 1]!) : null,
  };
}

/** The export's filters as recorded in its seal and in the trail: only those given. */
const givenFilters = (f: AuditFilters): Record<string, unknown> =>
  Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));

/**
 * The filtered trail as a file, oldest first, up to the last row when the export began: its
 * header names how many rows follow (the console's progress), its rows carry the hash chain and
 * its last line the signed seal. The export itself is recorded in the trail.
 */
export async function exportTrail(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  f: AuditFilters,
  format: AuditExportFormat,
  release: () => void,
): Promise<{ rows: number; body: Readable; filename: string }> {
  try {
    const filters = givenFilters(f);
    const upTo = await lastTrailId(ctx.db);
    const rows = await countTrail(ctx.db, f, upTo);
    const exportedAt = ctx.clock.now().toISOString();
    await writeActivity(ctx.db, {
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
      let after: TrailKey | undefined;
      let written = 0;
      for (;;) {
        const batch = await readTrail(db, f, { after, limit: EXPORT_BATCH, order: 'oldest', upTo });
        let out = '';
        for (const e of batch.events) {
          const r = fileRow(format, e, chain);
          chain = r.chain;
          out += r.line;
        }
        written += batch.events.length;
        if (out) yield out;
        if (batch.events.length < EXPORT_BATCH) break;
        after = batch.keys.at(-1);
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
