import { randomUUID } from 'node:crypto';
import { AUDIT_PAGE_SIZE, type AuditEvent, type AuditTrailRow } from '@sac/contract/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { insertGrant } from '../../../test/impersonation-fixtures.ts';
import { exportLimiter } from '../../lib/export-limiter.ts';
import { CSV_SEAL_MARK, verifyExport } from './audit-file.ts';

type S = { xtoken: string; xsign: string };
let t: TestApp;
let boss: S;
let auditor: S;
let bossUid: string;
let customer: { uid: string; appId: number };
let publicKey: string;

beforeAll(async () => {
  t = await createTestApp();
  bossUid = await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('ada@example.com', ['Admin']);
  await t.addStaff('audrey@example.com', ['Auditor']);
  boss = await t.login('boss@example.com', undefined, '203.0.113.7');
  auditor = await t.login('audrey@example.com');
  const uid = await insertCustomer(t.db, {
    first: 'Trail',
    last: 'Customer',
    email: 'trail@customer.example',
  });
  customer = { uid, appId: (await insertSite(t.db, { owner: uid, name: 'trail-site' })).appId };
  const key = await t.call('auditSigningKey', { session: auditor });
  expect(key.status, key.raw.body).toBe(200);
  publicKey = key.body.Data.PublicKey;
});
afterAll(() => t.close());

const events = async (query: Record<string, string>, session: S = auditor) => {
  const r = await t.call('auditEvents', { session, query });
  expect(r.status, r.raw.body).toBe(200);
  return r.body as { Data: AuditEvent[]; NextCursor: string | null };
};
const refused = async (query: Record<string, string>) => {
  const r = await t.callLoose('auditEvents', { session: auditor, query });
  expect(r.status).toBe(400);
  return r.error.Message;
};
async function* linesOf(text: string) {
  for (const line of text.split('\n')) yield line;
}
const exportOf = async (query: Record<string, string>) => {
  const r = await t.callLoose('auditExport', { session: auditor, query });
  expect(r.status, r.raw.body).toBe(200);
  return r;
};

describe('the staff audit trail', () => {
  it('holds sign-ins and failures with actor, client address and request id', async () => {
    const failed = await t.call('login', {
      body: { email: 'boss@example.com', password: 'Wrong#1234' },
      remoteAddress: '198.51.100.4',
    });
    expect(failed.status).toBe(401);
    const page = await events({ actor: 'BOSS@example.com', action: 'login.failed' });
    const row = page.Data.find((e) => e.RequestId === failed.headers['x-request-id']);
    expect(row).toMatchObject({
      ActorUid: bossUid,
      ActorEmail: 'boss@example.com',
      Action: 'login.failed',
      ClientAddress: '198.51.100.4',
      Details: { reason: 'wrong-password' },
    });
    const success = await events({ actor: 'boss@example.com', action: 'login.success' });
    expect(success.Data[0]).toMatchObject({ ClientAddress: '203.0.113.7', ActorUid: bossUid });
  });

  it('holds every write with its target, and names the impersonation request a write went through', async () => {
    const created = await t.call('teamCreate', {
      session: boss,
      body: { email: 'newbie@example.com', name: 'Newbie', role: ['Support'] },
    });
    expect(created.status, created.raw.body).toBe(200);
    const team = await events({ action: 'team.create' });
    expect(team.Data[0]).toMatchObject({
      ActorEmail: 'boss@example.com',
      TargetType: 'staff',
      RequestId: created.headers['x-request-id'],
    });

    const adaUid = (
      await t.db.query<{ uid: string }>("SELECT uid FROM staff WHERE email = 'ada@example.com'")
    ).rows[0]!.uid;
    const grantId = await insertGrant(t.db, {
      appId: customer.appId,
      initiatorUid: adaUid,
      initiatorEmail: 'ada@example.com',
      roles: ['Developer'],
      now: t.clock.now(),
    });
    const ada = await t.login('ada@example.com');
    const sw = await t.call('switchApp', { session: ada, query: { appid: String(customer.appId) } });
    expect(sw.status, sw.raw.body).toBe(200);
    const imp = sw.body;
    const saved = await t.call('updateAppSettings', {
      session: imp,
      query: { uid: customer.uid, appId: String(customer.appId) },
      body: { data: { ProductionUrl: 'https://trail.example' } },
    });
    expect(saved.status, saved.raw.body).toBe(200);
    const onSite = await events({ appId: String(customer.appId) });
    const started = onSite.Data.find((e) => e.Action === 'impersonation.session-start');
    expect(started).toMatchObject({
      ActorEmail: 'ada@example.com',
      ImpersonationRequestId: grantId,
      CustomerUid: customer.uid,
      RequestId: sw.headers['x-request-id'],
    });
    const write = onSite.Data.find(
      (e) => e.RequestId === saved.headers['x-request-id'] && e.Action === 'site.appsettings',
    );
    expect(write).toMatchObject({
      ImpersonationRequestId: grantId,
      CustomerUid: customer.uid,
      ActorEmail: 'ada@example.com',
    });
    const byCustomer = await events({ customer: customer.uid });
    expect(byCustomer.Data.length).toBeGreaterThan(0);
    for (const e of byCustomer.Data) expect(e.CustomerUid).toBe(customer.uid);
  });

  it('filters by time range and free text, and refuses filters it cannot run cheaply', async () => {
    const at = t.clock.now();
    await t.call('login', {
      body: { email: 'zed-unknown@example.com', password: 'x' },
    });
    const found = await events({ q: 'zed-unk' });
    expect(found.Data.map((e) => e.ActorEmail)).toEqual(['zed-unknown@example.com']);
    expect((await events({ q: '%_%' })).Data).toEqual([]);
    const inRange = await events({
      from: new Date(at.getTime() - 1000).toISOString(),
      to: new Date(at.getTime() + 1000).toISOString(),
    });
    expect(inRange.Data.length).toBeGreaterThan(0);
    for (const e of inRange.Data) expect(Math.abs(Date.parse(e.At) - at.getTime())).toBeLessThanOrEqual(1000);
    const before = await events({ to: new Date(at.getTime() - 86_400_000).toISOString() });
    expect(before.Data).toEqual([]);

    expect(await refused({ q: 'ze' })).toBe('Type at least 3 characters to search the trail.');
    expect(await refused({ q: 'x'.repeat(101) })).toBe('Search for at most 100 characters.');
    expect(await refused({ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' })).toBe(
      'The start of the date range must not be after its end.',
    );
    expect(await refused({ from: 'yesterday' })).toBe('from must be a date and time (ISO 8601).');
    expect(await refused({ action: 'drop.table' })).toBe('action is not an action of the trail.');
    expect(await refused({ cursor: Buffer.from('x|1').toString('base64url') })).toBe(
      'cursor is not a cursor of this list.',
    );
  });

  it('pages by key through rows that share a time, without gaps or repeats', async () => {
    const at = new Date('2020-01-01T00:00:00Z');
    await t.db.query(
      `INSERT INTO activity_log (at, action, actor_email, details)
       SELECT $1, 'team.roles', 'pager@example.com', jsonb_build_object('n', n) FROM generate_series(1, 130) n`,
      [at],
    );
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await events({ actor: 'pager@example.com', ...(cursor ? { cursor } : {}) });
      expect(page.Data.length).toBeLessThanOrEqual(AUDIT_PAGE_SIZE);
      seen.push(...page.Data.map((e) => e.Details.n as number));
      cursor = page.NextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 130 }, (_, i) => 130 - i));
  });

  it('writes each time as an ISO instant in UTC, its microseconds cut to milliseconds', async () => {
    await t.db.query(
      `INSERT INTO activity_log (at, action, actor_email, details) VALUES
         ('2021-06-30 23:59:59.999999-02', 'team.roles', 'clock@example.com', '{}'),
         ('2021-01-02 03:04:05.0005+00', 'team.roles', 'clock@example.com', '{}')`,
    );
    const page = await events({ actor: 'clock@example.com' });
    expect(page.Data.map((e) => e.At)).toEqual(['2021-07-01T01:59:59.999Z', '2021-01-02T03:04:05.000Z']);
  });

  it('cannot be changed or emptied, by the application or any statement', async () => {
    for (const sql of [
      "UPDATE activity_log SET action = 'logout'",
      'DELETE FROM activity_log',
      'TRUNCATE activity_log',
      "UPDATE impersonation_log SET event = 'x'",
      'DELETE FROM impersonation_log',
      'TRUNCATE impersonation_log',
    ]) {
      await expect(t.db.query(sql), sql).rejects.toThrow(/append-only/);
    }
  });

  it('lets SuperAdmins and Auditors read it, and no one else', async () => {
    expect((await events({}, boss)).Data.length).toBeGreaterThan(0);
    const ada = await t.login('ada@example.com');
    const r = await t.call('auditEvents', { session: ada });
    expect(r.status).toBe(403);
  });
});

describe('the trail as the screen reads it', () => {
  type Row = AuditTrailRow;
  const walk = async (query: Record<string, string>) => {
    const seen: Row[] = [];
    let cursor: string | null = null;
    do {
      const page = (await events({ ...query, ...(cursor ? { cursor } : {}) })) as unknown as {
        Data: Row[];
        NextCursor: string | null;
      };
      seen.push(...page.Data);
      cursor = page.NextCursor;
    } while (cursor);
    return seen;
  };

  it('names the customer, site and staff member of each row, and keeps a deleted one readable', async () => {
    const made = await t.call('teamCreate', {
      session: boss,
      body: { email: 'shortlived@example.com', name: 'Short Lived', role: ['Support'] },
    });
    expect(made.status, made.raw.body).toBe(200);
    const uid = (
      await t.db.query<{ uid: string }>("SELECT uid FROM staff WHERE email = 'shortlived@example.com'")
    ).rows[0]!.uid;
    const named = (await walk({ action: 'team.create' })).find((e) => e.TargetId === uid);
    expect(named).toMatchObject({ StaffName: 'Short Lived', TargetGone: false, Result: 'done' });
    const gone = await t.call('teamDelete', { session: boss, body: { uid } });
    expect(gone.status, gone.raw.body).toBe(200);
    const after = (await walk({ action: 'team.create' })).find((e) => e.TargetId === uid);
    // The staff row is gone: the name is the address the event recorded.
    expect(after).toMatchObject({ StaffName: 'shortlived@example.com', TargetGone: true });
    const onSite = (await walk({ appId: String(customer.appId) }))[0];
    expect(onSite).toMatchObject({ CustomerName: 'Trail Customer', SiteName: 'trail-site' });
  });

  it('filters by result: failed steps, refused calls and the rest', async () => {
    const wrong = await t.call('login', { body: { email: 'audrey@example.com', password: 'Wrong#1234' } });
    expect(wrong.status).toBe(401);
    const ada = await t.login('ada@example.com');
    expect((await t.call('auditEvents', { session: ada })).status).toBe(403);
    const failed = await walk({ result: 'failed' });
    const refusedRows = await walk({ result: 'refused' });
    const done = await walk({ result: 'done', actor: 'boss@example.com' });
    expect(failed.some((e) => e.Action === 'login.failed' && e.ActorEmail === 'audrey@example.com')).toBe(
      true,
    );
    expect(new Set(failed.map((e) => e.Result))).toEqual(new Set(['failed']));
    expect(refusedRows.some((e) => e.Action === 'access.refused')).toBe(true);
    expect(new Set(refusedRows.map((e) => e.Result))).toEqual(new Set(['refused']));
    expect(done.length).toBeGreaterThan(0);
    expect(new Set(done.map((e) => e.Result))).toEqual(new Set(['done']));
    expect(await refused({ result: 'maybe' })).toBe('result must be done, refused or failed.');
  });

  it('sorts by actor and by action, A to Z newest first within, backwards under -, paging without gaps or repeats', async () => {
    // Rows sharing a time and an actor, and rows without an actor, so ties and nulls are walked;
    // one actor's address is as long as an address may be (its cursors carry it).
    await t.db.query(
      `INSERT INTO activity_log (at, action, actor_email, details)
       SELECT '2019-05-05T00:00:00Z', (ARRAY['logout','team.roles','mfa.failed'])[1 + n % 3],
              CASE WHEN n % 4 = 0 THEN NULL
                   WHEN n % 3 = 2 THEN 'sorter2' || repeat('x', 230) || '@example.com'
                   ELSE 'Sorter' || (n % 3) || '@example.com' END,
              jsonb_build_object('n', n)
         FROM generate_series(1, 140) n`,
    );
    const all = await walk({});
    const ids = (list: Row[]) => list.map((e) => e.Id);
    const byTimeDesc = (a: Row, b: Row) => b.At.localeCompare(a.At) || Number(BigInt(b.Id) - BigInt(a.Id));
    const keyed = (key: (e: Row) => string | null) => (a: Row, b: Row) => {
      const ka = key(a);
      const kb = key(b);
      if (ka !== kb) {
        if (ka === null) return 1;
        if (kb === null) return -1;
        return ka < kb ? -1 : 1;
      }
      return byTimeDesc(a, b);
    };
    const actorKey = (e: Row) => e.ActorEmail?.toLowerCase() ?? null;
    for (const [sort, key] of [
      ['actor', actorKey],
      ['action', (e: Row) => e.Action],
    ] as const) {
      const expected = [...all].sort(keyed(key));
      const asc = await walk({ sort });
      expect(ids(asc), sort).toEqual(ids(expected));
      const desc = await walk({ sort: `-${sort}` });
      expect(ids(desc), `-${sort}`).toEqual(ids(expected).reverse());
    }
    const first = await events({ sort: 'actor' });
    expect(await refused({ sort: 'action', cursor: first.NextCursor! })).toBe(
      'cursor is not a cursor of this list.',
    );
  });
});

describe('the export', () => {
  it('pages oldest first under sort=time, newest first under -time, and refuses a cursor of the other order', async () => {
    const walk = async (sort: string) => {
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page = await events({ actor: 'pager@example.com', sort, ...(cursor ? { cursor } : {}) });
        seen.push(...page.Data.map((e) => e.Details.n as number));
        cursor = page.NextCursor;
      } while (cursor);
      return seen;
    };
    const oldest = Array.from({ length: 130 }, (_, i) => i + 1);
    expect(await walk('time')).toEqual(oldest);
    expect(await walk('-time')).toEqual([...oldest].reverse());
    const newestCursor = (await events({ actor: 'pager@example.com' })).NextCursor!;
    const oldestCursor = (await events({ actor: 'pager@example.com', sort: 'time' })).NextCursor!;
    expect(await refused({ cursor: newestCursor, sort: 'time' })).toBe(
      'cursor is not a cursor of this list.',
    );
    expect(await refused({ cursor: oldestCursor })).toBe('cursor is not a cursor of this list.');
    expect(await refused({ cursor: oldestCursor, sort: '-time' })).toBe(
      'cursor is not a cursor of this list.',
    );
    // The list sorts by actor too; an export keeps to time order (its chain runs in file order).
    expect(await refused({ sort: 'who' })).toBe(
      'sort must be one of time, -time, actor, -actor, action, -action.',
    );
    const exportByActor = await t.callLoose('auditExport', {
      session: auditor,
      query: { format: 'csv', sort: 'actor' },
    });
    expect(exportByActor.status).toBe(400);
    expect(exportByActor.error.Message).toBe('sort must be one of time, -time.');
  });

  it('exports newest first under sort=-time, chained in file order, naming the order in its signed seal', async () => {
    const r = await exportOf({ format: 'jsonl', actor: 'pager@example.com', sort: '-time' });
    expect(r.headers['x-export-rows']).toBe('130');
    const lines = r.raw.body.trimEnd().split('\n');
    expect(lines.slice(1, -1).map((l) => JSON.parse(l).Details.n)).toEqual(
      Array.from({ length: 130 }, (_, i) => 130 - i),
    );
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({
      Type: 'seal',
      Filters: { actor: 'pager@example.com', sort: '-time' },
    });
    expect(await verifyExport('jsonl', linesOf(r.raw.body), publicKey)).toMatchObject({
      ok: true,
      rows: 130,
    });
    // swapping two rows breaks the chain as in the default order
    const swapped = [lines[0], lines[2], lines[1], ...lines.slice(3)].join('\n');
    expect(await verifyExport('jsonl', linesOf(swapped), publicKey)).toMatchObject({ ok: false });
    const csv = await exportOf({ format: 'csv', actor: 'pager@example.com', sort: 'time' });
    expect(await verifyExport('csv', linesOf(csv.raw.body), publicKey)).toMatchObject({
      ok: true,
      rows: 130,
    });
  });

  it('streams the filtered trail as JSON lines, oldest first, that verify with the public key, and records itself', async () => {
    const r = await exportOf({ format: 'jsonl', actor: 'pager@example.com' });
    expect(r.headers['content-type']).toContain('application/x-ndjson');
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="audit-trail-.+\.jsonl"$/);
    expect(r.headers['x-export-rows']).toBe('130');
    const lines = r.raw.body.trimEnd().split('\n');
    expect(lines).toHaveLength(132);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      Type: 'header',
      Rows: 130,
      Filters: { actor: 'pager@example.com' },
    });
    expect(JSON.parse(lines[1]!).Details).toEqual({ n: 1 });
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ Type: 'seal', Rows: 130, Algorithm: 'Ed25519' });
    expect(await verifyExport('jsonl', linesOf(r.raw.body), publicKey)).toMatchObject({
      ok: true,
      rows: 130,
    });

    const recorded = await events({ action: 'audit.export' });
    expect(recorded.Data[0]).toMatchObject({
      ActorEmail: 'audrey@example.com',
      Details: { format: 'jsonl', rows: 130, filters: { actor: 'pager@example.com' } },
    });
  });

  it('detects a changed, removed or reordered row, a cut file and a re-signed seal', async () => {
    const body = (await exportOf({ format: 'jsonl', actor: 'pager@example.com' })).raw.body;
    const lines = body.trimEnd().split('\n');
    const verdict = (ls: string[], key = publicKey) => verifyExport('jsonl', linesOf(ls.join('\n')), key);

    const changed = [...lines];
    changed[5] = changed[5]!.replace('"n":5', '"n":55');
    expect(await verdict(changed)).toMatchObject({ ok: false, reason: 'row 5 does not match its chain' });
    expect(await verdict(lines.filter((_, i) => i !== 7))).toMatchObject({ ok: false });
    const swapped = [...lines];
    [swapped[3], swapped[4]] = [swapped[4]!, swapped[3]!];
    expect(await verdict(swapped)).toMatchObject({ ok: false });
    expect(await verdict(lines.slice(0, -1))).toMatchObject({
      ok: false,
      reason: 'the file has no seal (it was cut short)',
    });
    expect(await verdict(lines.slice(0, -2).concat(lines.at(-1)!))).toMatchObject({ ok: false });

    const { generateKeyPairSync } = await import('node:crypto');
    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString();
    expect(await verdict(lines, other)).toMatchObject({
      ok: false,
      reason: 'the signature does not verify with this key',
    });
  });

  it('writes CSV that a spreadsheet opens without running formulas, and that verifies', async () => {
    const sneaky = `=HYPERLINK("https://evil.example","x,y")`;
    await t.db.query(
      `INSERT INTO activity_log (at, action, actor_email, target_id, details)
       VALUES ($1, 'login.failed', $2, $3, '{"note":"a \\"quoted\\", line"}'), ($1, 'login.failed', $4, '', '{}')`,
      [t.clock.now(), sneaky, "'quoted", `csv-${randomUUID()}@example.com`],
    );
    const r = await exportOf({ format: 'csv', action: 'login.failed' });
    expect(r.headers['content-type']).toContain('text/csv');
    const lines = r.raw.body.split('\r\n');
    expect(lines[0]).toBe(
      'Id,At,ActorUid,ActorEmail,Action,TargetType,TargetId,CustomerUid,AppId,ClientAddress,RequestId,ImpersonationRequestId,Details,Chain',
    );
    expect(r.raw.body).toContain(`"'=HYPERLINK(""https://evil.example"",""x,y"")"`);
    expect(r.raw.body).toContain(`,''quoted,`);
    expect(lines.at(-2)!.startsWith(`${CSV_SEAL_MARK},sac-audit-v1,${r.headers['x-export-rows']},`)).toBe(
      true,
    );
    expect(await verifyExport('csv', linesOf(r.raw.body), publicKey)).toMatchObject({ ok: true });
    const tampered = r.raw.body.replace(`''quoted`, `'quoted`);
    expect(await verifyExport('csv', linesOf(tampered), publicKey)).toMatchObject({ ok: false });
  });

  it('lets two exports run at once per instance and turns a third away until one ends', () => {
    const limiter = exportLimiter(2);
    const first = limiter.take();
    limiter.take();
    expect(() => limiter.take()).toThrow(/Two exports of the audit trail are already running/);
    first();
    first();
    const third = limiter.take();
    expect(() => limiter.take()).toThrow();
    third();
  });
});
