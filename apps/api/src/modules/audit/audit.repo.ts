import type { AuditEvent, AuditFilters } from '@sac/contract/audit';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { firstRow, isoText, qb, rows } from '../../db/sql.ts';

/**
 * Reads of the staff audit trail (activity_log). Every read is keyset-paged on (at, id), so a page
 * deep in the trail costs what the first does; each filter has an index that starts with it.
 */

/** A position in the trail: the (at, id) of the last row read; `at` as PostgreSQL writes it. */
export interface TrailKey {
  at: string;
  id: string;
}

/** LIKE's wildcards taken literally. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The rows matching the filters, each filter on a column an index starts with. */
function matching(f: AuditFilters) {
  return qb
    .selectFrom('activity_log')
    .$if(Boolean(f.actor), (q) =>
      q.where((eb) => eb(eb.fn('lower', ['actor_email']), '=', eb.fn('lower', [eb.val(f.actor)]))),
    )
    .$if(Boolean(f.action), (q) => q.where('action', '=', f.action ?? ''))
    .$if(Boolean(f.customer), (q) => q.where('customer_uid', '=', sql<string>`${f.customer}::uuid`))
    .$if(Boolean(f.appId), (q) => q.where('app_id', '=', sql<number>`${f.appId}::bigint`))
    .$if(Boolean(f.from), (q) => q.where('at', '>=', sql<Date>`${f.from}::timestamptz`))
    .$if(Boolean(f.to), (q) => q.where('at', '<=', sql<Date>`${f.to}::timestamptz`))
    .$if(Boolean(f.q), (q) => q.where('search_text', 'like', `%${likeLiteral((f.q ?? '').toLowerCase())}%`));
}

/** Up to `upTo`, an id as text (the last id when an export or a count began). */
const notPast = (upTo: string) => sql<number>`${upTo}::bigint`;

/** A JSON object as read from details; any other value reads as no details. */
const detailsOf = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v)) : {};

/**
 * Up to `limit` rows matching the filters, after `after` in the given order (newest first for the
 * screen, oldest first for an export), and not past `upTo` (the last id when an export began).
 */
export async function readTrail(
  db: Queryable,
  f: AuditFilters,
  opts: { after?: TrailKey; limit: number; order: 'newest' | 'oldest'; upTo?: string },
): Promise<{ events: AuditEvent[]; keys: TrailKey[] }> {
  const cmp = opts.order === 'newest' ? '<' : '>';
  const dir = opts.order === 'newest' ? 'desc' : 'asc';
  const { after, upTo } = opts;
  const found = await rows(
    db,
    matching(f)
      .select((eb) => [
        eb.cast<string>('id', 'text').as('id'),
        isoText('at').as('at_iso'),
        eb.cast<string>('at', 'text').as('at_key'),
        eb.cast<string | null>('actor_uid', 'text').as('actor_uid'),
        'actor_email',
        'action',
        'target_type',
        'target_id',
        eb.cast<string | null>('customer_uid', 'text').as('customer_uid'),
        eb.cast<string | null>('app_id', 'text').as('app_id'),
        'client_address',
        'request_id',
        eb.cast<string | null>('impersonation_request_id', 'text').as('impersonation_request_id'),
        'details',
      ])
      .$if(after !== undefined, (q) =>
        q.where((eb) =>
          eb(
            eb.refTuple('at', 'id'),
            cmp,
            eb.tuple(sql<Date>`${after?.at}::timestamptz`, sql<number>`${after?.id}::bigint`),
          ),
        ),
      )
      .$if(upTo !== undefined, (q) => q.where('id', '<=', notPast(upTo ?? '0')))
      .orderBy('activity_log.at', dir)
      .orderBy('activity_log.id', dir)
      .limit(opts.limit),
  );
  const eventOf = (r: (typeof found)[number]): AuditEvent => ({
    Id: r.id,
    At: r.at_iso,
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
    Details: detailsOf(r.details),
  });
  return { events: found.map(eventOf), keys: found.map((row) => ({ at: row.at_key, id: row.id })) };
}

/** How many rows match, up to the row `upTo` (exact: rows are never removed). */
export async function countTrail(db: Queryable, f: AuditFilters, upTo: string): Promise<number> {
  const r = await firstRow(
    db,
    matching(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', '<=', notPast(upTo)),
  );
  return Number(r?.n ?? 0);
}

/** The id of the latest row ('0' when the trail is empty). */
export async function lastTrailId(db: Queryable): Promise<string> {
  const r = await firstRow(
    db,
    qb.selectFrom('activity_log').select((eb) => eb.cast<string | null>(eb.fn.max('id'), 'text').as('id')),
  );
  return r?.id ?? '0';
}
