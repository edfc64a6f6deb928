import type { Queryable } from '../src/db/db.ts';
import { hashSecret, randomSecret } from '../src/lib/secrets.ts';

/** Inserts a pending impersonation request (and its consent token) as tests need it. */
export async function insertRequest(
  db: Queryable,
  r: {
    appId: number;
    initiator: string;
    assignees: string[];
    roles?: string[];
    consent?: 'pending' | 'granted';
    at?: Date;
  },
): Promise<{ id: number; consentToken: string }> {
  const at = r.at ?? new Date('2026-01-15T10:00:00Z');
  const row = await db.query<{ id: number }>(
    `INSERT INTO impersonation_requests (app_id, initiator_email, consent, priority, description, assignees, proxy_roles,
       additional_permissions, duration_minutes, created_at, modified_at)
     VALUES ($1, $2, $3, 'High', 'fixture', $4, $5, '{ViewData}', 60, $6, $6) RETURNING id`,
    [r.appId, r.initiator, r.consent ?? 'pending', r.assignees, r.roles ?? ['Developer'], at],
  );
  const id = Number(row.rows[0]!.id);
  const consentToken = randomSecret();
  await db.query(
    'INSERT INTO impersonation_consent_tokens (token_hash, request_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
    [hashSecret(consentToken), id, at, new Date(at.getTime() + 7 * 86_400_000)],
  );
  return { id, consentToken };
}

/** An approved, consented, unexpired grant of `roles` on a site to the staff member `initiator`. */
export async function insertGrant(
  db: Queryable,
  g: {
    appId: number;
    initiatorUid: string;
    initiatorEmail: string;
    roles: string[];
    now: Date;
    minutes?: number;
  },
): Promise<number> {
  const { id } = await insertRequest(db, {
    appId: g.appId,
    initiator: g.initiatorEmail,
    assignees: ['nobody@example.com'],
    roles: g.roles,
    consent: 'granted',
    at: g.now,
  });
  await db.query(
    `UPDATE impersonation_requests SET status = 'Approved', initiator_uid = $2, holder_uid = $2, holder_email = $6,
       approved_roles = $3, expires_at = $4, action_taken_by = 'matrix', action_taken_at = $5 WHERE id = $1`,
    [
      id,
      g.initiatorUid,
      g.roles,
      new Date(g.now.getTime() + (g.minutes ?? 60) * 60_000),
      g.now,
      g.initiatorEmail,
    ],
  );
  return id;
}
