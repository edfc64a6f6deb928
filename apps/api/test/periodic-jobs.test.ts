import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLeases, type LeaseStore, redisLeases } from '../src/lib/leases.ts';
import { sendExpiryNotices } from '../src/modules/impersonation/expiry-notices.service.ts';
import { type JobOutcome, leaseTtlMs, startJobs } from '../src/ops/jobs.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { insertGrant } from './impersonation-fixtures.ts';
import { redisScope, redisTestsRun } from './redis-helper.ts';

const withRedis = await redisTestsRun();
const quiet = { warn() {} };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('database leases', () => {
  it('go to one holder, are renewed by it, and pass to another once expired or given up', async () => {
    const leases = databaseLeases(t.db, t.clock);
    expect(await leases.acquire('job-a', 'A', 60_000)).toBe(true);
    expect(await leases.acquire('job-a', 'B', 60_000)).toBe(false);
    expect(await leases.acquire('job-b', 'B', 60_000)).toBe(true);
    t.clock.advance(59_000);
    expect(await leases.acquire('job-a', 'A', 60_000)).toBe(true); // renewed until +119 s
    t.clock.advance(59_000);
    expect(await leases.acquire('job-a', 'B', 60_000)).toBe(false);
    t.clock.advance(1_000);
    expect(await leases.acquire('job-a', 'B', 60_000)).toBe(true); // A stopped renewing: B takes over
    expect(await leases.acquire('job-a', 'A', 60_000)).toBe(false);
    await leases.release('job-a', 'A'); // not A's: nothing happens
    expect(await leases.acquire('job-a', 'A', 60_000)).toBe(false);
    await leases.release('job-a', 'B');
    expect(await leases.acquire('job-a', 'A', 60_000)).toBe(true);
  });

  it('go to exactly one of many instances asking at once', async () => {
    const leases = databaseLeases(t.db, t.clock);
    const wins = await Promise.all(
      Array.from({ length: 8 }, (_, i) => leases.acquire('contended', `holder-${i}`, 60_000)),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
  });
});

describe.runIf(withRedis)('Redis leases', () => {
  it('go to one holder, are renewed by it, and pass to another when given up', async () => {
    const scope = redisScope();
    try {
      const leases = redisLeases(scope.redis, scope.prefix);
      expect(await leases.acquire('job-a', 'A', 60_000)).toBe(true);
      expect(await leases.acquire('job-a', 'B', 60_000)).toBe(false);
      expect(await leases.acquire('job-a', 'A', 60_000)).toBe(true);
      expect(await scope.redis.pttl(`${scope.prefix}lease:job-a`)).toBeGreaterThan(50_000);
      await leases.release('job-a', 'B');
      expect(await leases.acquire('job-a', 'B', 60_000)).toBe(false);
      await leases.release('job-a', 'A');
      expect(await leases.acquire('job-a', 'B', 60_000)).toBe(true);
      const wins = await Promise.all(
        Array.from({ length: 8 }, (_, i) => leases.acquire('contended', `holder-${i}`, 60_000)),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
    } finally {
      await scope.cleanup();
    }
  });
});

describe('periodic jobs on several instances', () => {
  function instance(leases: LeaseStore, holder: string, runs: string[], gate?: Promise<void>) {
    const outcomes: JobOutcome[] = [];
    const runner = startJobs({
      jobs: [
        {
          name: 'count',
          everyMs: 60_000,
          run: async () => {
            runs.push(holder);
            await gate;
          },
        },
      ],
      leases,
      holder,
      log: quiet,
      timers: false,
      onOutcome: (_job, o) => outcomes.push(o),
    });
    return { runner, outcomes };
  }

  it('run on the lease holder only, and move to another instance when the holder stops', async () => {
    const leases = databaseLeases(t.db, t.clock);
    const runs: string[] = [];
    const a = instance(leases, 'instance-a', runs);
    const b = instance(leases, 'instance-b', runs);
    for (let i = 0; i < 3; i++) {
      await a.runner.tick('count');
      await b.runner.tick('count');
      t.clock.advance(60_000);
    }
    expect(runs).toEqual(['instance-a', 'instance-a', 'instance-a']);
    expect(b.outcomes).toEqual(['skipped', 'skipped', 'skipped']);
    await a.runner.stop(); // gives the lease up
    await b.runner.tick('count');
    expect(runs.at(-1)).toBe('instance-b');
    await b.runner.stop();
  });

  it('skip a tick while the previous run of the job is still going', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const runs: string[] = [];
    const a = instance(databaseLeases(t.db, t.clock), 'slow', runs, gate);
    const first = a.runner.tick('count');
    expect(await a.runner.tick('count')).toBe('skipped');
    open();
    expect(await first).toBe('ran');
    expect(runs).toEqual(['slow']);
    await a.runner.stop();
  });

  it('run at once when woken, and once more after a run that wake-ups came during, not once each', async () => {
    let wake!: () => void;
    let unsubscribed = false;
    const gates: Array<() => void> = [];
    const runs: boolean[] = [];
    const runner = startJobs({
      jobs: [
        {
          name: 'woken',
          everyMs: 3_600_000,
          run: (woken) => {
            runs.push(woken === true);
            return new Promise<void>((resolve) => gates.push(resolve));
          },
          wakeOn: (fn) => {
            wake = fn;
            return () => {
              unsubscribed = true;
            };
          },
        },
      ],
      leases: databaseLeases(t.db, t.clock),
      holder: 'woken',
      log: quiet,
    });
    const settle = async () => {
      for (let i = 0; i < 50 && gates.length < runs.length + 1; i++)
        await new Promise((r) => setTimeout(r, 10));
    };
    wake();
    await settle();
    expect(runs).toEqual([true]);
    wake(); // during the run: not lost, and three wake-ups make one run
    wake();
    wake();
    gates.shift()!();
    await settle();
    expect(runs).toEqual([true, true]);
    gates.shift()!();
    await new Promise((r) => setTimeout(r, 100));
    expect(runs).toHaveLength(2);
    // another instance, the lease not its own: its wake-ups cost nothing until its timer takes the lease
    let wakeOther!: () => void;
    let otherRuns = 0;
    const leases = databaseLeases(t.db, t.clock);
    const acquire = leases.acquire.bind(leases);
    let asked = 0;
    const other = startJobs({
      jobs: [
        {
          name: 'woken',
          everyMs: 3_600_000,
          run: async () => void otherRuns++,
          wakeOn: (fn) => {
            wakeOther = fn;
            return () => {};
          },
        },
      ],
      leases: {
        ...leases,
        acquire: (...a) => {
          asked++;
          return acquire(...a);
        },
      },
      holder: 'other',
      log: quiet,
      timers: false,
    });
    expect(await other.tick('woken')).toBe('skipped');
    wakeOther();
    wakeOther();
    await new Promise((r) => setTimeout(r, 50));
    expect([otherRuns, asked]).toEqual([0, 1]);
    await runner.stop(); // gives the lease up
    expect(await other.tick('woken')).toBe('ran');
    wakeOther();
    await new Promise((r) => setTimeout(r, 50));
    expect(otherRuns).toBe(2);
    await other.stop();

    expect(unsubscribed).toBe(true);
    wake();
    expect(runs).toHaveLength(2);
  });

  it('keep a lease longer than a tick, so a slow holder keeps it', () => {
    expect(leaseTtlMs(600_000)).toBe(1_200_000);
    expect(leaseTtlMs(1_000)).toBe(60_000);
  });
});

describe('impersonation expiry notices', () => {
  let appId: number;
  let ownerEmail: string;
  beforeAll(async () => {
    ownerEmail = 'owner.expiry@example.com';
    const owner = await insertCustomer(t.db, { first: 'Olive', last: 'Owner', email: ownerEmail });
    ({ appId } = await insertSite(t.db, { owner, name: 'expiry-site' }));
  });

  const mailsAbout = (id: number) => t.smtp.messages.filter((m) => m.text.includes(`request ${id}`));

  it('mail the initiator and the site owner once when an approved grant expires', async () => {
    const staffUid = await t.addStaff('ivy.initiator@example.com', ['Support']);
    const id = await insertGrant(t.db, {
      appId,
      initiatorUid: staffUid,
      initiatorEmail: 'ivy.initiator@example.com',
      roles: ['Developer'],
      now: t.clock.now(),
      minutes: 30,
    });
    expect(await sendExpiryNotices(t.ctx)).toBe(0);
    t.clock.advance(29 * 60_000);
    expect(await sendExpiryNotices(t.ctx)).toBe(0);
    t.clock.advance(60_000); // expires_at reached
    // two instances (or a run overlapping the next) at the same moment: one claims it
    const counts = await Promise.all([sendExpiryNotices(t.ctx), sendExpiryNotices(t.ctx)]);
    expect(counts.sort()).toEqual([0, 1]);
    t.clock.advance(60_000);
    expect(await sendExpiryNotices(t.ctx)).toBe(0);
    await t.ctx.mailer.flush();
    const mails = mailsAbout(id);
    expect(mails.map((m) => m.to[0]).sort()).toEqual(['ivy.initiator@example.com', ownerEmail]);
    const staffMail = mails.find((m) => m.to[0] === 'ivy.initiator@example.com')!;
    expect(staffMail.subject).toBe(`Impersonation request ${id}: Expired`);
    expect(staffMail.text).toContain('expiry-site');
    const ownerMail = mails.find((m) => m.to[0] === ownerEmail)!;
    expect(ownerMail.subject).toBe('Access to your site expiry-site: Expired');
    expect(ownerMail.text).toContain('Hello Olive');
    const row = await t.db.query<{ expiry_notified_at: Date }>(
      'SELECT expiry_notified_at FROM impersonation_requests WHERE id = $1',
      [id],
    );
    expect(row.rows[0]!.expiry_notified_at).not.toBeNull();
  });

  it('send nothing for revoked, pending or deleted requests', async () => {
    const staffUid = await t.addStaff('no.notice@example.com', ['Support']);
    const ids: number[] = [];
    for (const change of [
      "status = 'Revoked'",
      "status = 'Pending', expires_at = NULL",
      'deleted_at = action_taken_at',
    ]) {
      const id = await insertGrant(t.db, {
        appId,
        initiatorUid: staffUid,
        initiatorEmail: 'no.notice@example.com',
        roles: ['Developer'],
        now: t.clock.now(),
        minutes: 5,
      });
      await t.db.query(`UPDATE impersonation_requests SET ${change} WHERE id = $1`, [id]);
      ids.push(id);
    }
    t.clock.advance(10 * 60_000);
    expect(await sendExpiryNotices(t.ctx)).toBe(0);
    await t.ctx.mailer.flush();
    for (const id of ids) expect(mailsAbout(id)).toEqual([]);
  });

  it("on a customer's own request, mail the SuperAdmin who approved it, not the owner twice", async () => {
    const id = await insertGrant(t.db, {
      appId,
      initiatorUid: await t.addStaff('sa.approver@example.com', ['SuperAdmin']),
      initiatorEmail: ownerEmail,
      roles: ['Developer'],
      now: t.clock.now(),
      minutes: 5,
    });
    await t.db.query(
      "UPDATE impersonation_requests SET is_customer_request = true, action_taken_by = 'sa.approver@example.com' WHERE id = $1",
      [id],
    );
    t.clock.advance(10 * 60_000);
    expect(await sendExpiryNotices(t.ctx)).toBe(1);
    await t.ctx.mailer.flush();
    expect(
      mailsAbout(id)
        .map((m) => m.to[0])
        .sort(),
    ).toEqual([ownerEmail, 'sa.approver@example.com']);
  });
});
