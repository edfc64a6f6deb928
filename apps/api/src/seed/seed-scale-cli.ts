/*
 * `npm run seed:scale -- --customers 1000000 [--chunk 50000]`: adds that many customers (and about
 * 1.1 sites each) to the configured database (PGlite in DATA_DIR, default ./data; PostgreSQL when
 * DATABASE_URL is set), generated in SQL, a chunk per transaction, with a progress bar on stderr.
 *
 * Rows are numbered by a series number n kept in app_meta ('scale_next'), so running it again adds
 * more rather than colliding; nothing is dropped or updated. Per customer n:
 *   uid        md5('sac-scale-customer-' || n) as a uuid (version and variant bits set)
 *   email      <first>.<last>.<n>@<one of SCALE_EMAIL_DOMAINS>  (demo e-mails use other domains)
 * Per site (app_id from the identity sequence):
 *   app_name   <word>-<product>-<n>[-2]  (demo site names have no digits)
 *   api_key    md5('sac-scale-key-' || app_id) as a uuid
 *   secret     'scale-secret-' || app_id, stored as its SHA-256 like any site secret, so the search
 *              bench can search by API secret (see scaleSecret in customer-seed.ts).
 * Names are picked from frequency-ordered lists with a skew towards the front, so some substrings
 * ('son', 'mar') match a large share of customers and others very few.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import type { Db, Queryable } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { openConfiguredDbOrExit } from '../db/open.ts';
import { SEARCHED_TABLES } from '../db/searched-tables.ts';
import {
  FIRST_NAMES,
  LAST_NAMES,
  SCALE_EMAIL_DOMAINS,
  SITE_PRODUCTS,
  SITE_WORDS,
  WEIGHTED_TIME_ZONES,
} from './customer-seed.ts';

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

/** A version-4-shaped uuid from an md5, so validators that check the version accept it. */
const md5Uuid = (expr: string) =>
  `overlay(overlay(md5(${expr}) placing '4' from 13) placing '8' from 17)::uuid`;
/** A uniform 31-bit hash of the series number per salt: deterministic, independent per salt. */
const h = (salt: number, col = 'n') => `(hashint8extended(${col}, ${salt}) & 2147483647)`;
/** 1-based index into an array parameter, skewed to the front (power > 1) or uniform (power 1). */
const skewed = (salt: number, arr: string, power: number) =>
  `1 + floor(cardinality(${arr}) * power(${h(salt)} / 2147483648.0, ${power}))::int`;

/** One syllable of a generated name, picked by a hash of the series number. */
const syl = (salt: number) => `($7::text[])[1 + ${h(salt)} % cardinality($7::text[])]`;

/*
 * Names: first names 90% from FIRST_NAMES (skewed), 10% generated from syllables; last names 55%
 * from LAST_NAMES (skewed), 35% from COMPOUND_SURNAMES (uniform, about 2,500), 10% generated from
 * syllables (mostly unique): common substrings match a large share, rare ones a handful of rows.
 */
const CUSTOMERS_SQL = `
INSERT INTO customers (uid, first_name, last_name, email, organization, phone, auth_email, contact_email,
  time_zone, status, role, email_verified, created_at, modified_at)
SELECT uid, f, l, email, org, phone, email, email, tz, status, 'Owner', verified, created,
  least($1::timestamptz, created + (h5 % 20000) * interval '1 hour')
FROM (
  SELECT ${md5Uuid("'sac-scale-customer-' || n")} AS uid, f, l,
    lower(regexp_replace(f, '[^A-Za-z]', '', 'g')) || '.' || lower(regexp_replace(l, '[^A-Za-z]', '', 'g'))
      || '.' || n || '@' || ($8::text[])[1 + h1 % cardinality($8::text[])] AS email,
    CASE WHEN h2 % 10 < 4 THEN l ELSE ($9::text[])[1 + h4 % cardinality($9::text[])] END
      || ' ' || ($10::text[])[1 + h3 % cardinality($10::text[])] AS org,
    (200 + h1 % 800)::text || lpad((h4 % 10000000)::text, 7, '0') AS phone,
    ($11::text[])[1 + h3 % cardinality($11::text[])] AS tz,
    CASE WHEN h2 % 100 < 93 THEN 'Active' WHEN h2 % 100 < 97 THEN 'Blocked' ELSE 'Deleted' END AS status,
    h5 % 100 < 85 AS verified,
    $1::timestamptz - (h6 % 94608000) * interval '1 second' AS created,
    h5
  FROM (
    SELECT n,
      CASE WHEN ${h(9)} % 100 < 90 THEN ($4::text[])[${skewed(1, '$4::text[]', 1.6)}]
        ELSE initcap(${syl(11)} || ${syl(12)} || CASE WHEN ${h(13)} % 3 = 0 THEN ${syl(14)} ELSE '' END) END AS f,
      CASE WHEN ${h(10)} % 100 < 55 THEN ($5::text[])[${skewed(2, '$5::text[]', 1.6)}]
        WHEN ${h(10)} % 100 < 90 THEN ($6::text[])[1 + ${h(15)} % cardinality($6::text[])]
        ELSE initcap(${syl(16)} || ${syl(17)} || CASE WHEN ${h(18)} % 2 = 0 THEN ${syl(19)} ELSE '' END) END AS l,
      ${h(3)} AS h1, ${h(4)} AS h2, ${h(5)} AS h3, ${h(6)} AS h4, ${h(7)} AS h5, ${h(8)} AS h6
    FROM generate_series($2::bigint, $3::bigint) AS n
  ) g
) c`;

const SITES_SQL = `
INSERT INTO sites (app_id, app_name, api_key, secret_hash, owner_uid, plan, plan_status, trial_ends_at,
  data_center, global_server, db_name, features, status, production_url, staging_url, created_at, modified_at)
OVERRIDING SYSTEM VALUE
SELECT s.id, s.name, ${md5Uuid("'sac-scale-key-' || s.id")}, sha256(convert_to('scale-secret-' || s.id, 'UTF8')),
  ${md5Uuid("'sac-scale-customer-' || s.n")}, s.plan,
  CASE WHEN s.trial THEN 'Trial' ELSE 'Subscribed' END,
  CASE WHEN s.trial THEN $1::timestamptz + ((s.h2 % 60) - 30) * interval '1 day' END,
  ($7::text[])[s.srv], ($8::text[])[s.srv], 'lr_' || replace(s.name, '-', '_'), fs.features,
  CASE WHEN s.h3 % 100 < 88 THEN 'active' ELSE 'inactive' END,
  'https://' || s.name || '.example.com',
  CASE WHEN s.h3 % 10 < 7 THEN 'https://staging.' || s.name || '.example.com' ELSE '' END,
  s.created, least($1::timestamptz, s.created + (s.h2 % 2000) * interval '1 hour')
FROM (
  SELECT nextval($4::regclass) AS id, n,
    ($5::text[])[${skewed(21, '$5::text[]', 1.3)}] || '-' || ($6::text[])[${skewed(22, '$6::text[]', 1.6)}] || '-' || n
      || CASE WHEN k > 1 THEN '-' || k ELSE '' END AS name,
    CASE WHEN ${h(23)} % 100 < 50 THEN 'Free' WHEN ${h(23)} % 100 < 85 THEN 'Developer' ELSE 'Developer Premium' END AS plan,
    ${h(23)} % 100 >= 50 AND ${h(24)} % 100 < 30 AS trial,
    1 + (${h(25)} + k) % cardinality($8::text[]) AS srv,
    ${h(24)} AS h2, ${h(26)} AS h3,
    least($1::timestamptz, $1::timestamptz - (${h(8)} % 94608000) * interval '1 second'
      + (${h(27)} % 365 + k * 30) * interval '1 day') AS created
  FROM generate_series($2::bigint, $3::bigint) AS n
  CROSS JOIN LATERAL generate_series(1, CASE WHEN ${h(20)} % 10 = 0 THEN 2 ELSE 1 END) AS k
) s
JOIN feature_sets fs ON fs.name = s.plan`;

/** The number of rows an INSERT added. */
const counted = (insert: string) => `WITH ins AS (${insert} RETURNING 1) SELECT count(*)::int AS n FROM ins`;

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
  const r = await db.query<{ customers: number; sites: number }>(
    'SELECT (SELECT count(*)::int FROM customers) AS customers, (SELECT count(*)::int FROM sites) AS sites',
  );
  return r.rows[0]!;
}

async function seedScale(db: Db, opts: { customers: number; chunk: number }): Promise<void> {
  const at = new Date().toISOString();
  const seq = (await db.query<{ s: string }>("SELECT pg_get_serial_sequence('sites', 'app_id') AS s"))
    .rows[0]!.s;
  const servers = (
    await db.query<{ code: string; data_center: string }>(
      'SELECT code, data_center FROM global_servers ORDER BY code',
    )
  ).rows;
  const next = await db.query<{ value: string }>("SELECT value FROM app_meta WHERE key = 'scale_next'");
  const first = Number(next.rows[0]?.value ?? 1);
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

  console.error(
    `Adding ${fmt(opts.customers)} customers (series ${fmt(first)}…${fmt(first + opts.customers - 1)}) to ${
      db.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'
    }, which has ${fmt(before.customers)} customers and ${fmt(before.sites)} sites.`,
  );
  const started = performance.now();
  let done = 0;
  let rows = 0;
  progress(0, opts.customers, 0, started);
  while (done < opts.customers) {
    const lo = first + done;
    const hi = lo + Math.min(opts.chunk, opts.customers - done) - 1;
    await db.transaction(async (tx) => {
      const c = await tx.query<{ n: number }>(counted(CUSTOMERS_SQL), [at, lo, hi, ...customerArrays]);
      const st = await tx.query<{ n: number }>(counted(SITES_SQL), [at, lo, hi, seq, ...siteArrays]);
      rows += (c.rows[0]?.n ?? 0) + (st.rows[0]?.n ?? 0);
      await tx.query(
        `INSERT INTO app_meta (key, value) VALUES ('scale_next', $1)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [String(hi + 1)],
      );
    });
    done += hi - lo + 1;
    progress(done, opts.customers, rows, started);
  }
  if (process.stderr.isTTY) process.stderr.write('\n');
  const insertS = (performance.now() - started) / 1000;

  // VACUUM merges the trigram indexes' pending lists and sets the visibility map (the search
  // counts are index-only scans); ANALYZE the statistics the planner needs to choose between the
  // trigram index and a scan.
  const t = performance.now();
  for (const table of SEARCHED_TABLES) await db.exec(`VACUUM (ANALYZE) ${table}`);
  const vacuumS = (performance.now() - t) / 1000;
  const after = await counts(db);
  console.log(
    `Added ${fmt(after.customers - before.customers)} customers and ${fmt(after.sites - before.sites)} sites ` +
      `in ${dur(insertS)} (${fmt(rows / insertS)} rows/s), VACUUM ANALYZE ${dur(vacuumS)}, ` +
      `total ${dur((performance.now() - started) / 1000)}.`,
  );
  console.log(`The database now has ${fmt(after.customers)} customers and ${fmt(after.sites)} sites.`);
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
