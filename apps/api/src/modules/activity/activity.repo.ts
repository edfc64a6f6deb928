import type { ActivityAction } from '@sac/contract/audit';
import { type Insertable, sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import type { DB } from '../../db/schema.generated.ts';
import { execute, preparedStatement, qb } from '../../db/sql.ts';
import { currentRequest } from '../../lib/request-context.ts';

/** The columns every trail row writes; a kind of row adds its own after them. */
export const TRAIL_COLUMNS = [
  'at',
  'actor_uid',
  'actor_email',
  'action',
  'target_type',
  'target_id',
  'client_address',
  'details',
] as const;

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
 * A JSON text for a jsonb column, cast in the statement (details is typed Generated<Json>, whose
 * insert type the builder cannot take a plain value for).
 */
const jsonb = (text: string) => sql<Insertable<DB['activity_log']>['details']>`${text}::jsonb`;

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
    activityInsert(
      e.at,
      e.actorUid ?? null,
      e.actorEmail ?? null,
      e.action,
      e.targetType ?? null,
      e.targetId ?? null,
      e.clientAddress ?? null,
      // The token in the details too, so the trail's screen and its signed export show it.
      JSON.stringify(call?.apiToken ? { ...e.details, apiToken: call.apiToken } : (e.details ?? {})),
      call?.requestId ?? null,
      call?.impersonationRequestId ?? null,
      customerUid,
      appId,
      call?.apiToken?.id ?? null,
      call?.apiToken?.name ?? null,
    ),
  );
}

/** The insert of one trail row: one text whatever the row, written by most writes, so built once and prepared. */
const activityInsert = preparedStatement(
  (
    at: Date,
    actorUid: string | null,
    actorEmail: string | null,
    action: string,
    targetType: string | null,
    targetId: string | null,
    clientAddress: string | null,
    details: string,
    requestId: string | null,
    impersonationRequestId: number | null,
    customerUid: string | null,
    appId: number | null,
    apiTokenId: number | null,
    apiTokenName: string | null,
  ) =>
    qb.insertInto('activity_log').values({
      at,
      actor_uid: actorUid,
      actor_email: actorEmail,
      action,
      target_type: targetType,
      target_id: targetId,
      client_address: clientAddress,
      details: jsonb(details),
      request_id: requestId,
      impersonation_request_id: impersonationRequestId,
      customer_uid: customerUid,
      app_id: appId,
      api_token_id: apiTokenId,
      api_token_name: apiTokenName,
    }),
);

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
  const u = sql<{ a: string; e: string; act: string; t: string; ip: string; d: string; i: number }>`unnest(
      ${as.map((a) => iso(a.at))}::text[], ${as.map((a) => a.actorEmail)}::text[], ${as.map((a) => a.action)}::text[],
      ${as.map((a) => a.targetId)}::text[], ${as.map((a) => a.address)}::text[],
      ${as.map((a) => JSON.stringify(a.details))}::text[]) WITH ORDINALITY`.as<'u'>(
    sql`u(a, e, act, t, ip, d, i)`,
  );
  await execute(
    tx,
    qb
      .insertInto('activity_log')
      .columns([...TRAIL_COLUMNS, 'customer_uid'])
      .expression(
        qb
          .selectFrom(u)
          .leftJoin('staff as s', (j) => j.on(sql`lower(s.email)`, '=', sql`lower(u.e)`))
          .select([
            sql<Date>`u.a::timestamptz`.as('at'),
            's.uid',
            'u.e',
            'u.act',
            sql.lit('customer').as('target_type'),
            'u.t',
            'u.ip',
            sql`u.d::jsonb`.as('details'),
            sql<string>`u.t::uuid`.as('customer_uid'),
          ])
          .orderBy('u.i'),
      ),
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
  const actor = sql<string | null>`${e.actor}::text`;
  const token = currentRequest()?.apiToken;
  const q = qb.selectNoFrom(sql<number>`${e.requestId}::bigint`.as('id')).as('q');
  await execute(
    db,
    qb
      .insertInto('activity_log')
      .columns([
        ...TRAIL_COLUMNS,
        'request_id',
        'impersonation_request_id',
        'app_id',
        'customer_uid',
        'api_token_id',
        'api_token_name',
      ])
      .expression(
        qb
          .selectFrom(q)
          .leftJoin('impersonation_requests as r', 'r.id', 'q.id')
          .leftJoin('sites as s', 's.app_id', 'r.app_id')
          .select((eb) => [
            sql<Date>`${e.at}::timestamptz`.as('at'),
            eb
              .selectFrom('staff')
              .select('uid')
              .where(sql`lower(email)`, '=', sql`lower(${actor})`)
              .as('actor_uid'),
            actor.as('actor_email'),
            sql<string>`${`impersonation.${e.event}`}::text`.as('action'),
            sql.lit('impersonation-request').as('target_type'),
            sql<string>`${String(e.requestId)}::text`.as('target_id'),
            sql<string | null>`${e.clientAddress ?? null}::text`.as('client_address'),
            sql`${JSON.stringify(token ? { ...e.details, apiToken: token } : e.details)}::jsonb || jsonb_build_object('status', ${e.status}::text)`.as(
              'details',
            ),
            sql<string | null>`${currentRequest()?.requestId ?? null}::text`.as('request_id'),
            'q.id',
            'r.app_id',
            's.owner_uid',
            sql<number | null>`${token?.id ?? null}::bigint`.as('api_token_id'),
            sql<string | null>`${token?.name ?? null}::text`.as('api_token_name'),
          ]),
      ),
  );
}
