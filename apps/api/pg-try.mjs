import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const t = Date.now();
const db = new PGlite({ extensions: { pg_trgm } });
await db.query('create extension if not exists pg_trgm');
await db.query('create table t(a text generated always as (lower(b)) stored, b text)');
console.log((await db.query('select now(), version()')).rows, Date.now() - t);
const dump = await db.dumpDataDir('none');
console.log(dump.size, Date.now() - t);
const db2 = new PGlite({ loadDataDir: dump, extensions: { pg_trgm } });
await db2.query('insert into t(b) values($1)', ['X']);
console.log((await db2.query('select * from t')).rows, Date.now() - t);
