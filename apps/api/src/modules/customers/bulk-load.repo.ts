import { type RawBuilder, sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, qb } from '../../db/sql.ts';

/*
 * Bulk loads of customers and sites for demo and scale data (seed/): one statement per table over
 * arrays (unnest) or a generated series, so a few hundred demo rows take milliseconds and a million
 * scale customers minutes. Only the seed calls these, through bulk-load.service.ts.
 */

export interface BulkCustomer {
  uid: string;
  first: string;
  last: string;
  email: string;
  organization: string;
  phone: string;
  authEmail: string;
  contactEmail: string;
  timeZone: string;
  status: 'Active' | 'Blocked' | 'Deleted';
  emailVerified: boolean;
  createdAt: Date;
  modifiedAt: Date;
}

export interface BulkSite {
  name: string;
  apiKey: string;
  /** The SHA-256 of the site secret. */
  secretHash: Uint8Array;
  ownerUid: string;
  plan: string;
  planStatus: string;
  trialEndsAt: Date | null;
  dataCenter: string;
  globalServer: string | null;
  dbName: string;
  /** The custom connection string, already encrypted with the field key. */
  sealedDbConn: Uint8Array | null;
  features: string[];
  status: string;
  productionUrl: string;
  stagingUrl: string;
  createdAt: Date;
  modifiedAt: Date;
}

export interface BulkMember {
  siteName: string;
  customerUid: string;
  role: string;
  addedAt: Date;
}

export interface BulkLogin {
  customerUid: string;
  at: Date;
  accessType: string;
  browser: string;
  address: string;
  location: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
/** One column's values as a bound array, cast in the statement (unnest takes them one array a column). */
const texts = (v: readonly (string | null)[]) => sql`${v}::text[]`;

/** The customer columns both loads write (the demo's rows and the scale generator's). */
const CUSTOMER_COLUMNS = [
  'uid',
  'first_name',
  'last_name',
  'email',
  'organization',
  'phone',
  'auth_email',
  'contact_email',
  'time_zone',
  'status',
  'role',
  'email_verified',
  'created_at',
  'modified_at',
] as const;

const insertCustomers = (cs: BulkCustomer[]) =>
  qb
    .insertInto('customers')
    .columns(CUSTOMER_COLUMNS)
    .expression(
      qb
        .selectFrom(
          sql<
            Record<'uid' | 'f' | 'l' | 'e' | 'o' | 'p' | 'ae' | 'ce' | 'tz' | 'st' | 'ca' | 'ma', string> & {
              v: boolean;
            }
          >`unnest(${texts(cs.map((c) => c.uid))}, ${texts(cs.map((c) => c.first))}, ${texts(cs.map((c) => c.last))},
            ${texts(cs.map((c) => c.email))}, ${texts(cs.map((c) => c.organization))}, ${texts(cs.map((c) => c.phone))},
            ${texts(cs.map((c) => c.authEmail))}, ${texts(cs.map((c) => c.contactEmail))},
            ${texts(cs.map((c) => c.timeZone))}, ${texts(cs.map((c) => c.status))},
            ${cs.map((c) => c.emailVerified)}::boolean[], ${texts(cs.map((c) => iso(c.createdAt)))},
            ${texts(cs.map((c) => iso(c.modifiedAt)))})`.as<'t'>(
            sql`t(uid, f, l, e, o, p, ae, ce, tz, st, v, ca, ma)`,
          ),
        )
        .select([
          sql`uid::uuid`.as('uid'),
          'f',
          'l',
          'e',
          'o',
          'p',
          'ae',
          'ce',
          'tz',
          'st',
          sql.lit('Owner').as('role'),
          'v',
          sql`ca::timestamptz`.as('ca'),
          sql`ma::timestamptz`.as('ma'),
        ]),
    );

const insertSites = (ss: BulkSite[]) =>
  qb
    .insertInto('sites')
    .columns([
      'app_name',
      'api_key',
      'secret_hash',
      'owner_uid',
      'plan',
      'plan_status',
      'trial_ends_at',
      'data_center',
      'global_server',
      'db_name',
      'custom_db_conn',
      'features',
      'status',
      'production_url',
      'staging_url',
      'created_at',
      'modified_at',
    ])
    .expression(
      qb
        .selectFrom(
          sql<
            Record<
              'n' | 'k' | 'h' | 'o' | 'pl' | 'ps' | 'dc' | 'dn' | 'fe' | 'st' | 'pu' | 'su' | 'ca' | 'ma',
              string
            > &
              Record<'te' | 'gs' | 'cc', string | null>
          >`unnest(${texts(ss.map((s) => s.name))}, ${texts(ss.map((s) => s.apiKey))},
            ${texts(ss.map((s) => hex(s.secretHash)))}, ${texts(ss.map((s) => s.ownerUid))}, ${texts(ss.map((s) => s.plan))},
            ${texts(ss.map((s) => s.planStatus))}, ${texts(ss.map((s) => iso(s.trialEndsAt)))},
            ${texts(ss.map((s) => s.dataCenter))}, ${texts(ss.map((s) => s.globalServer))}, ${texts(ss.map((s) => s.dbName))},
            ${texts(ss.map((s) => (s.sealedDbConn ? hex(s.sealedDbConn) : null)))},
            ${texts(ss.map((s) => s.features.join(',')))}, ${texts(ss.map((s) => s.status))},
            ${texts(ss.map((s) => s.productionUrl))}, ${texts(ss.map((s) => s.stagingUrl))},
            ${texts(ss.map((s) => iso(s.createdAt)))}, ${texts(ss.map((s) => iso(s.modifiedAt)))})`.as<'t'>(
            sql`t(n, k, h, o, pl, ps, te, dc, gs, dn, cc, fe, st, pu, su, ca, ma)`,
          ),
        )
        .select([
          'n',
          sql`k::uuid`.as('k'),
          sql`decode(h, 'hex')`.as('h'),
          sql`o::uuid`.as('o'),
          'pl',
          'ps',
          sql`te::timestamptz`.as('te'),
          'dc',
          'gs',
          'dn',
          sql`decode(cc, 'hex')`.as('cc'),
          sql`string_to_array(fe, ',')`.as('fe'),
          'st',
          'pu',
          'su',
          sql`ca::timestamptz`.as('ca'),
          sql`ma::timestamptz`.as('ma'),
        ]),
    );

const insertMembers = (ms: BulkMember[]) =>
  qb
    .insertInto('site_members')
    .columns(['app_id', 'customer_uid', 'role', 'added_at'])
    .expression(
      qb
        .selectFrom(
          sql<Record<'n' | 'c' | 'r' | 'a', string>>`unnest(${texts(ms.map((m) => m.siteName))},
            ${texts(ms.map((m) => m.customerUid))}, ${texts(ms.map((m) => m.role))},
            ${texts(ms.map((m) => iso(m.addedAt)))})`.as<'t'>(sql`t(n, c, r, a)`),
        )
        .innerJoin('sites as s', (j) => j.on(sql`lower(s.app_name)`, '=', sql.ref('t.n')))
        .select(['s.app_id', sql`t.c::uuid`.as('c'), 't.r', sql`t.a::timestamptz`.as('a')]),
    );

const insertLogins = (ls: BulkLogin[]) =>
  qb
    .insertInto('customer_logins')
    .columns(['customer_uid', 'at', 'access_type', 'browser', 'client_address', 'location'])
    .expression(
      qb
        .selectFrom(
          sql<
            Record<'c' | 'a' | 't' | 'b' | 'ip' | 'l', string>
          >`unnest(${texts(ls.map((l) => l.customerUid))},
            ${texts(ls.map((l) => iso(l.at)))}, ${texts(ls.map((l) => l.accessType))}, ${texts(ls.map((l) => l.browser))},
            ${texts(ls.map((l) => l.address))}, ${texts(ls.map((l) => l.location))})`.as<'u'>(
            sql`u(c, a, t, b, ip, l)`,
          ),
        )
        .select([sql`c::uuid`.as('c'), sql`a::timestamptz`.as('a'), 't', 'b', 'ip', 'l'])
        .orderBy('a'),
    );

/** Inserts customers, their sites, the shared sites' members and sign-ins, one statement each. */
export async function insertCustomerRows(
  tx: Queryable,
  rows: { customers: BulkCustomer[]; sites: BulkSite[]; members: BulkMember[]; logins: BulkLogin[] },
): Promise<void> {
  await execute(tx, insertCustomers(rows.customers));
  await execute(tx, insertSites(rows.sites));
  await execute(tx, insertMembers(rows.members));
  await execute(tx, insertLogins(rows.logins));
}

/** A version-4-shaped uuid from an md5, so validators that check the version accept it. */
const md5Uuid = (expr: string) =>
  sql.raw(`overlay(overlay(md5(${expr}) placing '4' from 13) placing '8' from 17)::uuid`);
/** A uniform 31-bit hash of the series number per salt: deterministic, independent per salt. */
const h = (salt: number, col = 'n') => sql.raw(`(hashint8extended(${col}, ${salt}) & 2147483647)`);
/** 1-based index into an array parameter, skewed to the front (power > 1) or uniform (power 1). */
const skewed = (salt: number, arr: RawBuilder<unknown>, power: number) =>
  sql`1 + floor(cardinality(${arr}) * power(${h(salt)} / 2147483648.0, ${sql.lit(power)}))::int`;

/** The statement's time (`at`): ages are counted back from it. */
const atTime = (at: string) => sql`${at}::timestamptz`;

/*
 * Names: first names 90% from FIRST_NAMES (skewed), 10% generated from syllables; last names 55%
 * from LAST_NAMES (skewed), 35% from COMPOUND_SURNAMES (uniform, about 2,500), 10% generated from
 * syllables (mostly unique): common substrings match a large share, rare ones a handful of rows.
 * The word lists are bound once each where they are used (each use its own parameter).
 */
function scaleCustomers(at: string, lo: number, hi: number, words: readonly (readonly string[])[]) {
  const [firsts, lasts, compounds, syllables, domains, heads, tails, zones] = words.map((w) => texts(w));
  /** One syllable of a generated name, picked by a hash of the series number. */
  const syl = (salt: number) => sql`(${syllables})[1 + ${h(salt)} % cardinality(${syllables})]`;
  return sql`
SELECT uid, f, l, email, org, phone, email, email, tz, status, 'Owner', verified, created,
  least(${atTime(at)}, created + (h5 % 20000) * interval '1 hour')
FROM (
  SELECT ${md5Uuid("'sac-scale-customer-' || n")} AS uid, f, l,
    lower(regexp_replace(f, '[^A-Za-z]', '', 'g')) || '.' || lower(regexp_replace(l, '[^A-Za-z]', '', 'g'))
      || '.' || n || '@' || (${domains})[1 + h1 % cardinality(${domains})] AS email,
    CASE WHEN h2 % 10 < 4 THEN l ELSE (${heads})[1 + h4 % cardinality(${heads})] END
      || ' ' || (${tails})[1 + h3 % cardinality(${tails})] AS org,
    (200 + h1 % 800)::text || lpad((h4 % 10000000)::text, 7, '0') AS phone,
    (${zones})[1 + h3 % cardinality(${zones})] AS tz,
    CASE WHEN h2 % 100 < 93 THEN 'Active' WHEN h2 % 100 < 97 THEN 'Blocked' ELSE 'Deleted' END AS status,
    h5 % 100 < 85 AS verified,
    ${atTime(at)} - (h6 % 94608000) * interval '1 second' AS created,
    h5
  FROM (
    SELECT n,
      CASE WHEN ${h(9)} % 100 < 90 THEN (${firsts})[${skewed(1, firsts!, 1.6)}]
        ELSE initcap(${syl(11)} || ${syl(12)} || CASE WHEN ${h(13)} % 3 = 0 THEN ${syl(14)} ELSE '' END) END AS f,
      CASE WHEN ${h(10)} % 100 < 55 THEN (${lasts})[${skewed(2, lasts!, 1.6)}]
        WHEN ${h(10)} % 100 < 90 THEN (${compounds})[1 + ${h(15)} % cardinality(${compounds})]
        ELSE initcap(${syl(16)} || ${syl(17)} || CASE WHEN ${h(18)} % 2 = 0 THEN ${syl(19)} ELSE '' END) END AS l,
      ${h(3)} AS h1, ${h(4)} AS h2, ${h(5)} AS h3, ${h(6)} AS h4, ${h(7)} AS h5, ${h(8)} AS h6
    FROM generate_series(${lo}::bigint, ${hi}::bigint) AS n
  ) g
) c`;
}

function scaleSites(at: string, lo: number, hi: number, seq: string, words: readonly (readonly string[])[]) {
  const [siteWords, products, centers, servers] = words.map((w) => texts(w));
  // The ids are taken from the sequence in the statement (nextval), over the identity column's own.
  return sql`OVERRIDING SYSTEM VALUE
SELECT s.id, s.name, ${md5Uuid("'sac-scale-key-' || s.id")}, sha256(convert_to('scale-secret-' || s.id, 'UTF8')),
  ${md5Uuid("'sac-scale-customer-' || s.n")}, s.plan,
  CASE WHEN s.trial THEN 'Trial' ELSE 'Subscribed' END,
  CASE WHEN s.trial THEN ${atTime(at)} + ((s.h2 % 60) - 30) * interval '1 day' END,
  (${centers})[s.srv], (${servers})[s.srv], 'lr_' || replace(s.name, '-', '_'), fs.features,
  CASE WHEN s.h3 % 100 < 88 THEN 'active' ELSE 'inactive' END,
  'https://' || s.name || '.example.com',
  CASE WHEN s.h3 % 10 < 7 THEN 'https://staging.' || s.name || '.example.com' ELSE '' END,
  s.created, least(${atTime(at)}, s.created + (s.h2 % 2000) * interval '1 hour')
FROM (
  SELECT nextval(${seq}::regclass) AS id, n,
    (${siteWords})[${skewed(21, siteWords!, 1.3)}] || '-' || (${products})[${skewed(22, products!, 1.6)}] || '-' || n
      || CASE WHEN k > 1 THEN '-' || k ELSE '' END AS name,
    CASE WHEN ${h(23)} % 100 < 50 THEN 'Free' WHEN ${h(23)} % 100 < 85 THEN 'Developer' ELSE 'Developer Premium' END AS plan,
    ${h(23)} % 100 >= 50 AND ${h(24)} % 100 < 30 AS trial,
    1 + (${h(25)} + k) % cardinality(${servers}) AS srv,
    ${h(24)} AS h2, ${h(26)} AS h3,
    least(${atTime(at)}, ${atTime(at)} - (${h(8)} % 94608000) * interval '1 second'
      + (${h(27)} % 365 + k * 30) * interval '1 day') AS created
  FROM generate_series(${lo}::bigint, ${hi}::bigint) AS n
  CROSS JOIN LATERAL generate_series(1, CASE WHEN ${h(20)} % 10 = 0 THEN 2 ELSE 1 END) AS k
) s
JOIN feature_sets fs ON fs.name = s.plan`;
}

/**
 * One chunk of scale data: customers numbered `lo`..`hi` of the series and their sites, generated
 * in SQL (scaleCustomers, scaleSites) from the word lists given. Answers the rows added.
 */
export async function insertScaleChunk(
  tx: Queryable,
  c: {
    at: string;
    lo: number;
    hi: number;
    /** The sites' app_id sequence. */
    seq: string;
    /** FIRST_NAMES, LAST_NAMES, COMPOUND_SURNAMES, SYLLABLES, email domains, organisation heads and tails, time zones. */
    customerArrays: readonly (readonly string[])[];
    /** Site words, products, data centers and global servers. */
    siteArrays: readonly (readonly string[])[];
  },
): Promise<number> {
  const customers = await firstRow(
    tx,
    qb
      .with('ins', (w) =>
        w
          .insertInto('customers')
          .columns(CUSTOMER_COLUMNS)
          .expression(scaleCustomers(c.at, c.lo, c.hi, c.customerArrays))
          .returning(sql.lit(1).as('one')),
      )
      .selectFrom('ins')
      .select(sql<number>`count(*)::int`.as('n')),
  );
  const sites = await firstRow(
    tx,
    qb
      .with('ins', (w) =>
        w
          .insertInto('sites')
          .columns([
            'app_id',
            'app_name',
            'api_key',
            'secret_hash',
            'owner_uid',
            'plan',
            'plan_status',
            'trial_ends_at',
            'data_center',
            'global_server',
            'db_name',
            'features',
            'status',
            'production_url',
            'staging_url',
            'created_at',
            'modified_at',
          ])
          .expression(scaleSites(c.at, c.lo, c.hi, c.seq, c.siteArrays))
          .returning(sql.lit(1).as('one')),
      )
      .selectFrom('ins')
      .select(sql<number>`count(*)::int`.as('n')),
  );
  return (customers?.n ?? 0) + (sites?.n ?? 0);
}
