import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepared } from './connection-common.ts';
import type { Db } from './db.ts';
import { openPgliteDir, wrapPglite } from './pglite-db.ts';
import { preparedStatement, qb } from './sql.ts';

// The one-pass statement (pglite-statement.ts) answers what PGlite's own query() answers, in
// process and from the embedded database's own thread (pglite-thread.ts), which the server uses.
const TABLE = `CREATE TABLE t (
    id int PRIMARY KEY, name text, at timestamptz, day date, big bigint, ok boolean,
    hash bytea, tags text[], doc jsonb, amount numeric)`;

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

/** The row as PGlite's own query() reads it back. */
let theirs: unknown;
let reference: PGlite;
beforeAll(async () => {
  reference = await PGlite.create();
  await reference.exec(TABLE);
  await reference.query(INSERT, Object.values(row));
  theirs = (await reference.query('SELECT * FROM t WHERE id = $1', [1])).rows[0];
});
afterAll(() => reference.close());

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const ENGINES: Array<[string, () => Promise<Db>]> = [
  ['in process', async () => wrapPglite(await PGlite.create())],
  [
    'on its own thread',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-thread-'));
      dirs.push(dir);
      return openPgliteDir(path.join(dir, 'pglite'), { thread: true });
    },
  ],
];

describe.each(ENGINES)('a statement in one pass on PGlite, %s', (_, open) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
    await db.exec(TABLE);
  }, 60_000);
  afterAll(() => db.close());

  it("sends every kind of parameter as node-postgres does and reads the row as PGlite's query() does", async () => {
    const inserted = (await db.query(INSERT, Object.values(row))).rows[0];
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
    expect(await db.exec('SELEC 1').catch((e: unknown) => e)).toMatchObject({ code: '42601' });
    expect((await db.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 1 }]);
  });

  it('parses a prepared() statement once per database and reuses it, also after a failed call', async () => {
    const lookup = prepared('SELECT id, name FROM t WHERE id = $1');
    expect((await db.query(lookup, [1])).rows).toEqual([{ id: 1, name: null }]);
    expect(await db.query(lookup, ['not a number']).catch((e: unknown) => e)).toMatchObject({
      code: '22P02',
    });
    expect((await db.query(lookup, [1])).rows).toHaveLength(1);
    const names = (await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements')).rows;
    expect(names.filter((n) => n.name.startsWith('sac_'))).toHaveLength(1);
  });

  it('parses a prepared() statement asked by many at once once, and each call answers', async () => {
    const byId = prepared('SELECT id FROM t WHERE id = $1 AND $2::int > 0');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => db.query(byId, [1, i + 1])));
    expect(answers.map((a) => a.rows)).toEqual(answers.map(() => [{ id: 1 }]));
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

  it('runs statements asked at once each alone, and a transaction asked among them whole', async () => {
    const asked = Array.from({ length: 50 }, (_, i) =>
      i === 25
        ? db.transaction(async (tx) => {
            await tx.query('UPDATE t SET big = big + 1000 WHERE id = 1');
            return (await tx.query<{ big: string }>('SELECT big::text FROM t WHERE id = 1')).rows[0]!.big;
          })
        : db
            .query<{ big: string }>('UPDATE t SET big = big + 1 WHERE id = 1 RETURNING big::text')
            .then((r) => r.rows[0]!.big),
    );
    // each saw the row as the ones before it left it: no statement ran inside the transaction
    const seen = (await Promise.all(asked)).map((b) => Number(BigInt(b) - BigInt(row.big)));
    const tx = seen[25]!;
    expect(new Set(seen).size).toBe(50);
    expect(seen.filter((n) => n !== tx).every((n) => n < tx - 999 || n > tx)).toBe(true);
    expect(Math.max(...seen)).toBe(1049);
  });

  it('tells the listeners of a channel after the commit that notified it, not after a rollback', async () => {
    const heard: string[] = [];
    const stop = db.onNotification!('sac_test_channel', () => heard.push('told'));
    await db.query('SELECT 1'); // the LISTEN goes first
    await db.transaction(async (tx) => {
      await tx.query("SELECT pg_notify('sac_test_channel', 'x')");
    });
    expect(heard).toEqual(['told']);
    await db
      .transaction(async (tx) => {
        await tx.query("SELECT pg_notify('sac_test_channel', 'y')");
        throw new Error('undo');
      })
      .catch(() => {});
    await db.query("SELECT pg_notify('sac_test_channel', 'z')");
    expect(heard).toEqual(['told', 'told']);
    stop();
  });

  it('refuses a statement on an ended transaction', async () => {
    let kept: Parameters<Parameters<Db['transaction']>[0]>[0] | undefined;
    await db.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.query('SELECT 1', [])).rejects.toThrow('Transaction is closed');
  });
});

describe('the embedded database on its own thread', () => {
  it('dumps its directory, and after close refuses statements and frees the directory', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-thread-'));
    dirs.push(dir);
    const db = await openPgliteDir(path.join(dir, 'pglite'), { thread: true });
    await db.exec('CREATE TABLE kept (v int); INSERT INTO kept VALUES (7)');
    const dump = await db.dumpDataDir!();
    expect(dump.size).toBeGreaterThan(1000);
    await db.close();
    await expect(db.query('SELECT 1')).rejects.toThrow('PGlite is closed');
    const again = await openPgliteDir(path.join(dir, 'pglite'), { thread: true });
    expect((await again.query('SELECT v FROM kept')).rows).toEqual([{ v: 7 }]);
    await again.close();
    const copy = wrapPglite(await PGlite.create({ loadDataDir: dump }));
    expect((await copy.query('SELECT v FROM kept')).rows).toEqual([{ v: 7 }]);
    await copy.close();
  }, 60_000);
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
