/*
 * `npm run seed:scale -- --customers 1000000 [--chunk 50000]`: adds that many customers (and about
 * 1.1 sites each) to the configured database (PGlite in DATA_DIR, default ./data; PostgreSQL when
 * DATABASE_URL is set), generated in SQL, a chunk per transaction, with a progress bar on stderr. A
 * new scale database on PostgreSQL (the fill at least doubles its customers) is filled in one
 * transaction, its secondary indexes built after the rows (withIndexesBuiltAfter).
 *
 * Rows are numbered by a series number n kept in app_meta ('scale_next'), so running it again adds
 * more rather than colliding; nothing is dropped or updated. Per customer n:
 *   uid        md5('sac-scale-customer-' || n) as a uuid (version and variant bits set)
 *   email      <first>.<last>.<n>@<one of SCALE_EMAIL_DOMAINS>  (demo e-mails use other domains)
 * Per site (app_id from the identity sequence):
 *   app_name   <word>-<product>-<n>[-2]  (demo site names have no digits)
 *   api_key    md5('sac-scale-key-' || app_id) as a uuid
 *   secret     'scale-secret-' || app_id, stored as its SHA-256 like any site secret, so the search
 *              bench can search by API secret (see scaleSecret below).
 * Names are picked from frequency-ordered lists with a skew towards the front, so some substrings
 * ('son', 'mar') match a large share of customers and others very few.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../config.ts';
import type { Db, Queryable } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { openConfiguredDbOrExit } from '../db/open.ts';
import { SEARCHED_TABLES } from '../db/searched-tables.ts';
import { execute, firstRow, qb, rows } from '../db/sql.ts';
import { bulkLoadScaleChunk } from '../modules/customers/bulk-load.service.ts';
import {
  FIRST_NAMES,
  LAST_NAMES,
  SCALE_EMAIL_DOMAINS,
  SITE_PRODUCTS,
  SITE_WORDS,
  WEIGHTED_TIME_ZONES,
} from './demo-word-lists.ts';

/** A scale site's API secret in clear (`scale-secret-<app_id>`); the site keeps only its SHA-256. */
export const scaleSecret = (appId: number): string => `scale-secret-${appId}`;

const ORG_TAILS = [
  'Labs',
  'Analytics',
  'Systems',
  'Software',
  'Health',
  'Media',
  'Retail',
  'Group',
  'Digital',
];
const ORG_HEADS = [
  'Northwind',
  'Summit',
  'Cedar',
  'Granite',
  'Atlas',
  'Beacon',
  'Horizon',
  'Keystone',
  'Maple',
  'Pioneer',
  'Redwood',
  'Vertex',
  'Willow',
  'Zenith',
  'Acme',
  'Contoso',
  'Fabrikam',
  'Globex',
];

const cross = (heads: string, tails: string) => {
  const hs = heads.split(' ');
  return tails.split(' ').flatMap((t) => hs.map((x) => (x + t).replace(/(.)\1\1/g, '$1$1')));
};

/** Surnames built the way real ones are, by region: about 2,500, each equally likely. */
const COMPOUND_SURNAMES = [
  ...new Set([
    ...cross(
      'Ash Black White Brook Hill Wood Fair Green Bridge Stan Went Hart Brad Whit Cran Dal Hol Lang Mar Red Rad Shel Thorn Wel Wins Ather Ches Bur Chal Eller',
      'ley wood ford ton field worth well by ham ridge more combe brook stead hurst dale wick shaw ington den',
    ),
    ...cross(
      'Lind Berg Holm Ek Sand Wald Rosen Gold Silber Stein Eichen Feld Hoch Blum Sonnen Stern Wein Lowen Fried Grun Hassel Nord Sjo Dahl Ahl',
      'berg strom qvist gren mann feld stein baum thal hoff dorf kvist lund blad heim bach haus ling',
    ),
    ...cross(
      'Yama Naka Ta Ishi Ki Matsu Fuji Hashi Mori Kawa Taka Hiro Ono Saka Ichi Kita Nishi Oka Hoshi Miya Shima Kuro Shira Asa Hama',
      'moto mura da no kawa yama shita zaki hara guchi ta oka saki mori zawa uchi bayashi gawa',
    ),
    ...cross(
      'Kowal Nowa Lewan Wisn Zielin Kozl Jablon Mazur Krawc Grab Pawl Michal Dabr Krol Jank Wojc Kaczm Sok Czarn Petr Ivan Smirn Kuzn Vol Moroz Lebed Kov Shevch Bondar Tkach',
      'ski ska ov ova enko uk czyk ewicz in ak',
    ),
    ...cross(
      'Bell Ross Bian Ferr Marin Gall Colomb Cont Ricc Romagn Sant Lombard Fontan Mor Bar Cost Gentil Martin Serr Vitt Pellegr Cald Bernard Carr Fabbr',
      'ini elli etti ucci one ato esi ari ani ino azzi otti',
    ),
    ...cross(
      'Mc Mac',
      'Donald Kenzie Leod Gregor Intyre Kay Kinnon Millan Neil Lean Farlane Allister Guire Carthy Mahon Kenna Cormack Dermott Ewan Phee',
    ),
    ...cross(
      "O'",
      'Brien Sullivan Connell Reilly Hara Dowd Keefe Shea Rourke Donnell Neill Malley Gorman Dwyer',
    ),
    ...cross(
      'Subrama Krishna Venkat Rama Gopala Nara Srini Bala Chandra Sundar Raghu Vijaya Siva Ananth Hari',
      'murthy swamy krishnan raman chari nathan rajan kumar sekar moorthy',
    ),
    ...cross(
      'Abi Ade Ola Chi Nwa Oke Obi Ibe Eze Ogu',
      'mola kunle wale nedu chukwu bunmi yemi dike nna for',
    ),
  ]),
];

/** Syllables of generated names: many distinct, mostly unique names with rare substrings. */
const SYLLABLES =
  'ka lo mi ta re no sa vi de ra ne ko li ma to ri an el or in be da fa ga ha ja ke lu mo nu pe ro su te ul va we yo zo bri cha dra fen gor hal ith jor kel lan mar nor pol quin ros sten tor urs vel wyn yar zel'.split(
    ' ',
  );

function parse(): { customers: number; chunk: number } {
  const { values } = parseArgs({
    options: {
      customers: { type: 'string', default: '1000000' },
      chunk: { type: 'string', default: '50000' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log('npm run seed:scale -- --customers 1000000 [--chunk 50000]   (DATA_DIR or DATABASE_URL)');
    process.exit(0);
  }
  const customers = Number(values.customers);
  const chunk = Number(values.chunk);
  if (!Number.isInteger(customers) || customers < 1)
    throw new Error('--customers must be a positive integer');
  if (!Number.isInteger(chunk) || chunk < 1) throw new Error('--chunk must be a positive integer');
  return { customers, chunk };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const dur = (s: number) =>
  s >= 60 ? `${Math.floor(s / 60)}m ${String(Math.round(s % 60)).padStart(2, '0')}s` : `${s.toFixed(1)}s`;

function progress(done: number, total: number, rows: number, started: number): void {
  const elapsed = (performance.now() - started) / 1000;
  const share = done / total;
  const width = 30;
  const full = Math.round(share * width);
  const eta = share > 0 ? (elapsed / share) * (1 - share) : Number.NaN;
  const line =
    `[${'#'.repeat(full)}${'-'.repeat(width - full)}] ${(share * 100).toFixed(1).padStart(5)}%  ` +
    `${fmt(done)}/${fmt(total)} customers  ${fmt(rows / Math.max(elapsed, 0.001))} rows/s  ` +
    `elapsed ${dur(elapsed)}  ETA ${Number.isFinite(eta) ? dur(eta) : '?'}`;
  if (process.stderr.isTTY) process.stderr.write(`\r${line}\x1b[K`);
  else process.stderr.write(`${line}\n`);
}

async function counts(db: Queryable) {
  const count = async (table: 'customers' | 'sites') =>
    (await firstRow(db, qb.selectFrom(table).select(sql<number>`count(*)::int`.as('n'))))!.n;
  return { customers: await count('customers'), sites: await count('sites') };
}

/**
 * The indexes of the tables a chunk fills (the searched tables: customers and sites, and what
 * their triggers derive) that no key or unique rule stands behind: a fill that at least
 * doubles the customers (a new scale database) on PostgreSQL drops them, loads, and builds them
 * again, in the load's one transaction. Building an index over the rows once costs a fraction of
 * keeping it up to date row by row, the trigram indexes most; a failure rolls it all back, the
 * indexes with it. The keys, unique rules and triggers (the derived tables) stay as they are.
 */
async function withIndexesBuiltAfter(
  tx: Queryable,
  load: () => Promise<void>,
): Promise<{ count: number; seconds: number }> {
  const indexes = (
    await tx.query<{ name: string; def: string }>(
      `SELECT format('%I', c.relname) AS name, pg_get_indexdef(i.indexrelid) AS def
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
        WHERE t.relnamespace = 'public'::regnamespace AND t.relname = ANY($1::text[])
          AND NOT i.indisunique AND NOT i.indisprimary
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
        ORDER BY c.relname`,
      [[...SEARCHED_TABLES]],
    )
  ).rows;
  for (const x of indexes) await tx.exec(`DROP INDEX ${x.name}`);
  await load();
  const t = performance.now();
  await tx.exec("SET LOCAL maintenance_work_mem = '256MB'");
  for (const x of indexes) await tx.exec(x.def);
  return { count: indexes.length, seconds: (performance.now() - t) / 1000 };
}

/**
 * Adds `customers` scale customers and their sites in chunks of `chunk`, then VACUUM ANALYZE of
 * the searched tables; answers both times in seconds (the seed bench times it beside COPY).
 * `quiet` leaves out the progress bar and the summary; `at` is the time ages are counted back from (now).
 */
export async function seedScale(
  db: Db,
  opts: { customers: number; chunk: number; quiet?: boolean; at?: string },
): Promise<{ insertS: number; vacuumS: number; rows: number }> {
  const say = opts.quiet ? () => {} : console.log;
  // a test gives its own time, so two seeds write the same rows
  const at = opts.at ?? new Date().toISOString();
  // About the database itself (the sequence behind sites.app_id), not a table's rows: stays text.
  const seq = (await db.query<{ s: string }>("SELECT pg_get_serial_sequence('sites', 'app_id') AS s"))
    .rows[0]!.s;
  const servers = await rows(
    db,
    qb.selectFrom('global_servers').select(['code', 'data_center']).orderBy('code'),
  );
  const next = await firstRow(db, qb.selectFrom('app_meta').select('value').where('key', '=', 'scale_next'));
  const first = Number(next?.value ?? 1);
  const before = await counts(db);
  const customerArrays = [
    FIRST_NAMES,
    LAST_NAMES,
    COMPOUND_SURNAMES,
    SYLLABLES,
    SCALE_EMAIL_DOMAINS,
    ORG_HEADS,
    ORG_TAILS,
    WEIGHTED_TIME_ZONES,
  ];
  const siteArrays = [
    SITE_WORDS,
    SITE_PRODUCTS,
    servers.map((s) => s.data_center),
    servers.map((s) => s.code),
  ];

  if (!opts.quiet)
    console.error(
      `Adding ${fmt(opts.customers)} customers (series ${fmt(first)}…${fmt(first + opts.customers - 1)}) to ${
        db.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'
      }, which has ${fmt(before.customers)} customers and ${fmt(before.sites)} sites.`,
    );
  const started = performance.now();
  let done = 0;
  let written = 0;
  if (!opts.quiet) progress(0, opts.customers, 0, started);
  const chunk = async (tx: Queryable) => {
    const lo = first + done;
    const hi = lo + Math.min(opts.chunk, opts.customers - done) - 1;
    written += await bulkLoadScaleChunk(tx, { at, lo, hi, seq, customerArrays, siteArrays });
    await execute(
      tx,
      qb
        .insertInto('app_meta')
        .values({ key: 'scale_next', value: String(hi + 1) })
        .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') }))),
    );
    done += hi - lo + 1;
    if (!opts.quiet) progress(done, opts.customers, written, started);
  };
  const endBar = () => {
    if (process.stderr.isTTY && !opts.quiet) process.stderr.write('\n');
  };
  if (db.kind === 'postgres' && opts.customers >= before.customers)
    await db.transaction(async (tx) => {
      const built = await withIndexesBuiltAfter(tx, async () => {
        while (done < opts.customers) await chunk(tx);
        endBar();
      });
      if (!opts.quiet) console.error(`Built ${built.count} indexes again in ${dur(built.seconds)}.`);
    });
  else {
    while (done < opts.customers) await db.transaction(chunk);
    endBar();
  }
  const insertS = (performance.now() - started) / 1000;

  // VACUUM merges the trigram indexes' pending lists and sets the visibility map (the search
  // counts are index-only scans); ANALYZE the statistics the planner needs to choose between the
  // trigram index and a scan.
  const t = performance.now();
  for (const table of SEARCHED_TABLES) await db.exec(`VACUUM (ANALYZE) ${table}`);
  const vacuumS = (performance.now() - t) / 1000;
  const after = await counts(db);
  say(
    `Added ${fmt(after.customers - before.customers)} customers and ${fmt(after.sites - before.sites)} sites ` +
      `in ${dur(insertS)} (${fmt(written / insertS)} rows/s), VACUUM ANALYZE ${dur(vacuumS)}, ` +
      `total ${dur((performance.now() - started) / 1000)}.`,
  );
  say(`The database now has ${fmt(after.customers)} customers and ${fmt(after.sites)} sites.`);
  return { insertS, vacuumS, rows: written };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const opts = parse();
  const config = loadConfig();
  const db = await openConfiguredDbOrExit(config);
  try {
    await migrate(db);
    await seedScale(db, opts);
  } finally {
    await db.close();
  }
}
