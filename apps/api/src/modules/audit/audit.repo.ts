import type { AuditEvent, AuditFilters } from '@sac/contract/audit';
import type { Queryable } from '../../db/db.ts';

/**
 * Reads of the staff audit trail (activity_log). Every read is keyset-paged on (at, id), so a page
 * deep in the trail costs what the first does; each filter has an index that starts with it.
 */

interface TrailRow {
  id: string;
  at: Date;
  at_key: string;
  actor_uid: string | null;
  actor_email: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  customer_uid: string | null;
  app_id: string | null;
  client_address: string | null;
  request_id: string | null;
  impersonation_request_id: string | null;
  details: Record<string, unknown>;
}

/** A position in the trail: the (at, id) of the last row read; `at` as PostgreSQL writes it. */
export interface TrailKey {
  at: string;
  id: string;
}

/** LIKE's wildcards taken literally. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function whereOf(f: AuditFilters, params: unknown[]): string[] {
  const where: string[] = [];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (f.actor) add((p) => `lower(actor_email) = lower(${p})`, f.actor);
  if (f.action) add((p) => `action = ${p}`, f.action);
  if (f.customer) add((p) => `customer_uid = ${p}::uuid`, f.customer);
  if (f.appId) add((p) => `app_id = ${p}::bigint`, f.appId);
  if (f.from) add((p) => `at >= ${p}::timestamptz`, f.from);
  if (f.to) add((p) => `at <= ${p}::timestamptz`, f.to);
  if (f.q) add((p) => `search_text LIKE ${p}`, `%${likeLiteral(f.q.toLowerCase())}%`);
  return where;
}

const COLUMNS = `id::text AS id, at, at::text AS at_key, actor_uid::text AS actor_uid, actor_email, action, target_type,
  target_id, customer_uid::text AS customer_uid, app_id::text AS app_id, client_address, request_id,
  impersonation_request_id::text AS impersonation_request_id, details`;

/**
 * Up to `limit` rows matching the filters, after `after` in the given order (newest first for the
 * screen, oldest first for an export), and not past `upTo` (the last id when an export began).
 */
export async function readTrail(
  db: Queryable,
  f: AuditFilters,
  opts: { after?: TrailKey; limit: number; order: 'newest' | 'oldest'; upTo?: string },
): Promise<{ events: AuditEvent[]; keys: TrailKey[] }> {
  const params: unknown[] = [];
  const where = whereOf(f, params);
  const cmp = opts.order === 'newest' ? '<' : '>';
  const dir = opts.order === 'newest' ? 'DESC' : 'ASC';
  if (opts.after) {
    params.push(opts.after.at, opts.after.id);
    where.push(`(at, id) ${cmp} ($${params.length - 1}::timestamptz, $${params.length}::bigint)`);
  }
  if (opts.upTo) {
    params.push(opts.upTo);
    where.push(`id <= $${params.length}::bigint`);
  }
  params.push(opts.limit);
  const r = await db.query<TrailRow>(
    `SELECT ${COLUMNS} FROM activity_log
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY activity_log.at ${dir}, activity_log.id ${dir} LIMIT $${params.length}`,
    params,
  );
  return { events: r.rows.map(eventOf), keys: r.rows.map((row) => ({ at: row.at_key, id: row.id })) };
}

/** How many rows match, up to the row `upTo` (exact: rows are never removed). */
export async function countTrail(db: Queryable, f: AuditFilters, upTo: string): Promise<number> {
  const params: unknown[] = [];
  const where = whereOf(f, params);
  params.push(upTo);
  where.push(`id <= $${params.length}::bigint`);
  const r = await db.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM activity_log WHERE ${where.join(' AND ')}`,
    params,
  );
  return Number(r.rows[0]!.n);
}

/** The id of the latest row ('0' when the trail is empty). */
export async function lastTrailId(db: Queryable): Promise<string> {
  const r = await db.query<{ id: string | null }>('SELECT max(id)::text AS id FROM activity_log');
  return r.rows[0]?.id ?? '0';
}

function eventOf(r: TrailRow): AuditEvent {
  return {
    Id: r.id,
    At: new Date(r.at).toISOString(),
    ActorUid: r.actor_uid,
    ActorEmail: r.actor_email,
    Action: r.action,
    TargetType: r.target_type,
    TargetId: r.target_id,
    CustomerUid: r.customer_uid,
    AppId: r.app_id === null ? null : Number(r.app_id),
    ClientAddress: r.client_address,
    RequestId: r.request_id,
    ImpersonationRequestId: r.impersonation_request_id === null ? null : Number(r.impersonation_request_id),
    Details: r.details ?? {},
  };
}
