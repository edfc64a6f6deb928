import { displayStatus } from '@sac/contract/impersonation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { displayStatusIs } from './impersonation-lists.repo.ts';

/**
 * Issue 17: the request list and the impersonation log are filtered, ordered and paged in SQL with
 * a keyset cursor, so an old Pending request stays listed whatever the number of newer ones.
 */

type S = { xtoken: string; xsign: string };
interface Wire {
  Id: number;
  Initiator: string;
  IsCustomerRequest: boolean;
  Request: { Assignees: string[]; RequestModifiedDate: string };
  Action: { Status: string; ActionTakenAt: string | null };
}
interface Page<T> {
  Data: T[];
  NextCursor: string | null;
}
interface LogWire {
  Id: number;
  RequestId: number;
  Status: string;
}

let t: TestApp;
let boss: S; // SuperAdmin: sees every request
let agent: S; // Admin: sees the requests they made or are assigned
let appId: number;
let otherAppId: number;
let oldPendingId: number;
const NOW = new Date('2026-01-15T10:00:00Z');

/**
 * `n` requests inserted at once, each newer than the last, minutes apart from `from`, three at a
 * time sharing a modified date (ties are broken by Id); statuses and expiries cycle.
 */
async function seedRequests(n: number, from: Date, app = appId): Promise<void> {
  await t.db.query(
    `INSERT INTO impersonation_requests (app_id, initiator_email, consent, priority, description, assignees,
       proxy_roles, duration_minutes, created_at, modified_at, status, action_taken_by, action_taken_at, expires_at,
       is_customer_request, deleted_at)
     SELECT $1, CASE WHEN g % 5 = 0 THEN 'agent@example.com' ELSE 'other@example.com' END, 'granted', 'Low', 'seed',
       CASE WHEN g % 7 = 0 THEN ARRAY['agent@example.com'] ELSE ARRAY['boss@example.com'] END,
       ARRAY['Developer'], 60, m, m,
       (ARRAY['Pending', 'Approved', 'Rejected', 'Revoked', 'Approved'])[1 + g % 5],
       CASE WHEN g % 5 <> 0 THEN 'boss@example.com' END,
       -- actions taken before or after the last change, or never: the order reads the later of both
       CASE WHEN g % 5 = 0 THEN NULL WHEN g % 2 = 0 THEN m + interval '90 seconds' ELSE m - interval '1 hour' END,
       CASE WHEN g % 5 IN (1, 4) THEN $4::timestamptz + (g % 3 - 1) * interval '1 hour' END,
       g % 11 = 0, CASE WHEN g % 97 = 0 THEN m END
     FROM generate_series(1, $3::int) g, LATERAL (SELECT $2::timestamptz + (g / 3) * interval '1 minute' AS m) x`,
    [app, from, n, NOW],
  );
}

/** The lists page by query strings built in loops, so their queries are loose. */
type ListId = 'impersonationList' | 'impersonationLogs' | 'customerRequestsList';
const get = async <T>(session: S, id: ListId, query: Record<string, string> = {}) => {
  const r = await t.callLoose(id, { session, query });
  expect(r.status, r.raw.body).toBe(200);
  return r.body as Page<T>;
};

/** Every page of a list, following NextCursor; fails on a row seen twice. */
async function allPages<T extends { Id: number }>(
  session: S,
  id: ListId,
  query: Record<string, string> = {},
): Promise<{ rows: T[]; pages: number }> {
  const rows: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: Page<T> = await get<T>(session, id, { ...query, ...(cursor ? { cursor } : {}) });
    rows.push(...page.Data);
    cursor = page.NextCursor;
    pages++;
    expect(pages).toBeLessThan(10_000);
  } while (cursor);
  expect(new Set(rows.map((r) => r.Id)).size).toBe(rows.length);
  return { rows, pages };
}

/** Spec section 4, as the console's list was ordered in JavaScript before issue 17. */
function specOrder(rows: Wire[]): Wire[] {
  const live = (x: Wire) => x.Action.Status === 'Pending' || x.Action.Status === 'Approved';
  const last = (x: Wire) => x.Action.ActionTakenAt ?? x.Request.RequestModifiedDate;
  return [...rows].sort(
    (a, b) => Number(live(b)) - Number(live(a)) || last(b).localeCompare(last(a)) || b.Id - a.Id,
  );
}

/** What each request's display status is now, by the contract's rule, read row by row. */
async function everyRequest(): Promise<Wire[]> {
  const r = await t.db.query<{
    id: string;
    status: 'Pending' | 'Approved' | 'Rejected' | 'Revoked';
    expires_at: Date | null;
    initiator_email: string;
    assignees: string[];
    is_customer_request: boolean;
    action_taken_at: Date | null;
    modified_at: Date;
  }>(
    `SELECT id::text, status, expires_at, initiator_email, assignees, is_customer_request, action_taken_at, modified_at
     FROM impersonation_requests WHERE deleted_at IS NULL`,
  );
  return r.rows.map((x) => ({
    Id: Number(x.id),
    Initiator: x.initiator_email,
    IsCustomerRequest: x.is_customer_request,
    Request: { Assignees: x.assignees, RequestModifiedDate: new Date(x.modified_at).toISOString() },
    Action: {
      Status: displayStatus(
        { status: x.status, expiresAt: x.expires_at ? new Date(x.expires_at).getTime() : null },
        t.clock.now().getTime(),
      ),
      ActionTakenAt: x.action_taken_at ? new Date(x.action_taken_at).toISOString() : null,
    },
  }));
}

const ids = (rows: { Id: number }[]) => rows.map((r) => r.Id);
const visibleToAgent = (x: Wire) =>
  x.Initiator.toLowerCase() === 'agent@example.com' || x.Request.Assignees.includes('agent@example.com');

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('agent@example.com', ['Admin']);
  boss = await t.login('boss@example.com');
  agent = await t.login('agent@example.com');
  const owner = await insertCustomer(t.db, { first: 'Lena', last: 'Lister', email: 'lena@list.example' });
  appId = (await insertSite(t.db, { owner, name: 'list-shop' })).appId;
  otherAppId = (await insertSite(t.db, { owner, name: 'list-other' })).appId;
  // The old Pending request, then 2,100 newer ones (the old list read the newest 2,000 only).
  await seedRequests(1, new Date('2025-06-01T00:00:00Z'));
  oldPendingId = Number(
    (await t.db.query<{ id: string }>('SELECT max(id)::text AS id FROM impersonation_requests')).rows[0]!.id,
  );
  await t.db.query(
    "UPDATE impersonation_requests SET status = 'Pending', action_taken_at = NULL WHERE id = $1",
    [oldPendingId],
  );
  await seedRequests(2_100, new Date('2025-12-01T00:00:00Z'));
  await seedRequests(40, new Date('2025-12-20T00:00:00Z'), otherAppId);
});
afterAll(() => t.close());

describe('GET /admin/impersonation/requests, paged in SQL', () => {
  it('keeps an old Pending request under ?status=Pending with more than 2,000 newer requests', async () => {
    const { rows } = await allPages<Wire>(boss, 'impersonationList', { status: 'Pending' });
    expect(ids(rows)).toContain(oldPendingId);
    expect(rows.every((r) => r.Action.Status === 'Pending')).toBe(true);
    // the oldest change comes last
    expect(rows.at(-1)!.Id).toBe(oldPendingId);
  });

  it('answers a page, not the whole list, with a cursor to the next', async () => {
    const page = await get<Wire>(boss, 'impersonationList');
    expect(page.Data).toHaveLength(50);
    expect(page.NextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const small = await get<Wire>(boss, 'impersonationList', { limit: '5' });
    expect(ids(small.Data)).toEqual(ids(page.Data).slice(0, 5));
  });

  it('pages through every request once, in the order of spec section 4', async () => {
    const expected = specOrder(await everyRequest());
    const { rows, pages } = await allPages<Wire>(boss, 'impersonationList', { limit: '200' });
    expect(pages).toBe(Math.ceil(expected.length / 200));
    expect(ids(rows)).toEqual(ids(expected));
    expect(rows.map((r) => r.Action.Status)).toEqual(expected.map((r) => r.Action.Status));
  });

  it('filters by every status, the same rule as the status each row shows', async () => {
    const every = specOrder(await everyRequest());
    for (const status of ['Pending', 'Approved', 'Expired', 'Rejected', 'Revoked']) {
      const { rows } = await allPages<Wire>(boss, 'impersonationList', { status, limit: '97' });
      const expected = every.filter((r) => r.Action.Status === status);
      expect(expected.length, status).toBeGreaterThan(0);
      expect(ids(rows), status).toEqual(ids(expected));
      expect(rows.every((r) => r.Action.Status === status)).toBe(true);
    }
  });

  it('shows a requester only what they made or are assigned, paged alike', async () => {
    const expected = specOrder(await everyRequest()).filter(visibleToAgent);
    const { rows } = await allPages<Wire>(agent, 'impersonationList', { limit: '33' });
    expect(ids(rows)).toEqual(ids(expected));
    const pending = await allPages<Wire>(agent, 'impersonationList', { status: 'Pending' });
    expect(ids(pending.rows)).toEqual(ids(expected.filter((r) => r.Action.Status === 'Pending')));
  });

  it('reads one request or one site by id, within what the viewer may see', async () => {
    const [one] = (await get<Wire>(boss, 'impersonationList', { requestId: String(oldPendingId) })).Data;
    expect(one!.Id).toBe(oldPendingId);
    const site = await allPages<Wire>(boss, 'impersonationList', { appId: String(otherAppId) });
    const expected = (
      await t.db.query('SELECT id FROM impersonation_requests WHERE app_id = $1 AND deleted_at IS NULL', [
        otherAppId,
      ])
    ).rows.length;
    expect(site.rows).toHaveLength(expected);
    const hidden = (await everyRequest()).find((r) => !visibleToAgent(r))!;
    expect((await get<Wire>(agent, 'impersonationList', { requestId: String(hidden.Id) })).Data).toEqual([]);
  });

  it('reads a list as of its first page: a grant expiring meanwhile neither repeats nor goes missing', async () => {
    const first = await get<Wire>(boss, 'impersonationList', { limit: '10' });
    t.clock.advance(2 * 3_600_000); // every seeded grant has expired now
    boss = await t.login('boss@example.com');
    const rest: Wire[] = [...first.Data];
    let cursor = first.NextCursor;
    while (cursor) {
      const page: Page<Wire> = await get<Wire>(boss, 'impersonationList', {
        cursor,
        limit: '200',
      });
      rest.push(...page.Data);
      cursor = page.NextCursor;
    }
    t.clock.set(NOW);
    boss = await t.login('boss@example.com');
    agent = await t.login('agent@example.com');
    expect(ids(rest)).toEqual(ids(specOrder(await everyRequest())));
  });

  it('refuses a cursor it did not give and bounds the page size', async () => {
    const refused = async (query: Record<string, string>) => {
      const r = await t.callLoose('impersonationList', { session: boss, query });
      expect(r.status).toBe(400);
      return r.error;
    };
    for (const cursor of ['garbage!', 'bm90LWEtY3Vyc29y', Buffer.from('r1|x|L|y|1').toString('base64url')]) {
      const e = await refused({ cursor });
      expect(e.Description).toBe('cursor is not a cursor of this list.');
      expect(e.FieldErrors?.[0]?.Field).toBe('cursor');
    }
    // parts that look right but are no instant or no bigint
    const key = (at: string, id: string) =>
      Buffer.from(`r1|${NOW.getTime()}|D|${at}|${id}`).toString('base64url');
    for (const cursor of [
      key('2026-13-45 99:00:00+00', '5'),
      key('2026-02-30 10:00:00+00', '5'),
      key('2026-01-15 10:00:00+00', '99999999999999999999'),
    ])
      expect((await refused({ cursor })).Description).toBe('cursor is not a cursor of this list.');
    expect(
      (
        await get<Wire>(boss, 'impersonationList', {
          cursor: key('2026-01-15 10:00:00.5+00', '9'),
        })
      ).Data.length,
    ).toBeGreaterThan(0);
    // a log cursor is not a request cursor: two logged steps give the log a next page
    await t.db.query(
      `INSERT INTO impersonation_log (request_id, at, actor, event, status)
       SELECT (SELECT min(id) FROM impersonation_requests), $1, 'agent@example.com', 'call', 'Approved'
       FROM generate_series(1, 2)`,
      [new Date(NOW.getTime() - 60_000)],
    );
    const logPage = await get<LogWire>(boss, 'impersonationLogs', { limit: '1' });
    expect(logPage.NextCursor).toEqual(expect.any(String));
    expect((await refused({ cursor: logPage.NextCursor! })).Description).toBe(
      'cursor is not a cursor of this list.',
    );
    // nor is one from the future
    const later = Buffer.from(`r1|${NOW.getTime() + 60_000}|L|2026-01-15 10:00:00+00|5`).toString(
      'base64url',
    );
    expect((await refused({ cursor: later })).Description).toBe('cursor is not a cursor of this list.');
    expect((await refused({ limit: '0' })).Description).toBe('limit must be a whole number from 1 to 200.');
    expect((await refused({ limit: '201' })).Description).toBe('limit must be a whole number from 1 to 200.');
  });
});

describe('GET /admin/impersonation/customer/requests, paged', () => {
  it('pages through the customers’ requests by modified date, newest first', async () => {
    const expected = (await everyRequest())
      .filter((r) => r.IsCustomerRequest)
      .sort(
        (a, b) => b.Request.RequestModifiedDate.localeCompare(a.Request.RequestModifiedDate) || b.Id - a.Id,
      );
    const { rows } = await allPages<Wire>(boss, 'customerRequestsList', { limit: '17' });
    expect(ids(rows)).toEqual(ids(expected));
  });
});

describe('GET /admin/impersonation/logs, paged in SQL', () => {
  let expiredId: number;
  let liveId: number;

  beforeAll(async () => {
    // Two grants with some steps each; one expires at NOW, one later. Log rows are seeded in SQL.
    const grant = async (expires: Date) => {
      const r = await t.db.query<{ id: string }>(
        `INSERT INTO impersonation_requests (app_id, initiator_email, consent, priority, description, assignees,
           proxy_roles, duration_minutes, created_at, modified_at, status, expires_at)
         VALUES ($1, 'agent@example.com', 'granted', 'Low', 'log', '{boss@example.com}', '{Developer}', 60, $2, $2,
           'Approved', $3) RETURNING id::text`,
        [appId, new Date(NOW.getTime() - 3_600_000), expires],
      );
      return Number(r.rows[0]!.id);
    };
    expiredId = await grant(NOW);
    liveId = await grant(new Date(NOW.getTime() + 3_600_000));
    await t.db.query(
      `INSERT INTO impersonation_log (request_id, at, actor, event, status, details)
       SELECT CASE WHEN g % 4 = 0 THEN $1::bigint WHEN g % 4 = 1 THEN $2::bigint ELSE r.id END,
              $3::timestamptz + g * interval '1 second', 'agent@example.com',
              (ARRAY['request', 'approve', 'call', 'reject', 'revoke'])[1 + g % 5],
              (ARRAY['Pending', 'Approved', 'Approved', 'Rejected', 'Revoked', 'Deleted'])[1 + g % 6], '{}'
       FROM generate_series(1, 2500) g
       JOIN LATERAL (SELECT id FROM impersonation_requests ORDER BY id LIMIT 1 OFFSET g % 500) r ON true`,
      [expiredId, liveId, new Date(NOW.getTime() - 86_400_000)],
    );
    // the last step of the grant that expired says Approved: it reads Expired
    await t.db.query(
      `INSERT INTO impersonation_log (request_id, at, actor, event, status) VALUES ($1, $2, 'agent@example.com', 'call', 'Approved')`,
      [expiredId, new Date(NOW.getTime() - 60_000)],
    );
  });

  /** Every log entry, newest first, with its status by the rule logEntryOut applied to the 1,000 newest. */
  async function everyEntry(): Promise<LogWire[]> {
    const r = await t.db.query<{
      id: string;
      request_id: string;
      status: string;
      expired: boolean;
      latest: boolean;
    }>(
      `SELECT l.id::text, l.request_id::text, l.status,
         (r.status = 'Approved' AND r.expires_at IS NOT NULL AND r.expires_at <= $1) AS expired,
         l.id = (SELECT max(id) FROM impersonation_log x WHERE x.request_id = l.request_id) AS latest
       FROM impersonation_log l JOIN impersonation_requests r ON r.id = l.request_id JOIN sites s ON s.app_id = r.app_id
       ORDER BY l.id DESC`,
      [t.clock.now()],
    );
    return r.rows.map((x) => ({
      Id: Number(x.id),
      RequestId: Number(x.request_id),
      Status: x.latest && x.expired ? 'Expired' : x.status,
    }));
  }

  it('pages through every entry once, newest first', async () => {
    const expected = await everyEntry();
    expect(expected.length).toBeGreaterThan(1000);
    const { rows } = await allPages<LogWire>(boss, 'impersonationLogs', { limit: '200' });
    expect(rows.map((r) => [r.Id, r.Status])).toEqual(expected.map((r) => [r.Id, r.Status]));
  });

  it('filters by every status in SQL, Expired for the newest step of an expired grant only', async () => {
    const every = await everyEntry();
    for (const status of ['Pending', 'Approved', 'Expired', 'Rejected', 'Revoked', 'Deleted']) {
      const { rows } = await allPages<LogWire>(boss, 'impersonationLogs', { status, limit: '150' });
      const expected = every.filter((r) => r.Status === status);
      expect(expected.length, status).toBeGreaterThan(0);
      expect(ids(rows), status).toEqual(ids(expected));
    }
    const expired = await get<LogWire>(boss, 'impersonationLogs', { status: 'Expired' });
    expect(expired.Data.map((r) => r.RequestId)).toContain(expiredId);
    expect(expired.Data.map((r) => r.RequestId)).not.toContain(liveId);
  });

  it('keeps the newest step of each request as new steps are written', async () => {
    const before = await get<LogWire>(boss, 'impersonationLogs', { status: 'Expired' });
    await t.db.query(
      `INSERT INTO impersonation_log (request_id, at, actor, event, status) VALUES ($1, $2, 'x', 'call-refused', 'Approved')`,
      [expiredId, NOW],
    );
    const after = await get<LogWire>(boss, 'impersonationLogs', { status: 'Expired' });
    const newest = (await get<LogWire>(boss, 'impersonationLogs', { limit: '1' })).Data[0]!;
    expect(newest).toMatchObject({ RequestId: expiredId, Status: 'Expired' });
    expect(after.Data.find((r) => r.RequestId === expiredId)!.Id).toBe(newest.Id);
    expect(after.Data).toHaveLength(before.Data.length);
  });

  it('refuses a cursor it did not give and bounds the page size', async () => {
    const refused = async (query: Record<string, string>) => {
      const r = await t.callLoose('impersonationLogs', { session: boss, query });
      expect(r.status).toBe(400);
      return r.error.Description;
    };
    expect(await refused({ cursor: 'abc' })).toBe('cursor is not a cursor of this list.');
    const requestPage = await get<Wire>(boss, 'impersonationList', { limit: '1' });
    expect(await refused({ cursor: requestPage.NextCursor! })).toBe('cursor is not a cursor of this list.');
    expect(await refused({ limit: '1000' })).toBe('limit must be a whole number from 1 to 200.');
  });
});

describe('the display status in SQL', () => {
  it('is the contract’s displayStatus for every stored status and expiry, at any time: one status, the same', async () => {
    const now = new Date('2026-03-01T12:00:00.000Z');
    const expiries = [null, -60_000, -1, 0, 1, 60_000].map((d) =>
      d === null ? null : new Date(now.getTime() + d),
    );
    const shown = ['Pending', 'Approved', 'Expired', 'Rejected', 'Revoked'] as const;
    for (const status of ['Pending', 'Approved', 'Rejected', 'Revoked'] as const) {
      for (const expiresAt of expiries) {
        if (status === 'Approved' && expiresAt === null) continue; // refused by the table, below
        const r = await t.db.query<Record<string, boolean>>(
          `SELECT ${shown.map((s) => `${displayStatusIs('r', () => '$3::timestamptz', s)} AS "${s}"`).join(', ')}
           FROM (SELECT $1::text AS status, $2::timestamptz AS expires_at) r`,
          [status, expiresAt, now],
        );
        const js = displayStatus({ status, expiresAt: expiresAt?.getTime() ?? null }, now.getTime());
        const sql = shown.filter((s) => r.rows[0]![s]);
        expect(sql, `${status} ${expiresAt?.toISOString()}`).toEqual([js]);
      }
    }
  });

  it('holds no approval without its expiry', async () => {
    await expect(
      t.db.query("UPDATE impersonation_requests SET status = 'Approved', expires_at = NULL WHERE id = $1", [
        oldPendingId,
      ]),
    ).rejects.toThrow(/impersonation_requests_approval_expires/);
  });
});
