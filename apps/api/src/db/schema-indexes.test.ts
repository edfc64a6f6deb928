import { describe, expect, it } from 'vitest';
import { freshDb } from '../../test/harness.ts';

/**
 * The migrated schema keeps no index twice: two indexes of a table on the same keys (in either
 * direction: a btree is read both ways), expressions, predicate and operator classes cost every
 * write of the table and answer nothing the other does not.
 */
describe('the migrated schema', () => {
  it('has no index that another of its table already is', async () => {
    const { db, drop } = await freshDb();
    try {
      const twins = await db.query<{ kept: string; twin: string }>(
        `SELECT a.indexrelid::regclass::text AS kept, b.indexrelid::regclass::text AS twin
           FROM pg_index a
           JOIN pg_index b ON b.indrelid = a.indrelid AND b.indexrelid > a.indexrelid
                AND b.indkey::text = a.indkey::text AND b.indclass::text = a.indclass::text
                AND coalesce(b.indexprs::text, '') = coalesce(a.indexprs::text, '')
                AND coalesce(b.indpred::text, '') = coalesce(a.indpred::text, '')
           JOIN pg_class t ON t.oid = a.indrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = 'public'
            -- a btree with every key reversed (DESC and NULLS FIRST flipped) is the same read backwards
            AND (b.indoption::text = a.indoption::text OR
                 (SELECT bool_and((x # 3) = y) FROM unnest(a.indoption::int2[]) WITH ORDINALITY p(x, i)
                    JOIN unnest(b.indoption::int2[]) WITH ORDINALITY q(y, j) ON i = j))
          ORDER BY 1, 2`,
      );
      expect(twins.rows).toEqual([]);
    } finally {
      await drop();
    }
  });
});
