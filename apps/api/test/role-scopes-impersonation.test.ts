import { ERRORS } from '@sac/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDueNotices } from '../src/modules/notices/notices.service.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { CONSOLE_ORIGIN, createTestApp, type TestApp } from './harness.ts';
import { insertGrant, insertRequest } from './impersonation-fixtures.ts';

/*
 * Role scopes in the impersonation and notices modules (docs/decisions.md, "Role scopes in
 * impersonation and notices"): a staff member whose roles hold these permissions only over the
 * EU data center reaches the EU site's requests, log and owner, and never the US site's.
 */

type S = { xtoken: string; xsign: string };
let t: TestApp;
let boss: S;
/** impersonation.request, impersonation.logs.read, notices.send: EU only. */
let eu: S;
/** impersonation.request and impersonation.approve: EU only. */
let euApprover: S;
let euUid: string;
let euSite: number;
let usSite: number;
/** Requests made by `eu` on each site (so visibility alone would show both). */
let euRequest: number;
let usRequest: number;

async function addRole(name: string, permissions: string[], dataCenters: string[]) {
  await t.db.query('INSERT INTO roles (name, permissions, scope_data_centers) VALUES ($1, $2, $3)', [
    name,
    permissions,
    dataCenters,
  ]);
}

const outOfScope = (r: { status: number; error: { ErrorCode: number } }) => {
  expect(r.status).toBe(403);
  expect(r.error.ErrorCode).toBe(ERRORS.outOfScope.code);
};

beforeAll(async () => {
  t = await createTestApp();
  const euOwner = await insertCustomer(t.db, { first: 'Eva', last: 'Europe', email: 'eva@eu.example' });
  const usOwner = await insertCustomer(t.db, { first: 'Sam', last: 'States', email: 'sam@us.example' });
  euSite = (await insertSite(t.db, { owner: euOwner, name: 'eu-shop' })).appId;
  usSite = (await insertSite(t.db, { owner: usOwner, name: 'us-shop' })).appId;
  await t.db.query("UPDATE sites SET data_center = 'eu-central' WHERE app_id = $1", [euSite]);
  await t.db.query("UPDATE sites SET data_center = 'us-east' WHERE app_id = $1", [usSite]);
  await addRole(
    'Requests EU',
    ['impersonation.request', 'impersonation.logs.read', 'notices.send'],
    ['eu-central'],
  );
  await addRole('Approver EU', ['impersonation.request', 'impersonation.approve'], ['eu-central']);
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  euUid = await t.addStaff('eu@example.com', ['Requests EU']);
  await t.addStaff('eu.approver@example.com', ['Approver EU']);
  boss = await t.login('boss@example.com');
  eu = await t.login('eu@example.com');
  euApprover = await t.login('eu.approver@example.com');
  const mine = { initiator: 'eu@example.com', assignees: ['boss@example.com'] };
  euRequest = (await insertRequest(t.db, { ...mine, appId: euSite })).id;
  usRequest = (await insertRequest(t.db, { ...mine, appId: usSite })).id;
  // the log entries of each (the list reads them with their sites)
  for (const id of [euRequest, usRequest])
    await t.db.query(
      `INSERT INTO impersonation_log (request_id, at, actor, event, status, details)
       VALUES ($1, now(), 'eu@example.com', 'request', 'Pending', '{}')`,
      [id],
    );
});
afterAll(() => t.close());

describe('impersonation requests of a scoped requester', () => {
  it('opens a request only on a site in scope (nothing written outside)', async () => {
    const ask = (AppId: number) =>
      t.call('impersonationCreate', {
        session: eu,
        headers: { origin: CONSOLE_ORIGIN },
        body: {
          data: {
            AppId,
            Priority: 'High',
            Description: 'Checkout fails',
            ReasonCode: 'support-ticket',
            Assignees: ['boss@example.com'],
            ProxyRoles: ['Analyst'],
            AdditionalPermissions: [],
            Duration: 60,
          },
        },
      });
    const before = await t.db.query('SELECT id FROM impersonation_requests WHERE app_id = $1', [usSite]);
    outOfScope(await ask(usSite));
    const after = await t.db.query('SELECT id FROM impersonation_requests WHERE app_id = $1', [usSite]);
    expect(after.rows.length).toBe(before.rows.length);
    const inside = await ask(euSite);
    expect(inside.status, inside.raw.body).toBe(200);
    // tidy: the next tests count the EU site's requests
    await t.call('impersonationDelete', { session: eu, query: { requestId: String(inside.body.Data.Id) } });
  });

  it('lists, sorts and exports only the requests of sites in scope', async () => {
    for (const sort of [undefined, 'app', '-id', 'status'] as const) {
      const r = await t.call('impersonationList', { session: eu, query: sort ? { sort } : {} });
      expect(r.status, r.raw.body).toBe(200);
      expect(r.body.Data.map((x) => x.Id)).toEqual([euRequest]);
    }
    const all = await t.call('impersonationList', { session: boss });
    expect(all.body.Data.map((x) => x.Id).sort()).toEqual([euRequest, usRequest].sort());
    const file = await t.call('impersonationRequestsExport', { session: eu });
    expect(file.status).toBe(200);
    expect(file.headers['x-export-rows']).toBe('1');
    expect(file.raw.body).toContain('eu-shop');
    expect(file.raw.body).not.toContain('us-shop');
  });

  it("lists customers' own requests only of sites in scope", async () => {
    await t.db.query('UPDATE impersonation_requests SET is_customer_request = true WHERE id = ANY($1)', [
      [euRequest, usRequest],
    ]);
    try {
      const r = await t.call('customerRequestsList', { session: eu });
      expect(r.status, r.raw.body).toBe(200);
      expect(r.body.Data.map((x) => x.Id)).toEqual([euRequest]);
    } finally {
      await t.db.query('UPDATE impersonation_requests SET is_customer_request = false WHERE id = ANY($1)', [
        [euRequest, usRequest],
      ]);
    }
  });

  it('refuses to edit or delete a request of a site outside the scope, and changes nothing', async () => {
    const version = async () =>
      (
        await t.db.query<{ version: number; deleted_at: Date | null; description: string }>(
          'SELECT version, deleted_at, description FROM impersonation_requests WHERE id = $1',
          [usRequest],
        )
      ).rows[0]!;
    const before = await version();
    outOfScope(
      await t.call('impersonationEdit', {
        session: eu,
        query: { requestId: String(usRequest) },
        body: {
          AdditionalPermissions: [],
          Assignees: ['boss@example.com'],
          Description: 'changed',
          ReasonCode: 'support-ticket',
          Priority: 'Low',
          ProxyRoles: ['Developer'],
        },
      }),
    );
    outOfScope(await t.call('impersonationDelete', { session: eu, query: { requestId: String(usRequest) } }));
    expect(await version()).toEqual(before);
  });
});

describe('a scoped approver', () => {
  it('sees the requests of sites in their approval scope, and no other', async () => {
    const r = await t.call('impersonationList', { session: euApprover });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body.Data.map((x) => x.Id)).toEqual([euRequest]);
    const sorted = await t.call('impersonationList', { session: euApprover, query: { sort: 'app' } });
    expect(sorted.body.Data.map((x) => x.Id)).toEqual([euRequest]);
    const file = await t.call('impersonationRequestsExport', { session: euApprover });
    expect(file.headers['x-export-rows']).toBe('1');
  });

  it('acts only on the requests of sites in scope', async () => {
    const reject = (id: number) =>
      t.callLoose('impersonationAction', {
        session: euApprover,
        query: { requestId: String(id) },
        body: { Status: 'Reject', Comments: 'no' },
      });
    outOfScope(await reject(usRequest));
    const status = await t.db.query<{ status: string }>(
      'SELECT status FROM impersonation_requests WHERE id = $1',
      [usRequest],
    );
    expect(status.rows[0]!.status).toBe('Pending');
    const other = await insertRequest(t.db, {
      appId: euSite,
      initiator: 'eu@example.com',
      assignees: ['boss@example.com'],
      roles: ['Viewer'],
    });
    const r = await reject(other.id);
    expect(r.status, r.raw.body).toBe(200);
  });
});

describe("a scoped approver's dashboard", () => {
  it('counts and lists only the requests and live grants of sites in their approval scope', async () => {
    const now = t.clock.now();
    for (const appId of [euSite, usSite]) {
      await insertRequest(t.db, { appId, initiator: 'boss@example.com', assignees: [], consent: 'granted' });
      await insertGrant(t.db, {
        appId,
        initiatorUid: euUid,
        initiatorEmail: 'eu@example.com',
        roles: ['Viewer'],
        now,
      });
    }
    const board = async (session: S) => {
      const r = await t.call('dashboard', { session });
      expect(r.status, r.raw.body).toBe(200);
      const imp = r.body.Impersonation!;
      return {
        awaiting: imp.AwaitingMyDecision!.Items.map((i) => i.AppName),
        grants: imp.LiveGrants.Items.map((g) => g.AppName),
        counts: [imp.AwaitingMyDecision!.Count, imp.LiveGrants.Count],
      };
    };
    // the SuperAdmin sees both sites, so the scoped approver's view is a real filter
    const all = await board(boss);
    expect(new Set(all.grants)).toEqual(new Set(['eu-shop', 'us-shop']));
    const mine = await board(euApprover);
    expect(mine.awaiting).not.toContain('us-shop');
    expect(mine.grants).toEqual(['eu-shop']);
    expect(mine.counts[1]).toBe(1);
    expect(mine.awaiting).toContain('eu-shop');
    expect(mine.counts[0]).toBe(mine.awaiting.length);
  });
});

describe('the impersonation log of a scoped reader', () => {
  it('reads and exports only the entries of sites in scope', async () => {
    for (const sort of [undefined, 'app', '-modified'] as const) {
      const r = await t.call('impersonationLogs', { session: eu, query: sort ? { sort } : {} });
      expect(r.status, r.raw.body).toBe(200);
      expect(r.body.Data.length).toBeGreaterThan(0);
      expect(new Set(r.body.Data.map((x) => x.AppName))).toEqual(new Set(['eu-shop']));
    }
    const file = await t.call('impersonationLogsExport', { session: eu });
    expect(file.status).toBe(200);
    expect(file.raw.body).toContain('eu-shop');
    expect(file.raw.body).not.toContain('us-shop');
    const rows = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM impersonation_log l JOIN sites s ON s.app_id = l.app_id
       WHERE s.data_center = 'eu-central'`,
    );
    expect(file.headers['x-export-rows']).toBe(String(rows.rows[0]!.n));
  });
});

describe('switching into a site', () => {
  it('opens a session only on a site in scope, even with a grant', async () => {
    const now = t.clock.now();
    const grant = { initiatorUid: euUid, initiatorEmail: 'eu@example.com', roles: ['Editor'], now };
    await insertGrant(t.db, { ...grant, appId: usSite });
    await insertGrant(t.db, { ...grant, appId: euSite });
    outOfScope(await t.call('switchApp', { session: eu, query: { appid: String(usSite) } }));
    const inside = await t.call('switchApp', { session: eu, query: { appid: String(euSite) } });
    expect(inside.status, inside.raw.body).toBe(200);
  });
});

describe('notices of a scoped sender', () => {
  const notice = (over: Record<string, unknown> = {}) => ({
    Kind: 'maintenance',
    Subject: 'Database upgrade',
    Text: 'We upgrade the databases on Sunday.',
    Audience: { Type: 'all' },
    SendAt: null,
    ...over,
  });

  it('offers only the data centers and sites in scope', async () => {
    const options = await t.call('noticeAudienceOptions', { session: eu });
    expect(options.body.DataCenters.map((d) => d.Code)).toEqual(['eu-central']);
    expect(
      (await t.call('noticeAudienceOptions', { session: boss })).body.DataCenters.length,
    ).toBeGreaterThan(1);
    const sites = await t.call('noticeSiteOptions', { session: eu, query: { term: 'shop' } });
    expect(sites.body.Data.map((s) => s.AppName)).toEqual(['eu-shop']);
    const byOwner = await t.call('noticeSiteOptions', { session: eu, query: { term: 'States' } });
    expect(byOwner.body.Data).toEqual([]);
  });

  it('reaches only the owners of sites in scope, counted and sent', async () => {
    const count = async (s: S, Audience: unknown) =>
      (await t.callLoose('noticeRecipients', { session: s, body: { Audience } })).body.Count;
    expect(await count(boss, { Type: 'all' })).toBe(2);
    expect(await count(eu, { Type: 'all' })).toBe(1);
    expect(await count(eu, { Type: 'sites', AppIds: [usSite] })).toBe(0);
    expect(await count(eu, { Type: 'data-center', DataCenters: ['us-east'] })).toBe(0);
    const r = await t.callLoose('noticeCreate', { session: eu, body: notice() });
    expect(r.status, r.raw.body).toBe(200);
    const id = (r.body as { Data: { Id: number } }).Data.Id;
    const none = await t.callLoose('noticeCreate', {
      session: eu,
      body: notice({ Audience: { Type: 'sites', AppIds: [usSite] } }),
    });
    expect(none.error.ErrorCode).toBe(ERRORS.noticeAudienceEmpty.code);
    await t.ctx.mailer.flush();
    await sendDueNotices(t.ctx);
    const d = await t.call('noticeDeliveries', { session: eu, query: { id } });
    expect(d.status, d.raw.body).toBe(200);
    expect(d.body.Data.map((x) => x.Email)).toEqual(['eva@eu.example']);
  });

  it('reads, and cancels, only the notices they sent while scoped', async () => {
    const later = new Date(t.clock.now().getTime() + 86_400_000).toISOString();
    const r = await t.callLoose('noticeCreate', { session: boss, body: notice({ SendAt: later }) });
    expect(r.status, r.raw.body).toBe(200);
    const theirs = (r.body as { Data: { Id: number } }).Data.Id;
    const list = await t.call('noticeList', { session: eu });
    expect(list.status).toBe(200);
    expect(list.body.Data.length).toBeGreaterThan(0);
    expect(list.body.Data.map((n) => n.Id)).not.toContain(theirs);
    expect(list.body.Data.every((n) => n.CreatedBy === 'eu@example.com')).toBe(true);
    outOfScope(await t.call('noticeOne', { session: eu, query: { id: theirs } }));
    outOfScope(await t.call('noticeDeliveries', { session: eu, query: { id: theirs } }));
    outOfScope(await t.call('noticeCancel', { session: eu, body: { Id: theirs } }));
    const one = await t.call('noticeOne', { session: boss, query: { id: theirs } });
    expect(one.body.Data.Status).toBe('scheduled');
    expect((await t.call('noticeList', { session: boss })).body.Data.map((n) => n.Id)).toContain(theirs);
  });

  it("fails a due notice whose sender's scope changed, or who may no longer send, since it was written", async () => {
    const later = () => new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const write = async () => {
      const r = await t.callLoose('noticeCreate', { session: eu, body: notice({ SendAt: later() }) });
      expect(r.status, r.raw.body).toBe(200);
      return (r.body as { Data: { Id: number } }).Data.Id;
    };
    const widened = await write();
    const another = await write();
    const status = async (id: number) =>
      (await t.call('noticeOne', { session: boss, query: { id } })).body.Data;
    // the sender's role now reaches the US too: the notice was bounded by the EU alone
    await t.db.query(
      `UPDATE roles SET scope_data_centers = '{eu-central,us-east}' WHERE name = 'Requests EU'`,
    );
    t.clock.advance(2 * 3_600_000);
    boss = await t.login('boss@example.com');
    await sendDueNotices(t.ctx);
    for (const id of [widened, another])
      expect(await status(id)).toMatchObject({
        Status: 'failed',
        FailureReason: "The sender's role scope changed after the notice was written: write it again.",
      });
    // back as it was: a notice written now goes, unless the sender loses the role before it is due
    await t.db.query(`UPDATE roles SET scope_data_centers = '{eu-central}' WHERE name = 'Requests EU'`);
    eu = await t.login('eu@example.com');
    const kept = await write();
    const lost = await write();
    await t.db.query('UPDATE customer_notices SET send_at = $2 WHERE id = $1', [
      kept,
      new Date(t.clock.now().getTime() - 1000),
    ]);
    await sendDueNotices(t.ctx);
    expect((await status(kept)).Status).not.toBe('failed');
    await t.db.query("DELETE FROM staff_roles WHERE uid = $1 AND role = 'Requests EU'", [euUid]);
    await t.db.query('UPDATE customer_notices SET send_at = $2 WHERE id = $1', [
      lost,
      new Date(t.clock.now().getTime() - 1000),
    ]);
    await sendDueNotices(t.ctx);
    expect(await status(lost)).toMatchObject({
      Status: 'failed',
      FailureReason: 'The sender may no longer send notices.',
    });
  });
});
