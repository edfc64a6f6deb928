import { HEADERS } from '@sac/contract/constants';
import { displayStatus } from '@sac/contract/impersonation';
import {
  IMPERSONATION_MESSAGES,
  LOGS_EXPORT_COLUMNS,
  REQUESTS_EXPORT_COLUMNS,
} from '@sac/contract/impersonation-api';
import { LOG_SORT_KEYS, REQUEST_SORT_KEYS } from '@sac/contract/list-sort';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { csvLine } from '../../lib/csv.ts';

/**
 * Issue 17: the impersonation lists sort by a column (sort=key, -key) in SQL, keyset-paged with the
 * sort in the cursor, and export as CSV the list as its pages show it.
 */

type S = { xtoken: string; xsign: string };
interface Wire {
  Id: number;
  AppName: string;
  Initiator: string;
  Request: {
    Priority: string;
    Assignees: string[];
    RequestCreatedDate: string;
    RequestModifiedDate: string;
    ReasonCode?: string | null;
    CaseReference?: string | null;
  };
  Action: { Status: string; ExpiresAt: string | null };
}
interface LogWire {
  Id: number;
  RequestId: number;
  AppName: string;
  Status: string;
  Event: string;
  Actor: string | null;
  LastModified: string;
}
interface Page<T> {
  Data: T[];
  NextCursor: string | null;
}

let t: TestApp;
let boss: S; // SuperAdmin: every request
let agent: S; // Admin: what they asked for or are assigned
let auditor: S; // no impersonation access
const NOW = new Date('2026-01-15T10:00:00Z');
const R = 'impersonationList' as const;
const L = 'impersonationLogs' as const;

/** The lists page by query strings built in loops, so their queries are loose. */
type ListId = 'impersonationList' | 'impersonationLogs' | 'customerRequestsList';
const get = async <T>(session: S, id: ListId, query: Record<string, string> = {}) => {
  const r = await t.callLoose(id, { session, query });
  expect(r.status, r.raw.body).toBe(200);
  return r.body as Page<T>;
};

/** Every page of a list under `query`, following NextCursor; fails on a row seen twice. */
async function allPages<T extends { Id: number }>(session: S, id: ListId, query: Record<string, string>) {
  const rows: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: Page<T> = await get<T>(session, id, { ...query, ...(cursor ? { cursor } : {}) });
    rows.push(...page.Data);
    cursor = page.NextCursor;
    expect(++pages).toBeLessThan(1000);
  } while (cursor);
  expect(new Set(rows.map((r) => r.Id)).size).toBe(rows.length);
  return rows;
}

const SEVERITY: Record<string, number> = { Low: 1, Moderate: 2, High: 3, Critical: 4 };
const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/** The expected order of a list under `sort`: by the key, ties by Id, all reversed for `-key`. */
function sorted<T extends { Id: number }>(
  rows: T[],
  sort: string,
  keyOf: (row: T, key: string) => string | number,
) {
  const descending = sort.startsWith('-');
  const key = descending ? sort.slice(1) : sort;
  const out = [...rows].sort((a, b) => cmp(keyOf(a, key), keyOf(b, key)) || a.Id - b.Id);
  return descending ? out.reverse() : out;
}
const requestKey = (r: Wire, key: string): string | number => {
  switch (key) {
    case 'id':
      return r.Id;
    case 'app':
      return r.AppName.toLowerCase();
    case 'priority':
      return SEVERITY[r.Request.Priority]!;
    case 'status':
      return r.Action.Status;
    default:
      return r.Request.RequestModifiedDate;
  }
};
const logKey = (r: LogWire, key: string): string | number => {
  switch (key) {
    case 'request':
      return r.RequestId;
    case 'app':
      return r.AppName.toLowerCase();
    case 'status':
      return r.Status;
    default:
      return r.LastModified;
  }
};

/** Every request not deleted as the list shows it now, read row by row with the contract's rule. */
async function everyRequest(): Promise<Wire[]> {
  const r = await t.db.query<{
    id: string;
    app_name: string;
    initiator_email: string;
    priority: string;
    assignees: string[];
    status: 'Pending' | 'Approved' | 'Rejected' | 'Revoked';
    expires_at: Date | null;
    created_at: Date;
    modified_at: Date;
  }>(
    `SELECT r.id::text, s.app_name, r.initiator_email, r.priority, r.assignees, r.status, r.expires_at, r.created_at,
       r.modified_at FROM impersonation_requests r JOIN sites s ON s.app_id = r.app_id WHERE r.deleted_at IS NULL`,
  );
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return r.rows.map((x) => ({
    Id: Number(x.id),
    AppName: x.app_name,
    Initiator: x.initiator_email,
    Request: {
      Priority: x.priority,
      Assignees: x.assignees,
      RequestCreatedDate: iso(x.created_at)!,
      RequestModifiedDate: iso(x.modified_at)!,
    },
    Action: {
      Status: displayStatus(
        { status: x.status, expiresAt: x.expires_at ? new Date(x.expires_at).getTime() : null },
        t.clock.now().getTime(),
      ),
      ExpiresAt: iso(x.expires_at),
    },
  }));
}

/** Every log entry as the log shows it now: the newest step of an expired grant reads Expired. */
async function everyEntry(): Promise<LogWire[]> {
  const r = await t.db.query<{
    id: string;
    request_id: string;
    app_name: string;
    status: string;
    event: string;
    actor: string | null;
    at: Date;
    expired: boolean;
    latest: boolean;
  }>(
    `SELECT l.id::text, l.request_id::text, s.app_name, l.status, l.event, l.actor, l.at,
       (r.status = 'Approved' AND r.expires_at <= $1) AS expired,
       l.id = (SELECT max(id) FROM impersonation_log x WHERE x.request_id = l.request_id) AS latest
     FROM impersonation_log l JOIN impersonation_requests r ON r.id = l.request_id JOIN sites s ON s.app_id = r.app_id`,
    [t.clock.now()],
  );
  return r.rows.map((x) => ({
    Id: Number(x.id),
    RequestId: Number(x.request_id),
    AppName: x.app_name,
    Status: x.latest && x.expired ? 'Expired' : x.status,
    Event: x.event,
    Actor: x.actor,
    LastModified: new Date(x.at).toISOString(),
  }));
}

const ids = (rows: { Id: number }[]) => rows.map((r) => r.Id);
const sortsOf = (keys: readonly string[]) => keys.flatMap((k) => [k, `-${k}`]);
const visibleToAgent = (x: Wire) =>
  x.Initiator.toLowerCase() === 'agent@example.com' || x.Request.Assignees.includes('agent@example.com');

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('agent@example.com', ['Admin']);
  await t.addStaff('auditor@example.com', ['Auditor']);
  boss = await t.login('boss@example.com');
  agent = await t.login('agent@example.com');
  auditor = await t.login('auditor@example.com');
  const owner = await insertCustomer(t.db, { first: 'Sam', last: 'Sorter', email: 'sam@sort.example' });
  // names whose case differs from their order: the sort reads them without case
  const apps: number[] = [];
  for (const name of ['gamma-sort', 'Alpha-sort', 'beta-sort', 'delta-sort'])
    apps.push((await insertSite(t.db, { owner, name })).appId);
  // 260 requests over the sites: priorities, statuses and expiries cycle (some grants expired,
  // some live), modified dates shared by three (ties broken by Id), a few deleted.
  await t.db.query(
    `INSERT INTO impersonation_requests (app_id, initiator_email, consent, priority, description, assignees,
       proxy_roles, duration_minutes, created_at, modified_at, status, action_taken_by, action_taken_at, expires_at,
       is_customer_request, deleted_at)
     SELECT ($1::bigint[])[1 + (g * 7) % 4], CASE WHEN g % 5 = 0 THEN 'agent@example.com' ELSE 'other@example.com' END,
       'granted', (ARRAY['Critical', 'Low', 'High', 'Moderate'])[1 + (g * 3) % 4], 'sort',
       CASE WHEN g % 7 = 0 THEN ARRAY['agent@example.com'] ELSE ARRAY['boss@example.com'] END,
       ARRAY['Developer'], 60, m - interval '1 day', m - ((g * 13) % 17) * interval '1 minute',
       (ARRAY['Pending', 'Approved', 'Rejected', 'Revoked', 'Approved'])[1 + g % 5],
       CASE WHEN g % 5 <> 0 THEN 'boss@example.com' END, CASE WHEN g % 5 <> 0 THEN m END,
       CASE WHEN g % 5 IN (1, 4) THEN $2::timestamptz + (g % 3 - 1) * interval '1 hour' END,
       g % 11 = 0, CASE WHEN g % 41 = 0 THEN m END
     FROM generate_series(1, 260) g, LATERAL (SELECT $2::timestamptz - (g / 3) * interval '1 minute' AS m) x`,
    [apps, NOW],
  );
  // 700 log entries over the requests, times shared by pairs; each grant's newest entry decides Expired.
  await t.db.query(
    `INSERT INTO impersonation_log (request_id, at, actor, event, status, details)
     SELECT r.id, $1::timestamptz - ((g * 37) % 300 / 2) * interval '1 second', 'agent@example.com',
       (ARRAY['request', 'approve', 'call', 'reject', 'revoke'])[1 + g % 5],
       (ARRAY['Pending', 'Approved', 'Approved', 'Rejected', 'Revoked', 'Deleted'])[1 + g % 6], '{}'
     FROM generate_series(1, 700) g
     JOIN LATERAL (SELECT id FROM impersonation_requests ORDER BY id LIMIT 1 OFFSET (g * 11) % 260) r ON true`,
    [NOW],
  );
});
afterAll(() => t.close());

describe('GET /admin/impersonation/requests?sort=', () => {
  it('orders by each key both ways, priority by severity and status as shown, paging through every row once', async () => {
    const every = await everyRequest();
    expect(new Set(every.map((r) => r.Action.Status))).toEqual(
      new Set(['Pending', 'Approved', 'Expired', 'Rejected', 'Revoked']),
    );
    for (const sort of sortsOf(REQUEST_SORT_KEYS)) {
      const rows = await allPages<Wire>(boss, R, { sort, limit: '23' });
      const expected = sorted(every, sort, requestKey);
      expect(ids(rows), sort).toEqual(ids(expected));
      expect(
        rows.map((r) => r.Action.Status),
        sort,
      ).toEqual(expected.map((r) => r.Action.Status));
    }
    // severity, not the alphabet: Low before Moderate before High before Critical
    const byPriority = await get<Wire>(boss, R, { sort: 'priority', limit: '200' });
    const seen = [...new Set(byPriority.Data.map((r) => r.Request.Priority))];
    expect(seen).toEqual(['Low', 'Moderate', 'High', 'Critical']);
  });

  it('sorts within a status filter and within what a requester may see', async () => {
    const every = await everyRequest();
    for (const [status, sort] of [
      ['Expired', '-priority'],
      ['Approved', 'modified'],
      ['Pending', 'app'],
      ['Rejected', '-id'],
      ['Revoked', 'status'],
    ] as const) {
      const rows = await allPages<Wire>(boss, R, { status, sort, limit: '7' });
      const expected = sorted(
        every.filter((r) => r.Action.Status === status),
        sort,
        requestKey,
      );
      expect(expected.length, status).toBeGreaterThan(0);
      expect(ids(rows), `${status} ${sort}`).toEqual(ids(expected));
    }
    for (const sort of ['app', '-app', 'modified', '-status', 'priority']) {
      const rows = await allPages<Wire>(agent, R, { sort, limit: '9' });
      expect(ids(rows), sort).toEqual(ids(sorted(every.filter(visibleToAgent), sort, requestKey)));
    }
    const app = every[0]!;
    const site = await allPages<Wire>(boss, R, { sort: '-app', appId: String(await appIdOf(app.AppName)) });
    expect(ids(site)).toEqual(
      ids(
        sorted(
          every.filter((r) => r.AppName === app.AppName),
          '-app',
          requestKey,
        ),
      ),
    );
  });

  it('derives Expired when the list is read: a grant past its expiry sorts as Expired', async () => {
    t.clock.set(new Date(NOW.getTime() + 2 * 3_600_000)); // every seeded grant has expired now
    boss = await t.login('boss@example.com');
    const every = await everyRequest();
    expect(every.some((r) => r.Action.Status === 'Approved')).toBe(false);
    const rows = await allPages<Wire>(boss, R, { sort: 'status', limit: '50' });
    expect(ids(rows)).toEqual(ids(sorted(every, 'status', requestKey)));
    t.clock.set(NOW);
    boss = await t.login('boss@example.com');
    agent = await t.login('agent@example.com');
    auditor = await t.login('auditor@example.com');
  });

  it('refuses a cursor of another sort, and a sort it does not know', async () => {
    const refused = async (query: Record<string, string>) => {
      const r = await t.callLoose(R, { session: boss, query });
      expect(r.status, JSON.stringify(query)).toBe(400);
      return r.error;
    };
    const cursorOf = async (query: Record<string, string>) =>
      (await get<Wire>(boss, R, { ...query, limit: '3' })).NextCursor!;
    const byId = await cursorOf({ sort: 'id' });
    const own = await cursorOf({});
    for (const [cursor, sort] of [
      [byId, '-id'],
      [byId, 'modified'],
      [byId, undefined],
      [own, 'id'],
      [await cursorOf({ sort: 'app' }), 'priority'],
      [await cursorOf({ sort: '-status' }), 'status'],
    ] as const) {
      const e = await refused({ cursor, ...(sort ? { sort } : {}) });
      expect(e.Description).toBe('cursor is not a cursor of this list.');
      expect(e.FieldErrors?.[0]?.Field).toBe('cursor');
    }
    for (const sort of ['name', '--id', 'Priority', '-', 'x'.repeat(41)]) {
      const e = await refused({ sort });
      expect(e.FieldErrors).toEqual([
        {
          Field: 'sort',
          Message:
            'sort must be one of id, -id, app, -app, priority, -priority, status, -status, modified, -modified.',
        },
      ]);
    }
  });
});

async function appIdOf(name: string): Promise<number> {
  const r = await t.db.query<{ app_id: string }>('SELECT app_id::text FROM sites WHERE app_name = $1', [
    name,
  ]);
  return Number(r.rows[0]!.app_id);
}

describe('GET /admin/impersonation/logs?sort=', () => {
  it('orders by each key both ways, paging through every entry once', async () => {
    const every = await everyEntry();
    expect(every.some((r) => r.Status === 'Expired')).toBe(true);
    for (const sort of sortsOf(LOG_SORT_KEYS)) {
      const rows = await allPages<LogWire>(boss, L, { sort, limit: '41' });
      const expected = sorted(every, sort, logKey);
      expect(ids(rows), sort).toEqual(ids(expected));
      expect(
        rows.map((r) => r.Status),
        sort,
      ).toEqual(expected.map((r) => r.Status));
    }
  });

  it('sorts within a status filter, Expired included', async () => {
    const every = await everyEntry();
    for (const [status, sort] of [
      ['Expired', 'modified'],
      ['Expired', '-app'],
      ['Approved', '-request'],
      ['Deleted', 'app'],
      ['Pending', '-status'],
      ['Revoked', '-modified'],
    ] as const) {
      const rows = await allPages<LogWire>(boss, L, { status, sort, limit: '6' });
      const expected = sorted(
        every.filter((r) => r.Status === status),
        sort,
        logKey,
      );
      expect(expected.length, status).toBeGreaterThan(0);
      expect(ids(rows), `${status} ${sort}`).toEqual(ids(expected));
    }
  });

  it('refuses a cursor of another sort or list, and a sort it does not know', async () => {
    const refused = async (query: Record<string, string>) => {
      const r = await t.callLoose(L, { session: boss, query });
      expect(r.status, JSON.stringify(query)).toBe(400);
      return r.error;
    };
    const byApp = (await get<LogWire>(boss, L, { sort: 'app', limit: '2' })).NextCursor!;
    const own = (await get<LogWire>(boss, L, { limit: '2' })).NextCursor!;
    const request = (await get<Wire>(boss, R, { sort: 'id', limit: '2' })).NextCursor!;
    for (const [cursor, sort] of [
      [byApp, '-app'],
      [byApp, undefined],
      [own, 'request'],
      [request, 'request'],
    ] as const)
      expect((await refused({ cursor, ...(sort ? { sort } : {}) })).Description).toBe(
        'cursor is not a cursor of this list.',
      );
    expect((await refused({ sort: 'id' })).FieldErrors?.[0]).toEqual({
      Field: 'sort',
      Message: 'sort must be one of request, -request, app, -app, status, -status, modified, -modified.',
    });
  });
});

/** CSV text of rows, as the export writes them. */
const csv = (header: readonly string[], rows: readonly (readonly unknown[])[]) =>
  csvLine(header) + rows.map((r) => csvLine(r)).join('');
const requestLine = (w: Wire) => [
  w.Id,
  w.AppName,
  w.Request.Priority,
  w.Action.Status,
  w.Initiator,
  w.Request.Assignees.join('; '),
  w.Request.RequestCreatedDate,
  w.Request.RequestModifiedDate,
  w.Action.ExpiresAt,
  w.Request.ReasonCode,
  w.Request.CaseReference,
];
const logLine = (e: LogWire) => [e.Id, e.RequestId, e.AppName, e.Status, e.Event, e.Actor, e.LastModified];

describe('CSV exports of the impersonation lists', () => {
  const download = async (
    session: S,
    id: 'impersonationRequestsExport' | 'impersonationLogsExport',
    query: Record<string, string>,
  ) => {
    const r = await t.callLoose(id, { session, query });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    return r;
  };

  it('exports the request list as its pages show it, under each sort and filter, with the row count ahead', async () => {
    for (const query of [
      {},
      { sort: '-priority' },
      { sort: 'app', status: 'Approved' },
      { sort: 'status' },
      { sort: '-modified', status: 'Expired' },
    ] as Record<string, string>[]) {
      const pages = await allPages<Wire>(boss, R, { ...query, limit: '200' });
      const r = await download(boss, 'impersonationRequestsExport', query);
      expect(r.raw.body, JSON.stringify(query)).toBe(csv(REQUESTS_EXPORT_COLUMNS, pages.map(requestLine)));
      expect(r.headers[HEADERS.exportRows]).toBe(String(pages.length));
      expect(r.headers['content-disposition']).toMatch(
        /^attachment; filename="impersonation-requests-2026-01-15T10-00-00-000Z\.csv"$/,
      );
    }
    // a requester exports what they may list, no more
    const own = await allPages<Wire>(agent, R, { sort: 'app', limit: '200' });
    const theirs = await download(agent, 'impersonationRequestsExport', { sort: 'app' });
    expect(theirs.raw.body).toBe(csv(REQUESTS_EXPORT_COLUMNS, own.map(requestLine)));
    expect(theirs.headers[HEADERS.exportRows]).toBe(String(own.length));
    expect(own.length).toBeLessThan((await everyRequest()).length);
    expect(theirs.raw.body.split('\r\n')[0]).toBe(
      'Request Id,App Name,Priority,Status,Initiator,Assignees,Created,Modified,Expires At,Reason Code,Case',
    );
  });

  it('exports the log as its pages show it, under each sort and filter, and records each export', async () => {
    for (const query of [
      {},
      { sort: 'request' },
      { sort: '-app' },
      { sort: 'status', status: 'Expired' },
      { sort: 'modified', status: 'Deleted' },
    ] as Record<string, string>[]) {
      const pages = await allPages<LogWire>(boss, L, { ...query, limit: '200' });
      const r = await download(boss, 'impersonationLogsExport', query);
      expect(r.raw.body, JSON.stringify(query)).toBe(csv(LOGS_EXPORT_COLUMNS, pages.map(logLine)));
      expect(r.headers[HEADERS.exportRows]).toBe(String(pages.length));
      expect(r.headers['content-disposition']).toMatch(/^attachment; filename="impersonation-logs-.+\.csv"$/);
    }
    expect((await download(boss, 'impersonationLogsExport', {})).raw.body.split('\r\n')[0]).toBe(
      'Log Id,Request Id,App Name,Status,Event,Actor,Last Modified',
    );
    const trail = await t.db.query<{ action: string; actor_email: string; details: Record<string, unknown> }>(
      `SELECT action, actor_email, details FROM activity_log WHERE action LIKE 'impersonation-%.export' ORDER BY id`,
    );
    expect(trail.rows.at(-2)).toMatchObject({
      action: 'impersonation-logs.export',
      actor_email: 'boss@example.com',
      details: { filters: { sort: 'modified', status: 'Deleted' } },
    });
    expect(trail.rows.some((x) => x.action === 'impersonation-requests.export')).toBe(true);
    expect(typeof trail.rows.at(-1)!.details.rows).toBe('number');
  });

  it('refuses a viewer without access, a bad sort, and a third export while two stream', async () => {
    for (const id of ['impersonationRequestsExport', 'impersonationLogsExport'] as const) {
      const r = await t.call(id, { session: auditor });
      expect(r.status).toBe(403);
      const bad = await t.callLoose(id, { session: boss, query: { sort: 'nope' } });
      expect(bad.status).toBe(400);
      expect(bad.error.FieldErrors![0]!.Field).toBe('sort');
    }
    // Two exports left unread hold their places while their files are larger than what the
    // streams between them and the reader buffer (64 KiB each from Node 22 on): 6,000 more entries.
    await t.db.query(
      `INSERT INTO impersonation_log (request_id, at, actor, event, status, details)
       SELECT (SELECT min(id) FROM impersonation_requests), $1::timestamptz - g * interval '1 second',
         'agent@example.com', 'call', 'Approved', '{}'
       FROM generate_series(1, 6000) g`,
      [NOW],
    );
    const open = async (query?: { sort: '-modified' }) => {
      const r = await t.stream('impersonationLogsExport', { session: boss, query });
      expect(r.statusCode).toBe(200);
      return r;
    };
    const first = await open();
    const second = await open({ sort: '-modified' });
    const busy = await t.call('impersonationLogsExport', { session: boss });
    expect(busy.status).toBe(429);
    expect(busy.error).toMatchObject({ ErrorCode: 979, Description: IMPERSONATION_MESSAGES.exportBusy });
    for await (const _ of first.stream()) {
      // read to its end, which frees its place
    }
    await new Promise((r) => setImmediate(r));
    expect((await t.call('impersonationRequestsExport', { session: boss })).status).toBe(200);
    // The client goes away mid-file: its body is destroyed, which gives back its place and its
    // snapshot's connection.
    second.raw.res.destroy();
    // Its place comes back once the page it was reading ahead has come (on a busy machine, later
    // than the next turn of the event loop): then two exports at once are let in again.
    for (let i = 0; ; i++) {
      const again = await Promise.all(
        [1, 2].map(() => t.stream('impersonationLogsExport', { session: boss })),
      );
      for (const r of again) r.raw.res.destroy();
      if (again.every((r) => r.statusCode === 200)) break;
      for (const r of again) expect([200, 429]).toContain(r.statusCode);
      if (i === 500) throw new Error('a dropped export never gave back its place');
      await new Promise((done) => setTimeout(done, 10));
    }
  });
});
