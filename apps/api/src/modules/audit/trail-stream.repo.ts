import type { AuditEvent } from '@sac/contract/audit';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, isoText, qb, rows } from '../../db/sql.ts';
import { eventColumns, eventOf } from './audit.repo.ts';

/** Where a sink stands: the last row it was sent, as (transaction, id). */
export interface StreamCursor {
  txid: string;
  id: string;
}

const CURSOR_START: StreamCursor = { txid: '0', id: '0' };

/**
 * The id of the oldest transaction still running (every transaction below it has ended), as text:
 * rows are streamed only from below it, so one committed later never lands behind the cursor.
 */
const horizon = sql<number>`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;

/** The next rows after `after`, up to `limit`, in the order of the transactions that wrote them. */
export async function readAfter(
  db: Queryable,
  after: StreamCursor,
  limit: number,
): Promise<Array<{ cursor: StreamCursor; event: AuditEvent }>> {
  const found = await rows(
    db,
    eventColumns(qb.selectFrom('activity_log'))
      .select((eb) => eb.cast<string>('txid', 'text').as('txid'))
      .where((eb) =>
        eb(
          eb.refTuple('txid', 'id'),
          '>',
          eb.tuple(sql<number>`${after.txid}::bigint`, sql<number>`${after.id}::bigint`),
        ),
      )
      .where('txid', '<', horizon)
      // the table's columns: `id` and `txid` alone would name the text aliases above
      .orderBy('activity_log.txid')
      .orderBy('activity_log.id')
      .limit(limit),
  );
  return found.map((r) => ({ cursor: { txid: r.txid, id: r.id }, event: eventOf(r) }));
}

/** The channel migration 0071's trigger notifies when rows of the trail commit. */
export const TRAIL_COMMITTED_CHANNEL = 'sac_trail_committed';

/**
 * Whether rows are there after `after` (readable or not yet: kept back behind the horizon by an
 * older transaction still running), found by the first index entry beyond it.
 */
export async function rowsAfter(db: Queryable, after: StreamCursor): Promise<boolean> {
  const found = await firstRow(
    db,
    qb
      .selectFrom('activity_log')
      .select('id')
      .where((eb) =>
        eb(
          eb.refTuple('txid', 'id'),
          '>',
          eb.tuple(sql<number>`${after.txid}::bigint`, sql<number>`${after.id}::bigint`),
        ),
      )
      .limit(1),
  );
  return found !== undefined;
}

/** A sink's stored cursor; a new sink's is made at the start of the trail. */
export async function cursorOf(db: Queryable, sink: string): Promise<StreamCursor> {
  const read = () =>
    firstRow(
      db,
      qb
        .selectFrom('trail_stream_cursors')
        .select((eb) => [
          eb.cast<string>('txid', 'text').as('txid'),
          eb.cast<string>('last_id', 'text').as('id'),
        ])
        .where('sink', '=', sink),
    );
  const found = await read();
  if (found) return found;
  await execute(
    db,
    qb
      .insertInto('trail_stream_cursors')
      .values({ sink })
      .onConflict((oc) => oc.column('sink').doNothing()),
  );
  return (await read()) ?? CURSOR_START;
}

/** Moves a sink's cursor to `to` after `sent` rows went out (or back, to send rows again). */
export async function storeCursor(
  db: Queryable,
  sink: string,
  to: StreamCursor,
  sent: number,
  at: Date,
): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('trail_stream_cursors')
      .set((eb) => ({
        txid: sql<number>`${to.txid}::bigint`,
        last_id: sql<number>`${to.id}::bigint`,
        sent_rows: eb('sent_rows', '+', sent),
        ...(sent > 0 ? { last_sent_at: at, last_error: null, last_error_at: null } : {}),
        updated_at: at,
      }))
      .where('sink', '=', sink),
  );
}

/** Notes why a sink could not be sent to (cleared by the next rows it takes). */
export async function storeSinkError(db: Queryable, sink: string, error: string, at: Date): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('trail_stream_cursors')
      .set({ last_error: error.slice(0, 500), last_error_at: at, updated_at: at })
      .where('sink', '=', sink),
  );
}

/** The most pending rows a status counts exactly. */
export const PENDING_COUNT_CAP = 10_000;

/** Each sink's standing: rows sent, when, its last error, and what waits (counted up to the cap). */
export function sinkStandings(db: Queryable, sinks: string[]) {
  return rows(
    db,
    qb
      .selectFrom('trail_stream_cursors as c')
      .select((eb) => [
        'c.sink',
        eb.cast<string>('c.sent_rows', 'text').as('sent_rows'),
        isoText('c.last_sent_at').as('last_sent_at'),
        'c.last_error',
        isoText('c.last_error_at').as('last_error_at'),
        sql<string>`(SELECT count(*) FROM (SELECT 1 FROM activity_log a
          WHERE (a.txid, a.id) > (c.txid, c.last_id) LIMIT ${PENDING_COUNT_CAP + 1}) p)::text`.as('pending'),
        sql<string | null>`(SELECT ${isoText('a.at')} FROM activity_log a
          WHERE (a.txid, a.id) > (c.txid, c.last_id) ORDER BY a.txid, a.id LIMIT 1)`.as('oldest_pending_at'),
      ])
      .where('c.sink', 'in', sinks.length > 0 ? sinks : [''])
      .orderBy('c.sink'),
  );
}
