import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { testDatabaseUrl } from '../../test/postgres-url.ts';
import { TEXT_ARRAY, TIMESTAMPTZ, textArrayParser, timestamptzParser } from './pg-text-parsers.ts';

// The parsers node-postgres has without ours (pg-types' own: postgres-db.ts, which sets ours, is
// not loaded yet), and ours in front of them.
const theirDate = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (s: string) => unknown;
const theirArray = pg.types.getTypeParser(TEXT_ARRAY, 'text') as (s: string) => unknown;
/** What each of ours handed to theirs since last cleared: the forms it does not read itself. */
const handed: string[] = [];
const handing = (theirs: (s: string) => unknown) => (s: string) => {
  handed.push(s);
  return theirs(s);
};
const ourDate = timestamptzParser(handing(theirDate));
const ourArray = textArrayParser(handing(theirArray));
beforeEach(() => {
  handed.length = 0;
});

/** Both parsers' answers to `s`, a Date read as its time (NaN-safe), anything else as is. */
const same = (ours: (s: string) => unknown, theirs: (s: string) => unknown, s: string) => {
  const read = (v: unknown) => (v instanceof Date ? `Date ${v.getTime()}` : v);
  expect(read(ours(s)), s).toEqual(read(theirs(s)));
};

describe('the timestamptz parser', () => {
  it('reads every form PostgreSQL writes as postgres-date does, down to the millisecond cut', () => {
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    let seed = 7;
    const rand = (m: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % m;
    };
    for (let k = 0; k < 20_000; k++) {
      const fraction = rand(7) === 0 ? '' : `.${pad(rand(1_000_000), 6).slice(0, 1 + rand(6))}`;
      const zone = [`+${pad(rand(15), 2)}`, `-${pad(rand(13), 2)}:${pad(rand(60), 2)}`, `+00:19:32`, '+00'][
        rand(4)
      ];
      const s = `${pad(100 + rand(9900), 4)}-${pad(1 + rand(12), 2)}-${pad(1 + rand(28), 2)} ${pad(rand(24), 2)}:${pad(rand(60), 2)}:${pad(rand(60), 2)}${fraction}${zone}`;
      same(ourDate, theirDate, s);
    }
    expect(handed).toEqual([]);
  });

  it('hands every other form to postgres-date', () => {
    const others = [
      'infinity',
      '-infinity',
      '0044-03-15 12:00:00+00 BC',
      '0099-12-31 23:59:59.999+00',
      '12000-01-01 00:00:00+00',
      '2026-11-30 23:51:18.1234567+00',
      '2026-11-30 23:51:18.+00',
      '2026-11-30T23:51:18+00',
      '2026-11-30 23:51:18Z',
      '2026-11-30 23:51:18',
      '2026-11-30 23:51:18+5',
      '2026-11-30 23:51:18+05:3',
      '2026-11-30',
    ];
    for (const s of others) same(ourDate, theirDate, s);
    expect(handed).toEqual(others);
  });
});

describe('the text[] parser', () => {
  it('reads quoted, escaped, empty and null elements as postgres-array does', () => {
    for (const s of [
      '{}',
      '{a}',
      '{a,b,c}',
      '{"",a}',
      '{NULL,"NULL",null,"null"}',
      '{"b,c","d\\"e","f\\\\g","h}i","{j}"," k "}',
      '{ü,日本,"with space"}',
      '{superadmin@example.com,admin@example.com}',
    ])
      same(ourArray, theirArray, s);
    expect(handed).toEqual([]);
  });

  it('hands bounds, dimensions and malformed text to postgres-array', () => {
    const others = ['[0:1]={a,b}', '{{a,b},{c,d}}', '{"a}', '{a,,b}', '{a"b}', '{a', 'a}'];
    for (const s of others)
      same(
        (x) => {
          try {
            return ourArray(x);
          } catch (e) {
            return `throws ${(e as Error).message}`;
          }
        },
        (x) => {
          try {
            return theirArray(x);
          } catch (e) {
            return `throws ${(e as Error).message}`;
          }
        },
        s,
      );
    expect(handed).toEqual(others);
  });
});

describe.skipIf(inject('testDb') !== 'postgres')('the parsers on what PostgreSQL writes', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
  });
  afterAll(() => client.end());

  /** `sql`'s first column as text, read by both parsers. */
  const texts = async (sql: string) => (await client.query<[string]>({ text: sql, rowMode: 'array' })).rows;

  it('reads timestamps in every session time zone as postgres-date does', async () => {
    for (const zone of [
      'UTC',
      'Asia/Kolkata',
      'America/St_Johns',
      'Asia/Kathmandu',
      'Europe/Amsterdam',
      'Pacific/Kiritimati',
    ]) {
      await client.query(`SET TimeZone = '${zone}'`);
      const rows = await texts(`SELECT v::timestamptz::text FROM (VALUES
          ('1850-06-01 12:00:00+00'), ('1901-12-13 20:45:52.5+00'), ('2026-11-30 23:51:18.063537+00'),
          ('2026-03-29 01:30:00+00'), ('0001-01-01 00:00:00+00'), ('0044-03-15 12:00:00+00 BC'),
          ('infinity'), ('-infinity'), ('9999-12-31 23:59:59.999999+00')) x(v)
        UNION ALL SELECT (now() - n * interval '7 hours 13 minutes 1.234567 seconds')::text
          FROM generate_series(0, 2000) n`);
      for (const [s] of rows) same(ourDate, theirDate, s!);
    }
    await client.query('RESET TimeZone');
    // only the years outside 0100-9999 (and BC) and the infinities are handed on
    expect(handed.filter((s) => !/^(00\d\d-|\d{5,}-|-?infinity$)/.test(s))).toEqual([]);
    expect(handed.length).toBeLessThan(6 * 5);
  });

  it('reads text[] as postgres-array does, whatever the elements', async () => {
    const rows = await texts(`SELECT v::text FROM (VALUES
        (ARRAY[]::text[]), (ARRAY['a', 'b,c', 'd"e', 'f\\g', '', NULL, 'NULL', 'null', ' sp ', '{x}', 'ü', E'tab\\there']),
        (ARRAY[NULL]::text[]), ('[0:1]={a,b}'::text[]), (ARRAY[ARRAY['a','b'],ARRAY['c','d']])) x(v)
      UNION ALL SELECT ARRAY(SELECT chr(32 + (n * 7 + k * 13) % 95) || chr(32 + (n + k) % 95)
                         FROM generate_series(0, n % 6) k)::text FROM generate_series(0, 3000) n`);
    for (const [s] of rows) same(ourArray, theirArray, s!);
    expect(handed).toEqual(['[0:1]={a,b}', '{{a,b},{c,d}}']);
  });

  it('is what node-postgres reads timestamptz and text[] with here', async () => {
    await import('./postgres-db.ts');
    const { rows } = await client.query<{ at: Date; tags: string[] }>(
      `SELECT '2026-11-30 23:51:18.063537+05:30'::timestamptz AS at, ARRAY['a', 'b c', NULL] AS tags`,
    );
    expect(rows[0]!.at.toISOString()).toBe('2026-11-30T18:21:18.063Z');
    expect(rows[0]!.tags).toEqual(['a', 'b c', null]);
    expect(pg.types.getTypeParser(TIMESTAMPTZ, 'text')).not.toBe(theirDate);
    expect(pg.types.getTypeParser(TEXT_ARRAY, 'text')).not.toBe(theirArray);
  });
});
