import type { Readable } from 'node:stream';
import { displayStatus } from '@sac/contract/impersonation';
import { LOGS_EXPORT_COLUMNS, REQUESTS_EXPORT_COLUMNS } from '@sac/contract/impersonation-api';
import { sortParam } from '@sac/contract/list-sort';
import type { AppContext } from '../../app-context.ts';
import { csvFile, exportReading, fileStamp } from '../../lib/csv.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { recordEvent } from '../activity/activity.service.ts';
import { lastLogId, lastRequestId } from './impersonation.repo.ts';
import { type LogStatus, logStatusOf } from './impersonation.wire.ts';
import { countRequests, fileRows } from './impersonation-lists.repo.ts';
import { countLogEntries, logFileRows } from './impersonation-log-list.repo.ts';
import {
  type RequestListQuery,
  readLog,
  readRequestList,
  visibility,
} from './impersonation-reads.service.ts';

/**
 * CSV exports of the request list and the impersonation log: the list's own filters, order and
 * visibility, read through the same pages the list answers (so the file is the pages, joined),
 * up to the last row when the export began and as of that instant, in batches with back-pressure.
 * On PostgreSQL the count and the batches read one snapshot (consistentReader): a request that
 * changes state while the file streams moves in the list's order, and is still listed once.
 */

/** Rows an export reads per query: large enough to stream fast, small enough to interleave. */
const EXPORT_BATCH = 2000;

export interface ExportFile {
  rows: number;
  body: Readable;
  filename: string;
}

/** The filters and order an export was asked for, as recorded in the trail: only those given. */
const given = (q: object) =>
  Object.fromEntries(
    Object.entries(q)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, k === 'sort' ? sortParam(v as never) : v]),
  );

/** GET /admin/impersonation/requests/export: the request list as CSV. */
export async function exportRequests(
  ctx: AppContext,
  call: StaffCall,
  input: RequestListQuery & { release: () => void },
): Promise<ExportFile> {
  const { release, ...q } = input;
  const viewer = call.session;
  return exportReading(ctx.db, release, async (db, end) => {
    const at = ctx.clock.now();
    const now = at.getTime();
    const upTo = await lastRequestId(db);
    const rows = await countRequests(db, {
      now: at,
      statuses: q.status ? [q.status] : ['Pending', 'Approved', 'Rejected', 'Revoked', 'Expired'],
      ...visibility(viewer),
      appId: q.appId,
      requestId: q.requestId,
      ...(q.ids ? { ids: q.ids } : {}),
      upTo,
    });
    // The export's trail row is its only write: one statement, on its own. An export of a
    // selection says so, with its count, not its ids (the rows are in the file).
    const { ids, ...filters } = q;
    await recordEvent(ctx.db, {
      at,
      action: 'impersonation-requests.export',
      actorUid: viewer.uid,
      actorEmail: viewer.email,
      clientAddress: call.clientAddress,
      details: { filters: given(filters), rows, ...(ids ? { selection: ids.length } : {}) },
    });
    const body = csvFile({
      header: REQUESTS_EXPORT_COLUMNS,
      limit: rows,
      page: (cursor: string | undefined) =>
        readRequestList(ctx, viewer, { ...q, cursor, upTo }, EXPORT_BATCH, fileRows, { asOf: at, db }),
      // the list's fields (toWire's), as the file row gives them
      line: (r) => [
        Number(r.id),
        r.app_name,
        r.priority,
        displayStatus(
          { status: r.status, expiresAt: r.expires_at === null ? null : Date.parse(r.expires_at) },
          now,
        ),
        r.initiator_email,
        r.assignees,
        r.created_at,
        r.modified_at,
        r.expires_at,
        r.reason_code,
        r.case_reference,
      ],
      release: end,
    });
    return { rows, body, filename: `impersonation-requests-${fileStamp(at)}.csv` };
  });
}

/** GET /admin/impersonation/logs/export: the impersonation log as CSV. */
export async function exportLogs(
  ctx: AppContext,
  call: StaffCall,
  input: { status?: LogStatus; sort?: Parameters<typeof readLog>[1]['sort']; release: () => void },
): Promise<ExportFile> {
  const { release, ...q } = input;
  const viewer = call.session;
  return exportReading(ctx.db, release, async (db, end) => {
    const at = ctx.clock.now();
    const now = at.getTime();
    const upTo = await lastLogId(db);
    // a scoped reader's file holds the entries of the sites in their scope (role-scopes.ts)
    const scope = viewer.scope;
    const rows = await countLogEntries(db, {
      now: at,
      status: q.status,
      upTo,
      ...(scope ? { scopes: [scope] } : {}),
    });
    // The export's trail row is its only write: one statement, on its own.
    await recordEvent(ctx.db, {
      at,
      action: 'impersonation-logs.export',
      actorUid: viewer.uid,
      actorEmail: viewer.email,
      clientAddress: call.clientAddress,
      details: { filters: given(q), rows },
    });
    const body = csvFile({
      header: LOGS_EXPORT_COLUMNS,
      limit: rows,
      page: (cursor: string | undefined) =>
        readLog(ctx, { ...q, cursor, upTo, scope }, EXPORT_BATCH, logFileRows, { asOf: at, db }),
      // the log's fields (logEntryOut's), as the file row gives them
      line: (x) => [
        Number(x.id),
        Number(x.request_id),
        x.app_name,
        logStatusOf(x, now),
        x.event,
        x.actor,
        x.at,
      ],
      release: end,
    });
    return { rows, body, filename: `impersonation-logs-${fileStamp(at)}.csv` };
  });
}
