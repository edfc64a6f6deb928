import type { Queryable } from '../../db/db.ts';

export interface DomainRow {
  domain: string;
  app_id: number;
  app_name: string;
  status: 'Pending Verification' | 'Verified';
  token: string;
  last_checked_at: Date | null;
  last_check_result: string | null;
  verified_at: Date | null;
  /** A verified domain whose latest re-check failed: since when. */
  failing_since: Date | null;
}

const DOMAIN_SQL = `SELECT d.domain, d.app_id, s.app_name, d.status, d.token, d.last_checked_at, d.last_check_result, d.verified_at,
  d.failing_since
  FROM custom_domains d JOIN sites s ON s.app_id = d.app_id`;

export async function domainsOfSite(db: Queryable, appId: number): Promise<DomainRow[]> {
  const r = await db.query<DomainRow>(`${DOMAIN_SQL} WHERE d.app_id = $1 ORDER BY d.domain`, [appId]);
  return r.rows;
}

/** A domain, of any site. */
export async function findDomain(db: Queryable, domain: string): Promise<DomainRow | undefined> {
  const r = await db.query<DomainRow>(`${DOMAIN_SQL} WHERE d.domain = $1`, [domain]);
  return r.rows[0];
}

/** A domain of this site. */
export async function findSiteDomain(
  db: Queryable,
  appId: number,
  domain: string,
): Promise<DomainRow | undefined> {
  const r = await db.query<DomainRow>(`${DOMAIN_SQL} WHERE d.domain = $1 AND d.app_id = $2`, [domain, appId]);
  return r.rows[0];
}

/** Pending domains, the longest unchecked first. */
export async function pendingDomains(db: Queryable, limit: number): Promise<DomainRow[]> {
  const r = await db.query<DomainRow>(
    `${DOMAIN_SQL} WHERE d.status = 'Pending Verification' ORDER BY d.last_checked_at NULLS FIRST LIMIT $1`,
    [limit],
  );
  return r.rows;
}

/** Verified domains last checked before `before`, the longest unchecked first. */
export async function verifiedDomainsDue(db: Queryable, before: Date, limit: number): Promise<DomainRow[]> {
  const r = await db.query<DomainRow>(
    `${DOMAIN_SQL} WHERE d.status = 'Verified' AND (d.last_checked_at IS NULL OR d.last_checked_at < $1)
      ORDER BY d.last_checked_at NULLS FIRST LIMIT $2`,
    [before, limit],
  );
  return r.rows;
}

export interface ListedDomainRow extends DomainRow {
  owner_uid: string;
  created_at: Date;
}

/** What the cross-site list shows: pending verification, verified and failing re-checks, or verified and passing. */
export type DomainFilter = 'pending' | 'failing' | 'verified';
const FILTER_SQL: Record<DomainFilter, string> = {
  pending: `d.status = 'Pending Verification'`,
  failing: 'd.failing_since IS NOT NULL',
  verified: `d.status = 'Verified' AND d.failing_since IS NULL`,
};

/**
 * Custom domains of every site by name, after `after` (keyset: the domain is the key), up to
 * `limit`: each filter walks an index by name (status and name, or the failing ones').
 */
export async function listDomains(
  db: Queryable,
  q: { filter: DomainFilter | undefined; after: string | undefined; limit: number },
): Promise<ListedDomainRow[]> {
  const where = [q.filter ? FILTER_SQL[q.filter] : 'TRUE', q.after === undefined ? 'TRUE' : 'd.domain > $2'];
  const r = await db.query<ListedDomainRow>(
    `SELECT d.domain, d.app_id, s.app_name, s.owner_uid, d.status, d.token, d.created_at, d.last_checked_at,
            d.last_check_result, d.verified_at, d.failing_since
       FROM (SELECT * FROM custom_domains d WHERE ${where.join(' AND ')} ORDER BY d.domain LIMIT $1) d
       JOIN sites s ON s.app_id = d.app_id
      ORDER BY d.domain`,
    q.after === undefined ? [q.limit] : [q.limit, q.after],
  );
  return r.rows;
}

/** Throws the database's unique violation (23505) when the domain is bound to a site already. */
export async function insertDomain(
  db: Queryable,
  appId: number,
  domain: string,
  token: string,
  at: Date,
): Promise<void> {
  await db.query('INSERT INTO custom_domains (domain, app_id, token, created_at) VALUES ($1, $2, $3, $4)', [
    domain,
    appId,
    token,
    at,
  ]);
}

/** Whether the site had this domain to delete. */
export async function deleteDomain(db: Queryable, appId: number, domain: string): Promise<boolean> {
  const r = await db.query('DELETE FROM custom_domains WHERE domain = $1 AND app_id = $2 RETURNING domain', [
    domain,
    appId,
  ]);
  return r.rows.length > 0;
}

/**
 * Stores a check's outcome; a passing check verifies the domain, and a verified domain stays
 * verified: a failing check of a verified domain marks it failing (since the first such check),
 * a passing one clears that.
 */
export async function recordCheck(
  db: Queryable,
  domain: string,
  check: { result: string; ok: boolean },
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE custom_domains SET last_checked_at = $2, last_check_result = $3,
       status = CASE WHEN $4 THEN 'Verified' ELSE status END,
       verified_at = CASE WHEN $4 AND verified_at IS NULL THEN $2 ELSE verified_at END,
       failing_since = CASE WHEN $4 OR status <> 'Verified' THEN NULL ELSE COALESCE(failing_since, $2) END
     WHERE domain = $1`,
    [domain, at, check.result, check.ok],
  );
}
