import type { Queryable } from './db.ts';

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
  const r = await db.query<{ record: string; version: number }>(
    'SELECT record, version::int AS version FROM record_versions WHERE record = ANY($1::text[])',
    [records],
  );
  for (const row of r.rows) out.set(row.record, row.version);
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
    const r = await db.query<{ version: number }>(
      `INSERT INTO record_versions (record, version) VALUES ($1, 1)
       ON CONFLICT (record) DO UPDATE SET version = record_versions.version + 1
       RETURNING version::int AS version`,
      [record],
    );
    return r.rows[0]?.version;
  }
  const raised = await db.query<{ version: number }>(
    `UPDATE record_versions SET version = version + 1 WHERE record = $1 AND version = $2
     RETURNING version::int AS version`,
    [record, expected],
  );
  if (raised.rows[0]) return raised.rows[0].version;
  if (expected !== 0) return undefined;
  // Version 0 is no row: the first versioned write inserts it; a concurrent first write waits on
  // the key and then inserts nothing.
  const first = await db.query<{ version: number }>(
    `INSERT INTO record_versions (record, version) VALUES ($1, 1) ON CONFLICT (record) DO NOTHING
     RETURNING version::int AS version`,
    [record],
  );
  return first.rows[0]?.version;
}
