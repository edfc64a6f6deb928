import type { ActivityAction } from '@sac/contract/audit';
import { type Insertable, sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import type { DB } from '../../db/schema.generated.ts';
import { execute, qb } from '../../db/sql.ts';
import { currentRequest } from '../../lib/request-context.ts';

export type { ActivityAction } from '@sac/contract/audit';

export interface ActivityEntry {
  at: Date;
  action: ActivityAction;
  actorUid?: string | null;
  actorEmail?: string | null;
  targetType?: string;
  targetId?: string;
  clientAddress?: string | null;
  details?: Record<string, unknown>;
  /** The site the row is about (else details.appId, when a number). */
  appId?: number | null;
}

/**
 * A JSON value for a jsonb column, as text cast in the statement (details is typed Generated<Json>,
 * whose insert type the builder cannot take a plain value for).
 */
const jsonb = (v: unknown) => sql<Insertable<DB['activity_log']>['details']>`${JSON.stringify(v)}::jsonb`;

const CUSTOMER_UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Appends one row to the activity log, the staff audit trail (the database refuses updates and
 * deletes). The call being served gives the row its request id and impersonation request.
 */
export async function appendActivityRow(db: Queryable, e: ActivityEntry): Promise<void> {
  const call = currentRequest();
  const detailsApp = e.details?.appId;
  const appId =
    e.appId ?? (typeof detailsApp === 'number' && Number.isSafeInteger(detailsApp) ? detailsApp : null);
  const customerUid =
    e.targetType === 'customer' && e.targetId && CUSTOMER_UID.test(e.targetId) ? e.targetId : null;
  await execute(
    db,
    qb.insertInto('activity_log').values({
      at: e.at,
      actor_uid: e.actorUid ?? null,
      actor_email: e.actorEmail ?? null,
      action: e.action,
      target_type: e.targetType ?? null,
      target_id: e.targetId ?? null,
      client_address: e.clientAddress ?? null,
      details: jsonb(e.details ?? {}),
      request_id: call?.requestId ?? null,
      impersonation_request_id: call?.impersonationRequestId ?? null,
      customer_uid: customerUid,
      app_id: appId,
    }),
  );
}

/** A made-up past staff action about a customer, for demo data. */
export interface PastCustomerActivity {
  at: Date;
  actorEmail: string;
  action: string;
  targetId: string;
  address: string;
  details: Record<string, unknown>;
}

/**
 * Inserts past staff actions about customers in one statement (unnest of arrays), in order; the
 * actor is found by email among the staff (none: a name only).
 */
export async function insertPastCustomerActivity(tx: Queryable, as: PastCustomerActivity[]): Promise<void> {
  const iso = (d: Date) => d.toISOString();
  await tx.query(
    `INSERT INTO activity_log (at, actor_uid, actor_email, action, target_type, target_id, client_address, details,
                               customer_uid)
     SELECT u.a::timestamptz, s.uid, u.e, u.act, 'customer', u.t, u.ip, u.d::jsonb, u.t::uuid
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
       WITH ORDINALITY AS u(a, e, act, t, ip, d, i)
     LEFT JOIN staff s ON lower(s.email) = lower(u.e)
     ORDER BY u.i`,
    [
      as.map((a) => iso(a.at)),
      as.map((a) => a.actorEmail),
      as.map((a) => a.action),
      as.map((a) => a.targetId),
      as.map((a) => a.address),
      as.map((a) => JSON.stringify(a.details)),
    ],
  );
}

/**
 * The staff trail's row of an impersonation step, as 'impersonation.<step>' (the impersonation
 * log has its own row): the actor found by email among the staff, the request's site and its
 * owner read with it, the call's request id.
 */
export async function appendImpersonationStepRow(
  db: Queryable,
  e: {
    requestId: number;
    at: Date;
    actor: string | null;
    event: string;
    status: string;
    clientAddress?: string | null;
    details: Record<string, unknown>;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO activity_log (at, actor_uid, actor_email, action, target_type, target_id, client_address, details,
                               request_id, impersonation_request_id, app_id, customer_uid)
     SELECT $2::timestamptz, (SELECT uid FROM staff WHERE lower(email) = lower($3::text)), $3::text, $4::text,
            'impersonation-request', $9::text, $5::text, $6::jsonb || jsonb_build_object('status', $7::text),
            $8::text, q.id, r.app_id, s.owner_uid
       FROM (SELECT $1::bigint AS id) q
       LEFT JOIN impersonation_requests r ON r.id = q.id
       LEFT JOIN sites s ON s.app_id = r.app_id`,
    [
      e.requestId,
      e.at,
      e.actor,
      `impersonation.${e.event}`,
      e.clientAddress ?? null,
      JSON.stringify(e.details),
      e.status,
      currentRequest()?.requestId ?? null,
      String(e.requestId),
    ],
  );
}
