import type { Queryable } from './db.ts';
import { firstRow, qb, rows } from './sql.ts';

/**
 * Versions of records kept apart from their rows (table record_versions, migration 0032): a record
 * never written through a versioned write is at version 0.
 */

/** The version of each named record (0 for a record with none yet). */
export async function recordVersions(
  db: Queryable,
  records: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map(records.map((r) => [r, 0]));
  if (records.length === 0) return out;
  const found = await rows(
    db,
    qb.selectFrom('record_versions').select(['record', 'version']).where('record', 'in', records),
  );
  for (const row of found) out.set(row.record, row.version);
  return out;
}

/** One record's version (0 when it has none yet). */
export async function recordVersion(db: Queryable, record: string): Promise<number> {
  return (await recordVersions(db, [record])).get(record) ?? 0;
}

/**
 * Raises a record's version for a write, inside that write's transaction and before it: only
 * while the version is still `expected` (undefined: whatever it is). The new version, or
 * undefined when another write came first (then the caller writes nothing). The row lock taken
 * here holds a concurrent writer of the same record until this transaction ends; that writer then
 * finds the raised version and is refused.
 */
export async function claimVersion(
  db: Queryable,
  record: string,
  expected?: number,
): Promise<number | undefined> {
  if (expected === undefined) {
    const r = await firstRow(
      db,
      qb
        .insertInto('record_versions')
        .values({ record, version: 1 })
        .onConflict((oc) =>
          oc.column('record').doUpdateSet((eb) => ({ version: eb('record_versions.version', '+', 1) })),
        )
        .returning('version'),
    );
    return r?.version;
  }
  const raised = await firstRow(
    db,
    qb
      .updateTable('record_versions')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('record', '=', record)
      .where('version', '=', expected)
      .returning('version'),
  );
  if (raised) return raised.version;
  if (expected !== 0) return undefined;
  // Version 0 is no row: the first versioned write inserts it; a concurrent first write waits on
  // the key and then inserts nothing.
  const first = await firstRow(
    db,
    qb
      .insertInto('record_versions')
      .values({ record, version: 1 })
      .onConflict((oc) => oc.column('record').doNothing())
      .returning('version'),
  );
  return first?.version;
}
