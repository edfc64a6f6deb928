import type { Queryable } from '../../db/db.ts';
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
): Promise<{ uid: string; email: string } | undefined> {
  const r = await db.query<{ uid: string; email: string; sign_hash: Uint8Array }>(
    `SELECT s.uid::text AS uid, st.email, s.sign_hash
       FROM staff_sessions s JOIN staff st ON st.uid = s.uid WHERE s.token_hash = $1`,
    [hashSecret(xtoken)],
  );
  const s = r.rows[0];
  if (!s || !sameHash(Buffer.from(s.sign_hash), hashSecret(xsign))) return undefined;
  return { uid: s.uid, email: s.email };
}
