import { describe, expect, it } from 'vitest';
import { siteJobSuite } from '../../../test/bulk-fixtures.ts';
import { runBulkJobs } from './bulk.service.ts';

const suite = siteJobSuite();
const { app, as, sitesOf, statuses, dryRun, job, act } = suite;

/** A fresh requester with `roles`: their uid, email and a signed-in session. */
async function requester(roles: string[]) {
  const email = `r${suite.next()}@example.com`;
  const uid = await app().addStaff(email, roles);
  return { uid, email, session: await app().login(email) };
}
/** A deactivation of every site of `uid`, planned and started by `s` (awaiting approval over 4 items). */
async function askFor(s: Awaited<ReturnType<typeof as>>, uid: string) {
  const plan = await dryRun(s, { Action: 'site.deactivate', Uid: uid, Selection: { Kind: 'all' } });
  const run = await act('bulkRun', s, plan.Id);
  expect(run.status, run.raw.body).toBe(200);
  return run.body.Data;
}
const approve = async (id: number) => {
  const r = await act('bulkApprove', await as('second'), id);
  expect(r.status, r.raw.body).toBe(200);
};
const jobOf = async (id: number) => job(await as('first'), id);
/** The first SuperAdmin takes the Admin role (and with it sites.write) from `uid`: Support instead. */
const demote = async (uid: string) =>
  app().call('teamUpdateRoles', {
    session: await as('first'),
    body: { role: ['Support'], uid, unAssignRoles: ['Admin'] },
  });

describe('a job runs on its requester’s rights as they are when it runs', () => {
  it('fails, changing nothing, when its requester lost the permission of its list after its approval', async () => {
    const admin = await requester(['Admin']);
    const { uid, appIds } = await sitesOf(6, 1);
    const asked = await askFor(admin.session, uid);
    expect(asked).toMatchObject({ State: 'awaiting-approval', Failure: null });
    await approve(asked.Id);
    // before its turn, a SuperAdmin takes the Admin role (and with it sites.write) from the requester
    expect((await demote(admin.uid)).status).toBe(200);
    await runBulkJobs(app().ctx);

    const failed = await jobOf(asked.Id);
    const why = 'The requester may no longer run this job: they no longer hold sites.write.';
    expect(failed).toMatchObject({ State: 'failed', Failure: why, UndoUntil: null });
    expect(failed.FinishedAt).not.toBeNull();
    expect(failed.Progress).toEqual({ Changed: 0, Refused: 6, Cancelled: 0, Pending: 0 });
    // the one the dry run refused keeps its own reason
    expect(failed.Items.map((i) => i.OutcomeReason)).toEqual(['Already inactive.', ...Array(5).fill(why)]);
    expect(await statuses(appIds)).toEqual(['inactive', ...Array(5).fill('active')]);
    const trail = await app().db.query<{ action: string; actor_email: string; details: { reason?: string } }>(
      "SELECT action, actor_email, details FROM activity_log WHERE details->>'bulkJob' = $1 ORDER BY id",
      [String(asked.Id)],
    );
    expect(trail.rows.map((r) => [r.action, r.actor_email])).toEqual([
      ['bulk.start', admin.email],
      ['bulk.approve', 'second@example.com'],
      ['bulk.fail', admin.email],
    ]);
    expect(trail.rows[2]!.details.reason).toBe(why);
    // a failed job is over: it is not run again, nor cancelled
    expect(await runBulkJobs(app().ctx)).toBe(0);
    const cancel = await act('bulkCancel', await as('first'), asked.Id);
    expect([cancel.status, cancel.error.ErrorCode]).toEqual([409, 1191]);
  });

  it('refuses its approval (1198) while its requester may no longer run it, saying why as the runner would', async () => {
    const admin = await requester(['Admin']);
    const { uid } = await sitesOf(6);
    const asked = await askFor(admin.session, uid);
    expect((await demote(admin.uid)).status).toBe(200);
    const refused = await act('bulkApprove', await as('second'), asked.Id);
    expect([refused.status, refused.error.ErrorCode, refused.error.Description]).toEqual([
      409,
      1198,
      'The requester may no longer run this job: they no longer hold sites.write. It cannot be approved.',
    ]);
    // nothing was approved: the job still waits, and the trail has no approval
    expect((await jobOf(asked.Id)).State).toBe('awaiting-approval');
    const trail = await app().db.query<{ action: string }>(
      "SELECT action FROM activity_log WHERE details->>'bulkJob' = $1 ORDER BY id",
      [String(asked.Id)],
    );
    expect(trail.rows.map((r) => r.action)).toEqual(['bulk.start']);
    // the role given back, the approval goes through
    await app().db.query("UPDATE staff_roles SET role = 'Admin' WHERE uid = $1", [admin.uid]);
    await approve(asked.Id);
    expect((await jobOf(asked.Id)).State).toBe('queued');
  });

  it('fails when its requester’s account was deactivated or deleted meanwhile', async () => {
    const gone = await requester(['Admin']);
    const off = await requester(['Admin']);
    const a = await sitesOf(2);
    const b = await sitesOf(2);
    const first = await askFor(gone.session, a.uid);
    const second = await askFor(off.session, b.uid);
    expect([first.State, second.State]).toEqual(['queued', 'queued']);
    await app().db.query('UPDATE staff SET deactivated_at = $2 WHERE uid = $1', [off.uid, app().clock.now()]);
    const deleted = await app().call('teamDelete', {
      session: await as('first'),
      body: { role: ['Admin'], uid: gone.uid },
    });
    expect(deleted.status, deleted.raw.body).toBe(200);
    await runBulkJobs(app().ctx);
    // a deleted requester's job is kept, as the trail is, and fails: nothing runs
    const kept = await jobOf(first.Id);
    const why = 'The requester may no longer run this job: their account was deleted.';
    expect(kept).toMatchObject({ State: 'failed', Failure: why, Actor: gone.email, ActorUid: gone.uid });
    expect(kept.Items.map((i) => [i.Outcome, i.OutcomeReason])).toEqual(Array(2).fill(['refused', why]));
    const trail = await app().db.query<{ action: string; actor_email: string }>(
      "SELECT action, actor_email FROM activity_log WHERE details->>'bulkJob' = $1 ORDER BY id",
      [String(first.Id)],
    );
    expect(trail.rows.map((r) => [r.action, r.actor_email])).toEqual([
      ['bulk.start', gone.email],
      ['bulk.fail', gone.email],
    ]);
    const failed = await jobOf(second.Id);
    expect([failed.State, failed.Failure]).toEqual([
      'failed',
      'The requester may no longer run this job: their account is deactivated.',
    ]);
    expect(await statuses([...a.appIds, ...b.appIds])).toEqual(Array(4).fill('active'));
  });

  it('keeps a deleted requester’s finished job, its items and their email: a record of what was done', async () => {
    const gone = await requester(['Admin']);
    const { uid, appIds } = await sitesOf(2);
    const asked = await askFor(gone.session, uid);
    await runBulkJobs(app().ctx);
    const deleted = await app().call('teamDelete', {
      session: await as('first'),
      body: { role: ['Admin'], uid: gone.uid },
    });
    expect(deleted.status, deleted.raw.body).toBe(200);
    const done = await jobOf(asked.Id);
    expect(done).toMatchObject({ State: 'done', Actor: gone.email, ActorUid: gone.uid, Count: 2 });
    expect(done.Progress).toEqual({ Changed: 2, Refused: 0, Cancelled: 0, Pending: 0 });
    expect(done.Items.map((i) => [i.AppId, i.Outcome])).toEqual(appIds.map((id) => [id, 'changed']));
    expect(await statuses(appIds)).toEqual(['inactive', 'inactive']);
  });

  it('fails when the API token it was asked for with was revoked or expired meanwhile', async () => {
    const owner = await requester(['Admin']);
    /** A job of two sites asked for (the dry run) with a fresh token of `owner`, run from the console. */
    const askedWithToken = async (name: string) => {
      const made = await app().call('apiTokenCreate', {
        session: owner.session,
        body: { Name: name, ExpiresInDays: 1, Permissions: ['sites.write'] },
      });
      expect(made.status, made.raw.body).toBe(200);
      const { uid, appIds } = await sitesOf(2);
      const plan = await app().call('bulkDryRun', {
        headers: { authorization: `Bearer ${made.body.Token}` },
        body: { Action: 'site.deactivate', Uid: uid, Selection: { Kind: 'all' } },
      });
      expect(plan.status, plan.raw.body).toBe(200);
      const run = await act('bulkRun', await app().login(owner.email), plan.body.Data.Id);
      expect(run.body.Data.State).toBe('queued');
      return { id: plan.body.Data.Id, tokenId: made.body.Data.Id, appIds };
    };
    const revoked = await askedWithToken('revoked');
    const revoke = await app().call('apiTokenRevoke', {
      session: owner.session,
      body: { Id: revoked.tokenId },
    });
    expect(revoke.status, revoke.raw.body).toBe(200);
    await runBulkJobs(app().ctx);
    const failed = await jobOf(revoked.id);
    const why =
      'The requester may no longer run this job: the API token it was asked for with (revoked) was revoked.';
    expect([failed.State, failed.Failure]).toEqual(['failed', why]);
    expect(failed.Progress).toEqual({ Changed: 0, Refused: 2, Cancelled: 0, Pending: 0 });
    expect(await statuses(revoked.appIds)).toEqual(['active', 'active']);
    const trail = await app().db.query<{ action: string; details: { reason?: string } }>(
      "SELECT action, details FROM activity_log WHERE details->>'bulkJob' = $1 ORDER BY id",
      [String(revoked.id)],
    );
    expect(trail.rows.map((r) => [r.action, r.details.reason])).toEqual([
      ['bulk.start', undefined],
      ['bulk.fail', why],
    ]);

    const expired = await askedWithToken('expired');
    app().clock.advance(25 * 3_600_000);
    await runBulkJobs(app().ctx);
    expect((await jobOf(expired.id)).Failure).toBe(
      'The requester may no longer run this job: the API token it was asked for with (expired) has expired.',
    );
    expect(await statuses(expired.appIds)).toEqual(['active', 'active']);
  });

  it('refuses to start (1199) a job whose API token was revoked or expired since its dry run, changing nothing', async () => {
    const owner = await requester(['Admin']);
    /** A planned job of two sites, its dry run made with a fresh token of `owner`; the token's id. */
    const plannedWithToken = async (name: string) => {
      const made = await app().call('apiTokenCreate', {
        session: owner.session,
        body: { Name: name, ExpiresInDays: 1, Permissions: ['sites.write'] },
      });
      expect(made.status, made.raw.body).toBe(200);
      const { uid } = await sitesOf(2);
      const plan = await app().call('bulkDryRun', {
        headers: { authorization: `Bearer ${made.body.Token}` },
        body: { Action: 'site.deactivate', Uid: uid, Selection: { Kind: 'all' } },
      });
      expect(plan.status, plan.raw.body).toBe(200);
      return { id: plan.body.Data.Id, tokenId: made.body.Data.Id };
    };
    const trailOf = async (id: number) =>
      (
        await app().db.query<{ action: string }>(
          "SELECT action FROM activity_log WHERE details->>'bulkJob' = $1 ORDER BY id",
          [String(id)],
        )
      ).rows.map((r) => r.action);

    const revoked = await plannedWithToken('start-revoked');
    await app().call('apiTokenRevoke', { session: owner.session, body: { Id: revoked.tokenId } });
    const refused = await act('bulkRun', await app().login(owner.email), revoked.id);
    expect([refused.status, refused.error.ErrorCode, refused.error.Description]).toEqual([
      409,
      1199,
      'The requester may no longer run this job: the API token it was asked for with (start-revoked) was revoked. It cannot be started.',
    ]);
    // nothing changed: the job is still planned, and the trail has no start
    expect((await jobOf(revoked.id)).State).toBe('planned');
    expect(await trailOf(revoked.id)).toEqual([]);

    const expired = await plannedWithToken('start-expired');
    app().clock.advance(25 * 3_600_000);
    const late = await act('bulkRun', await app().login(owner.email), expired.id);
    expect([late.status, late.error.ErrorCode, late.error.Description]).toEqual([
      409,
      1199,
      'The requester may no longer run this job: the API token it was asked for with (start-expired) has expired. It cannot be started.',
    ]);
    expect((await jobOf(expired.id)).State).toBe('planned');
    expect(await trailOf(expired.id)).toEqual([]);
  });

  it('names the API token a job was asked for with, and a deleted one as gone', async () => {
    const owner = await requester(['Admin']);
    const made = await app().call('apiTokenCreate', {
      session: owner.session,
      body: { Name: 'nightly script', ExpiresInDays: 1, Permissions: ['sites.write'] },
    });
    expect(made.status, made.raw.body).toBe(200);
    const { uid } = await sitesOf(2);
    const plan = await app().call('bulkDryRun', {
      headers: { authorization: `Bearer ${made.body.Token}` },
      body: { Action: 'site.deactivate', Uid: uid, Selection: { Kind: 'all' } },
    });
    expect(plan.status, plan.raw.body).toBe(200);
    const token = { Id: made.body.Data.Id, Name: 'nightly script' };
    expect(plan.body.Data.ApiToken).toEqual(token);
    expect((await jobOf(plan.body.Data.Id)).ApiToken).toEqual(token);
    // a job asked for from a console session names none
    const other = await sitesOf(2);
    expect(
      (await dryRun(owner.session, { Action: 'site.deactivate', Uid: other.uid, Selection: { Kind: 'all' } }))
        .ApiToken,
    ).toBeNull();
    // the token goes with its owner; the job keeps its id, its name reads as gone
    const deleted = await app().call('teamDelete', {
      session: await as('first'),
      body: { role: ['Admin'], uid: owner.uid },
    });
    expect(deleted.status, deleted.raw.body).toBe(200);
    expect((await jobOf(plan.body.Data.Id)).ApiToken).toEqual({ Id: token.Id, Name: null });
  });

  it('judges each item under the scope its requester holds when it runs', async () => {
    await app().db.query(
      "INSERT INTO roles (name, permissions, scope_data_centers) VALUES ('rights-sites', $1, $2)",
      [
        ['customers.read', 'sites.read', 'sites.write'],
        ['eu-central', 'us-east'],
      ],
    );
    const scoped = await requester(['rights-sites']);
    const { uid, appIds } = await sitesOf(3);
    await app().db.query("UPDATE sites SET data_center = 'us-east' WHERE app_id = $1", [appIds[2]]);
    const plan = await dryRun(scoped.session, {
      Action: 'site.deactivate',
      Uid: uid,
      Selection: { Kind: 'rows', AppIds: appIds },
    });
    expect(plan.Planned).toEqual({ Change: 3, Refuse: 0 });
    // the role's scope narrows to eu-central before the job runs
    await app().db.query("UPDATE roles SET scope_data_centers = '{eu-central}' WHERE name = 'rights-sites'");
    const run = await act('bulkRun', scoped.session, plan.Id);
    expect(run.status, run.raw.body).toBe(200);
    await runBulkJobs(app().ctx);
    const done = await jobOf(plan.Id);
    expect(done.State).toBe('done');
    expect(done.Items.map((i) => [i.Outcome, i.OutcomeReason])).toEqual([
      ['changed', null],
      ['changed', null],
      ['refused', "Outside your role's scope (data center or plan)."],
    ]);
    expect(await statuses(appIds)).toEqual(['inactive', 'inactive', 'active']);
  });
});
