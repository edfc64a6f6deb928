import type { Queryable } from '../../db/db.ts';
import type { DB } from '../../db/schema.generated.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';
import { hashSecret, randomSecret } from '../../lib/secrets.ts';

export type TokenPurpose = DB['staff_tokens']['purpose'];

/** Issues a single-use token; earlier unused tokens of the same purpose for that user stop working. */
export async function issueToken(
  db: Queryable,
  t: { uid: string; purpose: TokenPurpose; at: Date; ttlMs: number },
): Promise<string> {
  const token = randomSecret();
  await execute(
    db,
    qb
      .updateTable('staff_tokens')
      .set({ used_at: t.at })
      .where('uid', '=', t.uid)
      .where('purpose', '=', t.purpose)
      .where('used_at', 'is', null),
  );
  await execute(
    db,
    qb.insertInto('staff_tokens').values({
      token_hash: hashSecret(token),
      uid: t.uid,
      purpose: t.purpose,
      created_at: t.at,
      expires_at: new Date(t.at.getTime() + t.ttlMs),
    }),
  );
  return token;
}

/** How many tokens of a purpose were issued to a user at or after `since` (spent ones included). */
export async function tokensIssuedSince(
  db: Queryable,
  uid: string,
  purpose: TokenPurpose,
  since: Date,
): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .selectFrom('staff_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('uid', '=', uid)
      .where('purpose', '=', purpose)
      .where('created_at', '>=', since),
  );
  return Number(r?.n ?? 0);
}

/**
 * Whether a token is live (unused, unexpired, of one of the purposes), without spending it: one
 * indexed read, so a bogus token is refused before any password is hashed for it.
 */
export async function isLiveToken(
  db: Queryable,
  token: string,
  purposes: TokenPurpose[],
  now: Date,
): Promise<boolean> {
  const r = await rows(
    db,
    qb
      .selectFrom('staff_tokens')
      .select('uid')
      .where('token_hash', '=', hashSecret(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where('purpose', 'in', purposes),
    // a lookup by key, run by every reset link opened (and every bogus one)
    { prepared: true },
  );
  return r.length > 0;
}

/**
 * Spends a token: marks it used in the same statement that checks it is unused and unexpired,
 * so two concurrent uses cannot both succeed. Returns its user, or undefined.
 */
export async function consumeToken(
  db: Queryable,
  token: string,
  purposes: TokenPurpose[],
  now: Date,
): Promise<{ uid: string; purpose: TokenPurpose } | undefined> {
  return firstRow(
    db,
    qb
      .updateTable('staff_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hashSecret(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where('purpose', 'in', purposes)
      .returning(['uid', 'purpose']),
    { prepared: true },
  );
}
