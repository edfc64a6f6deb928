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
