import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prepared } from './connection-common.ts';
import type { Db } from './db.ts';
import { wrapPglite } from './pglite-db.ts';
import { BATCH_ENGINE_MS } from './pglite-statement.ts';
import { preparedStatement, qb } from './sql.ts';

// The one-pass statement (pglite-statement.ts) answers what PGlite's own query() answers.
let raw: PGlite;
let db: Db;
beforeAll(async () => {
  raw = await PGlite.create();
  db = wrapPglite(raw);
  await db.exec(`CREATE TABLE t (
    id int PRIMARY KEY, name text, at timestamptz, day date, big bigint, ok boolean,
    hash bytea, tags text[], doc jsonb, amount numeric)`);
});
afterAll(() => db.close());

const row = {
  id: 1,
  name: "Ada ✓ 'quoted'",
  at: new Date('2026-11-29T10:11:12.345Z'),
  day: '2026-11-29',
  big: '9007199254740993',
  ok: true,
  hash: Buffer.from([0, 1, 2, 254, 255]),
  tags: ['a', 'b,c', 'd"e', ''],
  doc: JSON.stringify({ k: [1, 'two', null] }),
  amount: '12.50',
};
const INSERT = `INSERT INTO t (id, name, at, day, big, ok, hash, tags, doc, amount)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`;

/** Counts the database's file syncs (one a batch of statements) until restored. */
function countSyncs() {
  const synced = raw.syncToFs.bind(raw);
  const counter = {
    count: 0,
    restore: () => {
      raw.syncToFs = synced;
    },
  };
  raw.syncToFs = () => {
    counter.count++;
    return synced();
  };
  return counter;
}

describe('a statement in one pass on PGlite', () => {
  it("sends every kind of parameter as node-postgres does and reads the row as PGlite's query() does", async () => {
    const inserted = (await db.query(INSERT, Object.values(row))).rows[0];
    const theirs = (await raw.query('SELECT * FROM t WHERE id = $1', [1])).rows[0];
    expect(inserted).toEqual(theirs);
    expect(inserted).toMatchObject({ id: 1, name: row.name, at: row.at, ok: true, tags: row.tags });
    expect(Buffer.from((inserted as { hash: Uint8Array }).hash)).toEqual(row.hash);
    expect((inserted as { doc: unknown }).doc).toEqual({ k: [1, 'two', null] });
  });

  it('answers no rows for a write without RETURNING, and null parameters as NULL', async () => {
    expect((await db.query('UPDATE t SET name = $1 WHERE id = $2', [null, 1])).rows).toEqual([]);
    expect((await db.query('SELECT name IS NULL AS gone FROM t WHERE id = $1', [1])).rows).toEqual([
      { gone: true },
    ]);
  });

  it("throws the database's error with its code, and the next statement runs", async () => {
    const err = await db.query(INSERT, Object.values(row)).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '23505' });
    const syntax = await db.query('SELEC 1', []).catch((e: unknown) => e);
    expect(syntax).toMatchObject({ code: '42601' });
    expect((await db.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 1 }]);
  });

  it('parses a prepared() statement once per database and reuses it, also after a failed call', async () => {
    const lookup = prepared('SELECT id, name FROM t WHERE id = $1');
    expect((await db.query(lookup, [1])).rows).toEqual([{ id: 1, name: null }]);
    expect(await db.query(lookup, ['not a number']).catch((e: unknown) => e)).toMatchObject({
      code: '22P02',
    });
    expect((await db.query(lookup, [1])).rows).toHaveLength(1);
    const names = (await raw.query<{ name: string }>('SELECT name FROM pg_prepared_statements')).rows;
    expect(names.filter((n) => n.name.startsWith('sac_'))).toHaveLength(1);
  });

  it('runs in a transaction, which rolls back when its function throws, and waits for one in flight', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('UPDATE t SET name = $1 WHERE id = $2', ['in tx', 1]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await db.query('SELECT name FROM t WHERE id = $1', [1])).rows).toEqual([{ name: null }]);

    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let updated!: () => void;
    const inside = new Promise<void>((r) => {
      updated = r;
    });
    const tx = db.transaction(async (q) => {
      await q.query('UPDATE t SET name = $1 WHERE id = $2', ['committed', 1]);
      updated();
      await held;
    });
    await inside;
    // a statement outside waits for the transaction, and then sees what it committed
    const outside = db.query<{ name: string }>('SELECT name FROM t WHERE id = $1', [1]);
    await new Promise((r) => setTimeout(r, 20));
    release();
    await tx;
    expect((await outside).rows).toEqual([{ name: 'committed' }]);
  });

  it('runs the statements sent in one turn together, with one sync of the files, each failure its own', async () => {
    const lookup = prepared('SELECT id, name FROM t WHERE id = $1');
    await db.query(lookup, [1]); // parsed once: from then on it joins a turn's batch
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const syncs = countSyncs();
    // the clock stands still, so a busy machine cannot push the batch past BATCH_ENGINE_MS
    const clock = vi.spyOn(performance, 'now').mockReturnValue(0);
    try {
      const sent = [
        db.query('INSERT INTO t (id, name) VALUES ($1, $2) RETURNING id', [2, 'two']),
        db.query(lookup, [1]),
        db.query('INSERT INTO t (id, name) VALUES ($1, $2)', [2, 'again']),
        db.query('SELEC 1', []),
        db.query('SELECT $1::jsonb AS doc', [circular]),
        db.query(lookup, [2]),
        db.query('DELETE FROM t WHERE id = $1 RETURNING name', [2]),
      ];
      const settled = await Promise.allSettled(sent);
      expect(
        settled.map((r) =>
          r.status === 'fulfilled' ? r.value.rows : ((r.reason as { code?: string }).code ?? 'thrown'),
        ),
      ).toEqual([
        [{ id: 2 }],
        [{ id: 1, name: 'committed' }],
        '23505',
        '42601',
        'thrown',
        [{ id: 2, name: 'two' }],
        [{ name: 'two' }],
      ]);
      expect(syncs.count).toBe(1);
    } finally {
      clock.mockRestore();
      syncs.restore();
    }
    expect((await db.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 1 }]);
  });

  it('answers a batch once it has run for BATCH_ENGINE_MS, and runs the rest in the next turn', async () => {
    const syncs = countSyncs();
    try {
      // each statement alone takes longer than a batch's engine time: one batch each
      const slow = (i: number) =>
        db.query<{ i: number }>('SELECT $1::int AS i, pg_sleep($2)', [i, (BATCH_ENGINE_MS + 2) / 1000]);
      const order: number[] = [];
      const sent = [1, 2, 3].map((i) => slow(i).then((r) => void order.push(r.rows[0]!.i)));
      await Promise.all(sent);
      expect(order).toEqual([1, 2, 3]);
      expect(syncs.count).toBe(3);
    } finally {
      syncs.restore();
    }
  });

  it('refuses a statement on an ended transaction', async () => {
    let kept: Parameters<Parameters<Db['transaction']>[0]>[0] | undefined;
    await db.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.query('SELECT 1', [])).rejects.toThrow('Transaction is closed');
  });
});

describe('preparedStatement: a statement built and compiled once', () => {
  const plain = (status: 'Active' | 'Blocked', name: string) =>
    qb
      .selectFrom('customers')
      .select('uid')
      .where('status', '=', status)
      .where('role', '=', 'Owner')
      .where('first_name', '=', name);
  const byName = preparedStatement(plain);

  it('gives each call its own arguments in place, keeps constants, and the text of the plain builder', () => {
    for (const [status, name] of [
      ['Active', 'Ada'],
      ['Blocked', 'Grace'],
    ] as const) {
      const c = byName(status, name).compile();
      expect(c.sql).toBe(plain(status, name).compile().sql);
      expect(c.parameters).toEqual([status, 'Owner', name]);
    }
  });

  it('refuses a statement whose text depends on its arguments, or that changes one', () => {
    const bySome = preparedStatement((names: string[]) =>
      qb.selectFrom('customers').select('uid').where('first_name', 'in', names),
    );
    expect(() => bySome(['a', 'b'])).toThrow('an argument is used other than as a value');
    const byRole = preparedStatement((n: number) =>
      qb.selectFrom('customers').select('uid').where('role', '=', String(n)),
    );
    expect(() => byRole(1)).toThrow('an argument is used other than as a value');
  });
});
