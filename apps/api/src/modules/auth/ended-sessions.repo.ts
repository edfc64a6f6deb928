import type { Queryable } from '../../db/db.ts';
import { firstRow, qb } from '../../db/sql.ts';
import { hashSecret, sameHash } from '../../lib/secrets.ts';

/**
 * The staff member whose session a token and sign pair names, when that session is no longer
 * live (ended, idle or too old): a refused call on it is theirs, for the trail. Undefined for a
 * pair that names no session or whose sign does not match (anyone can send those).
 */
export async function endedSessionOwner(
  db: Queryable,
  xtoken: string,
  xsign: string,
): Promise<{ uid: string; email: string; reason: string | null } | undefined> {
  const s = await firstRow(
    db,
    qb
      .selectFrom('staff_sessions as s')
      .innerJoin('staff as st', 'st.uid', 's.uid')
      .select(['s.uid', 'st.email', 's.sign_hash', 's.revoked_reason'])
      .where('s.token_hash', '=', hashSecret(xtoken)),
  );
  if (!s || !sameHash(Buffer.from(s.sign_hash), hashSecret(xsign))) return undefined;
  return { uid: s.uid, email: s.email, reason: s.revoked_reason };
}
