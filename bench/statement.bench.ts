import { PGlite } from '@electric-sql/pglite';
import { prepared } from '../apps/api/src/db/connection-common.ts';
import { wrapPglite } from '../apps/api/src/db/pglite-db.ts';

/*
 * One lookup by key on the embedded engine, in process: through PGlite's own query() (six passes
 * into WebAssembly, parsed and planned each time), against the API's handle (one pass, unnamed and
 * named). What the GET of one object pays its database, without HTTP.
 */
const ROWS = 20_000;
const CALLS = Number(process.env.BENCH_STATEMENT_CALLS ?? 20_000);

export async function benchStatement(): Promise<void> {
  const raw = await PGlite.create();
  const db = wrapPglite(raw);
  try {
    await db.exec(`CREATE TABLE c (uid uuid PRIMARY KEY, first_name text, last_name text, email text,
      created_at timestamptz DEFAULT now(), version int DEFAULT 1, roles text[] DEFAULT '{a,b}')`);
    await db.exec(`INSERT INTO c (uid, first_name, last_name, email)
      SELECT gen_random_uuid(), 'f' || i, 'l' || i, 'e' || i || '@example.com' FROM generate_series(1, ${ROWS}) i`);
    const uids = (await db.query<{ uid: string }>('SELECT uid FROM c LIMIT 1000', [])).rows.map((r) => r.uid);
    const text = 'SELECT uid, first_name, last_name, email, created_at, version, roles FROM c WHERE uid = $1';
    const named = prepared(`${text} -- named`);
    const time = async (run: (uid: string) => Promise<unknown>) => {
      for (let i = 0; i < 2000; i++) await run(uids[i % uids.length]!);
      const t = performance.now();
      for (let i = 0; i < CALLS; i++) await run(uids[i % uids.length]!);
      return ((performance.now() - t) * 1000) / CALLS;
    };
    const floor = await time((u) => raw.query(text, [u]));
    const onePass = await time((u) => db.query(text, [u]));
    const onePassNamed = await time((u) => db.query(named, [u]));
    console.log(`lookup by key, ${ROWS} rows, ${CALLS} calls, in process:`);
    console.log(`  PGlite query()            ${floor.toFixed(1)} µs`);
    console.log(
      `  one pass                  ${onePass.toFixed(1)} µs  (×${(floor / onePass).toFixed(2)} faster)`,
    );
    console.log(
      `  one pass, named           ${onePassNamed.toFixed(1)} µs  (×${(floor / onePassNamed).toFixed(2)} faster)`,
    );
  } finally {
    await db.close();
  }
}
