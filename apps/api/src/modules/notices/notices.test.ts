import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { databaseLeases } from '../../lib/leases.ts';
import { MAIL_MAX_ATTEMPTS } from '../../mail/outbox.ts';
import { startJobs } from '../../ops/jobs.ts';
import { periodicJobs } from '../../ops/periodic.ts';
import { sendDueNotices } from './notices.service.ts';
import { unsubscribeToken } from './unsubscribe-token.ts';

type S = { xtoken: string; xsign: string };
let t: TestApp;
let boss: S;
let ada: S;
let sam: S;
let audrey: S;
/** Refusals of the SMTP listener: an address answered with 550 while it is listed here. */
const refusing = new Map<string, number>();
const sites: Record<string, number> = {};

async function owner(name: string, plan: string, dataCenter: string, status = 'Active'): Promise<number> {
  const uid = await insertCustomer(t.db, { first: name, last: 'Owner', email: `${name}@owners.example` });
  await t.db.query('UPDATE customers SET status = $2 WHERE uid = $1', [uid, status]);
  const { appId } = await insertSite(t.db, { owner: uid, name: `${name}-site` });
  await t.db.query('UPDATE sites SET plan = $2, data_center = $3 WHERE app_id = $1', [
    appId,
    plan,
    dataCenter,
  ]);
  sites[name] = appId;
  return appId;
}

beforeAll(async () => {
  t = await createTestApp(
    { noticeBatchSize: 2, noticeMaxRecipients: 8 },
    {
      refuse(address) {
        const left = refusing.get(address);
        if (left === undefined || left === 0) return undefined;
        refusing.set(address, left - 1);
        return 'Mailbox unavailable';
      },
    },
  );
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('ada@example.com', ['Admin']);
  await t.addStaff('sam@example.com', ['Support']);
  await t.addStaff('audrey@example.com', ['Auditor']);
  await signIn();
  await owner('ann', 'Free', 'us-east');
  await owner('bob', 'Developer Premium', 'eu-central');
  await owner('cat', 'Developer Premium', 'eu-west');
  // dan owns two sites of the plan: one mail.
  await owner('dan', 'Developer Premium', 'us-east');
  const dan = (
    await t.db.query<{ owner_uid: string }>('SELECT owner_uid FROM sites WHERE app_id = $1', [sites.dan])
  ).rows[0]!.owner_uid;
  const second = await insertSite(t.db, { owner: dan, name: 'dan-second-site' });
  await t.db.query(`UPDATE sites SET plan = 'Developer Premium' WHERE app_id = $1`, [second.appId]);
  // A deleted customer gets nothing.
  await owner('eve', 'Developer Premium', 'us-east', 'Deleted');
});
afterAll(() => t.close());

async function signIn() {
  boss = await t.login('boss@example.com');
  ada = await t.login('ada@example.com');
  sam = await t.login('sam@example.com');
  audrey = await t.login('audrey@example.com');
}
/** Moves the clock on, and signs everyone in again (sessions end when idle). */
async function advance(ms: number) {
  t.clock.advance(ms);
  await signIn();
}

const premium = { Type: 'plan', Plans: ['Developer Premium'] };
const notice = (over: Record<string, unknown> = {}) => ({
  Kind: 'maintenance',
  Subject: 'Database upgrade',
  Text: 'We upgrade the databases on Sunday.',
  Audience: premium,
  SendAt: null,
  ...over,
});
const create = (session: S, body: Record<string, unknown>) => t.callLoose('noticeCreate', { session, body });
const count = (session: S, Audience: unknown) =>
  t.callLoose('noticeRecipients', { session, body: { Audience } });
const one = async (id: number) => (await t.call('noticeOne', { query: { id }, session: boss })).body.Data;
const deliveries = async (id: number, status = '') =>
  (await t.callLoose('noticeDeliveries', { query: { id, ...(status ? { status } : {}) }, session: boss }))
    .body.Data as Array<{ Email: string; Status: string; Attempts: number; Reason: string | null }>;
const mailsTo = (subject: string) =>
  t.smtp.messages
    .filter((m) => m.subject.includes(subject))
    .flatMap((m) => m.to)
    .sort();
/** Runs the sending job and lets the outbox finish what it queued. */
async function runJob() {
  await t.ctx.mailer.flush();
  await sendDueNotices(t.ctx);
  await t.ctx.mailer.flush();
  await sendDueNotices(t.ctx);
}

describe('permissions', () => {
  it('lets SuperAdmin and Admin use notices, not Support or the Auditor', async () => {
    for (const s of [boss, ada]) expect((await t.call('noticeList', { session: s })).status).toBe(200);
    for (const s of [sam, audrey]) {
      expect((await t.call('noticeList', { session: s })).status).toBe(403);
      expect((await create(s, notice())).status).toBe(403);
      expect((await count(s, { Type: 'all' })).status).toBe(403);
    }
  });
});

describe('audience', () => {
  it('counts distinct owner addresses of live customers, by plan, data center, sites or all', async () => {
    const n = async (a: unknown) => {
      const r = await count(boss, a);
      expect(r.status, r.raw.body).toBe(200);
      return r.body.Count;
    };
    expect(await n(premium)).toBe(3); // bob, cat, dan (two sites), not eve (deleted)
    expect(await n({ Type: 'plan', Plans: ['Free'] })).toBe(1);
    expect(await n({ Type: 'data-center', DataCenters: ['us-east'] })).toBe(2); // ann, dan
    expect(await n({ Type: 'sites', AppIds: [sites.ann, sites.bob, sites.eve] })).toBe(2);
    expect(await n({ Type: 'all' })).toBe(4);
  });

  it('finds sites to choose by site name or by owner name, bounded, with whose they are', async () => {
    const find = async (term: string) => {
      const r = await t.call('noticeSiteOptions', { session: ada, query: { term } });
      expect(r.status, r.raw.body).toBe(200);
      return r.body.Data as { AppId: number; AppName: string; OwnerName: string; OwnerEmail: string }[];
    };
    // by site name: a prefix under three letters, anywhere in the name from three
    expect((await find('bo')).map((s) => s.AppName)).toEqual(['bob-site']);
    expect((await find('second')).map((s) => s.AppName)).toEqual(['dan-second-site']);
    // by the owner's name: every site of theirs, each once even when its name matches too
    const dan = await find('dan');
    expect(dan.map((s) => s.AppName).sort()).toEqual(['dan-second-site', 'dan-site']);
    expect(dan[0]).toMatchObject({ OwnerName: 'dan Owner', OwnerEmail: 'dan@owners.example' });
    expect(dan.find((s) => s.AppName === 'dan-site')?.AppId).toBe(sites.dan);
    expect(await find('nobody-like-this')).toEqual([]);
    // an empty term is a clear 400; Support may not look
    const empty = await t.callLoose('noticeSiteOptions', { session: ada, query: { term: ' ' } });
    expect([empty.status, empty.error.Description]).toEqual([400, 'Type a customer or site name.']);
    expect((await t.call('noticeSiteOptions', { session: sam, query: { term: 'dan' } })).status).toBe(403);
  });

  it('refuses unbounded or malformed audiences and texts', async () => {
    const many = Array.from({ length: 201 }, (_, i) => i + 1);
    expect((await count(boss, { Type: 'sites', AppIds: many })).status).toBe(400);
    expect((await count(boss, { Type: 'plan' })).status).toBe(400);
    expect((await count(boss, { Type: 'plan', Plans: ['Gold'] })).status).toBe(400);
    expect((await create(boss, notice({ Subject: 'x'.repeat(151) }))).status).toBe(400);
    expect((await create(boss, notice({ Subject: 'two\nlines' }))).status).toBe(400);
    expect((await create(boss, notice({ Text: 'x'.repeat(5001) }))).status).toBe(400);
    expect((await create(boss, notice({ SendAt: '2020-01-01T00:00:00Z' }))).status).toBe(400);
    const far = new Date(t.clock.now().getTime() + 91 * 86_400_000).toISOString();
    expect((await create(boss, notice({ SendAt: far }))).status).toBe(400);
    const nobody = await create(boss, notice({ Audience: { Type: 'plan', Plans: ['Developer'] } }));
    expect(nobody.status).toBe(400);
    expect(nobody.error.ErrorCode).toBe(992);
  });
});

describe('sending', () => {
  it('sends a subject typed as an encoded-word as that text: no decoded line break, no added header', async () => {
    const typed = '=?utf-8?Q?Hi=0D=0ABcc:_x@evil.example?=';
    const r = await create(ada, notice({ Kind: 'announcement', Subject: typed }));
    expect(r.status, r.raw.body).toBe(200);
    await runJob();
    const mails = t.smtp.messages.filter((m) => m.subject === typed);
    expect(mails.flatMap((m) => m.to).sort()).toEqual([
      'bob@owners.example',
      'cat@owners.example',
      'dan@owners.example',
    ]);
    for (const m of mails) expect(m.headerNames.map((n) => n.toLowerCase())).not.toContain('bcc');
  });

  it("sends a notice for now to exactly the plan's owners, once each, in batches, and logs every delivery", async () => {
    const r = await create(ada, notice({ Subject: 'Plan maintenance' }));
    expect(r.status, r.raw.body).toBe(200);
    const id = r.body.Data.Id;
    await runJob();
    expect(mailsTo('Plan maintenance')).toEqual([
      'bob@owners.example',
      'cat@owners.example',
      'dan@owners.example',
    ]);
    const mail = t.smtp.messages.find((m) => m.subject.includes('Plan maintenance'))!;
    expect(mail.subject).toBe('[Scheduled maintenance] Plan maintenance');
    expect(mail.text).toContain('We upgrade the databases on Sunday.');
    // Not an announcement: no unsubscribe link or header.
    expect(mail.raw).not.toMatch(/List-Unsubscribe/i);
    const got = await one(id);
    expect(got.Status).toBe('sent');
    expect(got.Progress).toMatchObject({ Total: 3, Sent: 3, Failed: 0, Pending: 0 });
    expect((await deliveries(id)).map((d) => [d.Email, d.Status, d.Attempts])).toEqual([
      ['bob@owners.example', 'sent', 1],
      ['cat@owners.example', 'sent', 1],
      ['dan@owners.example', 'sent', 1],
    ]);
    const trail = await t.db.query<{ action: string; actor_email: string }>(
      `SELECT action, actor_email FROM activity_log WHERE target_type = 'notice' AND target_id = $1 ORDER BY id`,
      [String(id)],
    );
    expect(trail.rows).toEqual([
      { action: 'notice.create', actor_email: 'ada@example.com' },
      { action: 'notice.send', actor_email: 'ada@example.com' },
    ]);
  });

  it('never queues a recipient twice when two runs start a due notice at once', async () => {
    const at = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const r = await create(boss, notice({ Subject: 'Twice at once', Audience: { Type: 'all' }, SendAt: at }));
    const id = r.body.Data.Id;
    expect(r.body.Data.Status).toBe('scheduled');
    await sendDueNotices(t.ctx);
    expect((await one(id)).Status).toBe('scheduled'); // not due yet
    await advance(61_000);
    await Promise.all([sendDueNotices(t.ctx), sendDueNotices(t.ctx), sendDueNotices(t.ctx)]);
    await runJob();
    const rows = await t.db.query<{ n: number; outbox: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT outbox_id)::int AS outbox FROM customer_notice_recipients WHERE notice_id = $1`,
      [id],
    );
    expect(rows.rows[0]).toEqual({ n: 4, outbox: 4 });
    const queued = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM mail_outbox WHERE subject LIKE '%Twice at once'`,
    );
    expect(queued.rows[0]!.n).toBe(4);
    expect(mailsTo('Twice at once')).toEqual([
      'ann@owners.example',
      'bob@owners.example',
      'cat@owners.example',
      'dan@owners.example',
    ]);
    expect((await one(id)).Status).toBe('sent');
  });

  it('is sent by the periodic job of the one instance holding its lease', async () => {
    const at = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const id = (await create(boss, notice({ Subject: 'Under the lease', SendAt: at }))).body.Data.Id;
    await advance(61_000);
    const quiet = { warn() {} };
    const leases = databaseLeases(t.db, t.clock);
    const jobs = periodicJobs(t.ctx).filter((j) => j.name === 'customer-notices');
    expect(jobs).toHaveLength(1);
    const a = startJobs({ jobs, leases, holder: 'instance-a', log: quiet, timers: false });
    const b = startJobs({ jobs, leases, holder: 'instance-b', log: quiet, timers: false });
    const outcomes = await Promise.all([a.tick('customer-notices'), b.tick('customer-notices')]);
    expect(outcomes.sort()).toEqual(['ran', 'skipped']);
    await a.stop();
    await b.stop();
    await runJob();
    expect(mailsTo('Under the lease')).toEqual([
      'bob@owners.example',
      'cat@owners.example',
      'dan@owners.example',
    ]);
    expect((await one(id)).Status).toBe('sent');
  });

  it('retries a refused mail with backoff and gives up after the limit, with the reason in the log', async () => {
    refusing.set('bob@owners.example', 1);
    refusing.set('cat@owners.example', 1_000);
    const r = await create(boss, notice({ Kind: 'incident', Subject: 'Login outage' }));
    const id = r.body.Data.Id;
    await runJob();
    let log = await deliveries(id);
    expect(log.find((d) => d.Email === 'bob@owners.example')).toMatchObject({
      Status: 'retrying',
      Attempts: 1,
    });
    expect(log.find((d) => d.Email === 'bob@owners.example')!.Reason).toContain('Mailbox unavailable');
    expect((await one(id)).Status).toBe('sending');
    expect((await deliveries(id, 'retrying')).map((d) => d.Email)).toEqual([
      'bob@owners.example',
      'cat@owners.example',
    ]);
    for (let i = 0; i < MAIL_MAX_ATTEMPTS; i++) {
      await advance(3_600_000);
      await runJob();
    }
    log = await deliveries(id);
    expect(log.find((d) => d.Email === 'bob@owners.example')).toMatchObject({ Status: 'sent', Attempts: 2 });
    expect(log.find((d) => d.Email === 'cat@owners.example')).toMatchObject({
      Status: 'failed',
      Attempts: MAIL_MAX_ATTEMPTS,
    });
    const got = await one(id);
    expect(got.Status).toBe('sent');
    expect(got.Progress).toMatchObject({ Total: 3, Sent: 2, Failed: 1, Pending: 0 });
    expect((await deliveries(id, 'failed')).map((d) => d.Email)).toEqual(['cat@owners.example']);
    refusing.clear();
  });
});

describe('cancel', () => {
  it('cancels a scheduled notice, which is then never sent; a started or sent one is refused', async () => {
    const at = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const id = (await create(boss, notice({ Subject: 'Never sent', SendAt: at }))).body.Data.Id;
    const cancel = (Id: number, session = ada) => t.call('noticeCancel', { session, body: { Id } });
    const c = await cancel(id);
    expect(c.status, c.raw.body).toBe(200);
    expect(c.body.Data).toMatchObject({ Status: 'cancelled', CancelledBy: 'ada@example.com' });
    expect((await cancel(id)).error.ErrorCode).toBe(990);
    await advance(2 * 3_600_000);
    await runJob();
    expect(mailsTo('Never sent')).toEqual([]);
    const sent = (await create(boss, notice({ Subject: 'Sent already' }))).body.Data.Id;
    await runJob();
    const refused = await cancel(sent);
    expect(refused.status).toBe(409);
    expect(refused.error.ErrorCode).toBe(990);
    expect((await cancel(987_654)).status).toBe(404);
    expect((await cancel(id, sam)).status).toBe(403);
    const trail = await t.db.query(
      `SELECT 1 FROM activity_log WHERE action = 'notice.cancel' AND target_id = $1 AND actor_email = 'ada@example.com'`,
      [String(id)],
    );
    expect(trail.rows).toHaveLength(1);
  });
});

describe('unsubscribe', () => {
  it('puts a signed link and one-click headers in announcements; an unsubscribed owner still gets incidents', async () => {
    const first = (await create(boss, notice({ Kind: 'announcement', Subject: 'New dashboard' }))).body.Data
      .Id;
    await runJob();
    const mail = t.smtp.messages.find(
      (m) => m.subject === 'New dashboard' && m.to.includes('bob@owners.example'),
    )!;
    const link = /https?:\/\/\S+\/unsubscribe\?token=([A-Za-z0-9_.-]+)/.exec(mail.text);
    expect(link, mail.text).not.toBeNull();
    expect(mail.raw).toMatch(/^List-Unsubscribe:\s+<http:\/\/\S+\/mail\/unsubscribe\?token=/im);
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/im);
    const token = link![1]!;
    expect(token).toBe(unsubscribeToken(t.ctx.crypto, 'bob@owners.example'));
    expect((await one(first)).Progress.Sent).toBe(3);

    const details = await t.call('noticeUnsubscribeDetails', { query: { token } });
    expect(details.body).toEqual({ Email: 'b***@owners.example', Unsubscribed: false });
    const done = await t.call('noticeUnsubscribe', { query: { token } });
    expect(done.status, done.raw.body).toBe(200);
    expect(done.body.Unsubscribed).toBe(true);

    const second = (await create(boss, notice({ Kind: 'announcement', Subject: 'Another feature' }))).body
      .Data.Id;
    await runJob();
    expect(mailsTo('Another feature')).toEqual(['cat@owners.example', 'dan@owners.example']);
    expect((await deliveries(second, 'skipped')).map((d) => [d.Email, d.Reason])).toEqual([
      ['bob@owners.example', 'Unsubscribed from announcements.'],
    ]);
    expect((await one(second)).Progress).toMatchObject({ Total: 3, Sent: 2, Skipped: 1, Pending: 0 });

    await create(boss, notice({ Kind: 'incident', Subject: 'Partial outage' }));
    await runJob();
    expect(mailsTo('Partial outage')).toContain('bob@owners.example');
  });

  it('refuses forged and altered links', async () => {
    const good = unsubscribeToken(t.ctx.crypto, 'cat@owners.example');
    const [address, mac] = good.split('.') as [string, string];
    const otherAddress = Buffer.from('dan@owners.example').toString('base64url');
    const flipped = `${mac.slice(0, -2)}${mac.at(-2) === 'A' ? 'B' : 'A'}${mac.at(-1)}`;
    for (const token of [
      `${otherAddress}.${mac}`,
      `${address}.${flipped}`,
      `${address}.${address}`,
      `${address}.x.y`,
    ]) {
      const r = await t.call('noticeUnsubscribe', {
        query: { token },
      });
      expect(r.status, token).toBe(400);
      expect([994, 900]).toContain(r.error.ErrorCode);
    }
    expect(
      (await t.db.query(`SELECT 1 FROM notice_unsubscribes WHERE email <> 'bob@owners.example'`)).rows,
    ).toEqual([]);
  });

  it('takes the one-click post of RFC 8058 without the ajax marker', async () => {
    const token = unsubscribeToken(t.ctx.crypto, 'dan@owners.example');
    const r = await t.app.inject({
      method: 'POST',
      url: `/mail/unsubscribe?token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(
      (await t.db.query(`SELECT 1 FROM notice_unsubscribes WHERE email = 'dan@owners.example'`)).rows,
    ).toHaveLength(1);
    const forged = await t.app.inject({
      method: 'POST',
      url: `/mail/unsubscribe?token=${token.slice(0, -3)}abc`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(forged.statusCode).toBe(400);
    // Opened rather than posted: the console's page for the same token.
    const opened = await t.app.inject({ method: 'GET', url: `/mail/unsubscribe?token=${token}` });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`http://console.test:3001/unsubscribe?token=${token}`);
  });
});

describe('limits', () => {
  it('refuses an audience over the configured maximum', async () => {
    for (const n of ['fay', 'gus', 'hal', 'ivy', 'jon']) await owner(n, 'Free', 'ap-south');
    const c = await count(boss, { Type: 'all' });
    expect(c.body).toMatchObject({ OverLimit: true, Limit: 8 });
    const r = await create(boss, notice({ Audience: { Type: 'all' } }));
    expect(r.status).toBe(400);
    expect(r.error.ErrorCode).toBe(991);
  });

  it('lists notices newest first with their progress', async () => {
    const r = await t.call('noticeList', { session: ada });
    const list = r.body;
    expect(list.Data.length).toBeGreaterThan(5);
    expect(list.Data[0]!.Id).toBeGreaterThan(list.Data[1]!.Id);
    expect(list.NextCursor).toBeNull();
  });
});
