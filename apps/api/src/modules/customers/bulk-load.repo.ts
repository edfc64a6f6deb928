import type { Queryable } from '../../db/db.ts';

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

/** Inserts customers, their sites, the shared sites' members and sign-ins, one statement each. */
export async function insertCustomerRows(
  tx: Queryable,
  rows: { customers: BulkCustomer[]; sites: BulkSite[]; members: BulkMember[]; logins: BulkLogin[] },
): Promise<void> {
  const { customers: cs, sites: ss, members: ms, logins: ls } = rows;
  await tx.query(
    `INSERT INTO customers (uid, first_name, last_name, email, organization, phone, auth_email, contact_email,
       time_zone, status, role, email_verified, created_at, modified_at)
     SELECT uid::uuid, f, l, e, o, p, ae, ce, tz, st, 'Owner', v, ca::timestamptz, ma::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                 $9::text[], $10::text[], $11::boolean[], $12::text[], $13::text[])
       AS t(uid, f, l, e, o, p, ae, ce, tz, st, v, ca, ma)`,
    [
      cs.map((c) => c.uid),
      cs.map((c) => c.first),
      cs.map((c) => c.last),
      cs.map((c) => c.email),
      cs.map((c) => c.organization),
      cs.map((c) => c.phone),
      cs.map((c) => c.authEmail),
      cs.map((c) => c.contactEmail),
      cs.map((c) => c.timeZone),
      cs.map((c) => c.status),
      cs.map((c) => c.emailVerified),
      cs.map((c) => iso(c.createdAt)),
      cs.map((c) => iso(c.modifiedAt)),
    ],
  );

  await tx.query(
    `INSERT INTO sites (app_name, api_key, secret_hash, owner_uid, plan, plan_status, trial_ends_at, data_center,
       global_server, db_name, custom_db_conn, features, status, production_url, staging_url, created_at, modified_at)
     SELECT n, k::uuid, decode(h, 'hex'), o::uuid, pl, ps, te::timestamptz, dc, gs, dn, decode(cc, 'hex'),
       string_to_array(fe, ','), st, pu, su, ca::timestamptz, ma::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                 $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
                 $16::text[], $17::text[])
       AS t(n, k, h, o, pl, ps, te, dc, gs, dn, cc, fe, st, pu, su, ca, ma)`,
    [
      ss.map((s) => s.name),
      ss.map((s) => s.apiKey),
      ss.map((s) => hex(s.secretHash)),
      ss.map((s) => s.ownerUid),
      ss.map((s) => s.plan),
      ss.map((s) => s.planStatus),
      ss.map((s) => iso(s.trialEndsAt)),
      ss.map((s) => s.dataCenter),
      ss.map((s) => s.globalServer),
      ss.map((s) => s.dbName),
      ss.map((s) => (s.sealedDbConn ? hex(s.sealedDbConn) : null)),
      ss.map((s) => s.features.join(',')),
      ss.map((s) => s.status),
      ss.map((s) => s.productionUrl),
      ss.map((s) => s.stagingUrl),
      ss.map((s) => iso(s.createdAt)),
      ss.map((s) => iso(s.modifiedAt)),
    ],
  );

  await tx.query(
    `INSERT INTO site_members (app_id, customer_uid, role, added_at)
     SELECT s.app_id, t.c::uuid, t.r, t.a::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(n, c, r, a)
     JOIN sites s ON lower(s.app_name) = t.n`,
    [
      ms.map((m) => m.siteName),
      ms.map((m) => m.customerUid),
      ms.map((m) => m.role),
      ms.map((m) => iso(m.addedAt)),
    ],
  );

  await tx.query(
    `INSERT INTO customer_logins (customer_uid, at, access_type, browser, client_address, location)
     SELECT c::uuid, a::timestamptz, t, b, ip, l
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS u(c, a, t, b, ip, l)
     ORDER BY a`,
    [
      ls.map((l) => l.customerUid),
      ls.map((l) => iso(l.at)),
      ls.map((l) => l.accessType),
      ls.map((l) => l.browser),
      ls.map((l) => l.address),
      ls.map((l) => l.location),
    ],
  );
}

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
const SCALE_CUSTOMERS_SQL = `
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

const SCALE_SITES_SQL = `
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

/**
 * One chunk of scale data: customers numbered `lo`..`hi` of the series and their sites, generated
 * in SQL (SCALE_CUSTOMERS_SQL, SCALE_SITES_SQL) from the word lists given. Answers the rows added.
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
  const customers = await tx.query<{ n: number }>(counted(SCALE_CUSTOMERS_SQL), [
    c.at,
    c.lo,
    c.hi,
    ...c.customerArrays,
  ]);
  const sites = await tx.query<{ n: number }>(counted(SCALE_SITES_SQL), [
    c.at,
    c.lo,
    c.hi,
    c.seq,
    ...c.siteArrays,
  ]);
  return (customers.rows[0]?.n ?? 0) + (sites.rows[0]?.n ?? 0);
}
