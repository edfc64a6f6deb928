import { consolePaths } from '@sac/contract/console-paths';
import { PLANS } from '@sac/contract/customers';
import {
  type createNoticeBody,
  NOTICE_PAGE_SIZE,
  NOTICE_SCHEDULE_MAX_DAYS,
  NOTICE_SITE_SEARCH_LIMIT,
  type Notice,
  type NoticeAudience,
  type noticeDeliveriesQuery,
  UNSUBSCRIBABLE_KIND,
} from '@sac/contract/notices';
import { type SiteScope, scopeFor } from '@sac/contract/role-scopes';
import type { z } from 'zod';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { consoleOrigin } from '../../lib/console-url.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { outOfScope } from '../../lib/site-scope.ts';
import { runWrite } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { currentGrantOf } from '../auth/staff.service.ts';
import { sitesByNameOrOwner } from '../customers/sites.service.ts';
import { noticeMail } from './notices.mails.ts';
import * as repo from './notices.repo.ts';
import { maskedAddress, unsubscribeToken, verifyUnsubscribeToken } from './unsubscribe-token.ts';

/** A "send now" notice may say a time this far in the past (the viewer's clock runs behind). */
const PAST_GRACE_MS = 5 * 60_000;
/** One sending run stops queuing after this long; the next tick goes on (the lease outlives it). */
const RUN_BUDGET_MS = 20_000;
/** The one-click door of RFC 8058 (the console's page that confirms is consolePaths.unsubscribe). */
export const ONE_CLICK_PATH = '/mail/unsubscribe';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function wire(row: repo.NoticeRow, p: repo.Progress | undefined): Notice {
  const total = row.status === 'scheduled' || row.status === 'cancelled' ? 0 : (p?.total ?? row.total);
  const sent = p?.sent ?? 0;
  const failed = p?.failed ?? 0;
  const skipped = p?.skipped ?? 0;
  const a = row.audience;
  return {
    Id: Number(row.id),
    Kind: row.kind,
    Subject: row.subject,
    Audience: {
      Type: a.Type,
      ...(a.Plans ? { Plans: a.Plans } : {}),
      ...(a.DataCenters ? { DataCenters: a.DataCenters } : {}),
      ...(a.AppIds ? { AppIds: a.AppIds } : {}),
    },
    Status: row.status,
    SendAt: row.send_at.toISOString(),
    CreatedAt: row.created_at.toISOString(),
    CreatedBy: row.created_by_email,
    StartedAt: iso(row.started_at),
    FinishedAt: iso(row.finished_at),
    CancelledBy: row.cancelled_by_email,
    FailureReason: row.failure_reason,
    Progress: {
      Total: total,
      Sent: sent,
      Failed: failed,
      Skipped: skipped,
      Pending: total - sent - failed - skipped,
    },
  };
}

async function wireOne(ctx: AppContext, row: repo.NoticeRow) {
  const p = await repo.progressOf(ctx.db, [Number(row.id)]);
  return { Data: { ...wire(row, p.get(Number(row.id))), Text: row.body_text } };
}

/** Distinct owner addresses of an audience, checked against the limit, read on `db`. */
async function reachOf(
  ctx: AppContext,
  db: Queryable,
  audience: NoticeAudience,
  scope: readonly SiteScope[] | undefined,
) {
  const limit = ctx.config.noticeMaxRecipients;
  const count = await repo.countAudience(db, audience, limit, scope);
  return { Count: Math.min(count, limit + 1), OverLimit: count > limit, Limit: limit };
}

/**
 * Distinct owner addresses an audience reaches, counted up to `cap` + 1 (beyond it the figure does
 * not matter): the demo seed's check that a notice stays small on a large database.
 */
export const audienceReach = (ctx: AppContext, audience: NoticeAudience, cap: number) =>
  repo.countAudience(ctx.db, audience, cap);

/** Distinct owner addresses of an audience, checked against the limit. */
export const countRecipients = (ctx: AppContext, sender: StaffSession, audience: NoticeAudience) =>
  reachOf(ctx, ctx.db, audience, sender.scope);

/**
 * POST /admin/notices: writes the notice (scheduled) through the write path, its audience counted
 * against the limit in the write's transaction; a notice for now starts after the answer.
 */
export async function createNotice(
  ctx: AppContext,
  call: StaffCall,
  body: z.output<typeof createNoticeBody>,
) {
  const actor = call.session;
  const now = ctx.clock.now();
  let sendAt = now;
  if (body.SendAt !== null) {
    const at = new Date(body.SendAt);
    if (at.getTime() < now.getTime() - PAST_GRACE_MS)
      throw new AppError('validation', 'SendAt is in the past.', [
        { Field: 'SendAt', Message: 'SendAt is in the past.' },
      ]);
    if (at.getTime() > now.getTime() + NOTICE_SCHEDULE_MAX_DAYS * 86_400_000)
      throw new AppError('validation', `SendAt is more than ${NOTICE_SCHEDULE_MAX_DAYS} days ahead.`, [
        { Field: 'SendAt', Message: `SendAt is more than ${NOTICE_SCHEDULE_MAX_DAYS} days ahead.` },
      ]);
    if (at > now) sendAt = at;
  }
  const row = await runWrite(ctx.db, {
    // No record to lock: the audience is counted in the write's transaction, the notice written with
    // the count its trail row reports (the job counts it again when it starts the notice).
    lock: async (tx) => {
      const reach = await reachOf(ctx, tx, body.Audience, actor.scope);
      if (reach.OverLimit) throw new AppError('noticeAudienceTooLarge');
      if (reach.Count === 0) throw new AppError('noticeAudienceEmpty');
      return reach;
    },
    change: (tx) =>
      repo.insertNotice(tx, {
        kind: body.Kind,
        subject: body.Subject,
        text: body.Text,
        audience: body.Audience,
        scope: actor.scope,
        sendAt,
        now,
        byUid: actor.uid,
        byEmail: actor.email,
      }),
    trail: (tx, n, reach) =>
      writeActivity(tx, {
        at: now,
        action: sendAt > now ? 'notice.schedule' : 'notice.create',
        actorUid: actor.uid,
        actorEmail: actor.email,
        targetType: 'notice',
        targetId: String(n.id),
        clientAddress: call.clientAddress,
        details: {
          kind: body.Kind,
          subject: body.Subject,
          audience: body.Audience,
          sendAt: sendAt.toISOString(),
          recipients: reach.Count,
        },
      }),
  });
  // Now means now: this instance starts at once (the claims keep the job's runs from sending it twice).
  if (sendAt <= now) ctx.mailer.afterAnswer(async () => void (await sendDueNotices(ctx)));
  return wireOne(ctx, row);
}

/**
 * The plans and data centers an audience may name: for a scoped sender (role-scopes.ts) those
 * their scope reaches (an axis a scope leaves open: every choice of it).
 */
export async function audienceOptions(ctx: AppContext, sender: StaffSession) {
  const centers = await repo.dataCenters(ctx.db);
  const scope = sender.scope;
  const within = (axis: 'plans' | 'dataCenters', v: string) =>
    !scope || scope.some((e) => e[axis] === null || e[axis].includes(v));
  return {
    Plans: PLANS.filter((p) => within('plans', p)),
    DataCenters: centers
      .filter((c) => within('dataCenters', c.code))
      .map((c) => ({ Code: c.code, Name: c.name })),
  };
}

/**
 * Sites to choose for a notice to chosen sites, by site or owner name (the customer search's
 * matching): for a scoped sender only sites in their scope.
 */
export async function siteOptions(ctx: AppContext, sender: StaffSession, term: string) {
  return { Data: await sitesByNameOrOwner(ctx.db, term, NOTICE_SITE_SEARCH_LIMIT, sender.scope) };
}

/** A notice the reader may not read (repo.NoticeReader) is refused as out of their scope. */
async function readableNotice(db: Queryable, reader: StaffSession, id: number, lock = false) {
  const n = await repo.findNotice(db, id, lock, reader);
  if (!n) throw new AppError('noticeNotFound');
  if (n.readable === false) throw outOfScope('a notice they sent within their scope');
  return n;
}

export async function listNotices(ctx: AppContext, reader: StaffSession, cursor: string | undefined) {
  const rows = await repo.listNotices(
    ctx.db,
    cursor ? Number(cursor) : undefined,
    NOTICE_PAGE_SIZE + 1,
    reader,
  );
  const page = rows.slice(0, NOTICE_PAGE_SIZE);
  const progress = await repo.progressOf(
    ctx.db,
    page.filter((r) => r.status === 'sending' || r.status === 'sent').map((r) => Number(r.id)),
  );
  return {
    Data: page.map((r) => wire(r, progress.get(Number(r.id)))),
    NextCursor: rows.length > NOTICE_PAGE_SIZE ? String(page.at(-1)!.id) : null,
  };
}

export async function oneNotice(ctx: AppContext, reader: StaffSession, id: number) {
  return wireOne(ctx, await readableNotice(ctx.db, reader, id));
}

export async function noticeDeliveries(
  ctx: AppContext,
  reader: StaffSession,
  q: z.output<typeof noticeDeliveriesQuery>,
) {
  await readableNotice(ctx.db, reader, q.id);
  const rows = await repo.deliveries(
    ctx.db,
    q.id,
    q.status,
    q.cursor ? Number(q.cursor) : undefined,
    NOTICE_PAGE_SIZE + 1,
  );
  const page = rows.slice(0, NOTICE_PAGE_SIZE);
  return {
    Data: page.map((r) => ({
      Id: Number(r.id),
      Email: r.email,
      Status: r.status as never,
      Attempts: r.attempts ?? 0,
      Reason: r.skipped_reason ?? r.last_error,
      SentAt: iso(r.sent_at),
      NextAttemptAt: r.sent_at || r.failed_at || !r.queued_at ? null : iso(r.next_attempt_at),
    })),
    NextCursor: rows.length > NOTICE_PAGE_SIZE ? String(page.at(-1)!.id) : null,
  };
}

/**
 * Cancels a scheduled notice, through the write path: the notice's row locked and its status
 * decided under that lock. Once the job has started it (status sending) it is no longer
 * cancellable: its mails are queued batch by batch and the outbox delivers what is queued (990).
 */
export async function cancelNotice(ctx: AppContext, call: StaffCall, input: { Id: number }) {
  const actor = call.session;
  const id = input.Id;
  const now = ctx.clock.now();
  const row = await runWrite(ctx.db, {
    lock: async (tx) => {
      const n = await readableNotice(tx, actor, id, true);
      if (n.status !== 'scheduled') throw new AppError('noticeNotCancellable');
      return n;
    },
    change: async (tx) => (await repo.cancelScheduled(tx, id, now, actor.email))!,
    trail: (tx, n) =>
      writeActivity(tx, {
        at: now,
        action: 'notice.cancel',
        actorUid: actor.uid,
        actorEmail: actor.email,
        targetType: 'notice',
        targetId: String(id),
        clientAddress: call.clientAddress,
        details: { subject: n.subject, sendAt: n.send_at.toISOString() },
      }),
  });
  return wireOne(ctx, row);
}

function addressOf(ctx: AppContext, token: string): string {
  const email = verifyUnsubscribeToken(ctx.crypto, token);
  if (!email) throw new AppError('unsubscribeLinkInvalid');
  return email;
}

export async function unsubscribeDetails(ctx: AppContext, token: string) {
  const email = addressOf(ctx, token);
  return { Email: maskedAddress(email), Unsubscribed: await repo.unsubscribed(ctx.db, email) };
}

/**
 * The link's address gets no more announcements (idempotent), through the write path: the
 * trail row is written when the address is newly unsubscribed. A public door: `call` is the
 * caller, signed out.
 */
export async function unsubscribe(ctx: AppContext, call: Caller, input: { token: string }) {
  const email = addressOf(ctx, input.token);
  const now = ctx.clock.now();
  await runWrite(ctx.db, {
    change: (tx) => repo.unsubscribe(tx, email, now),
    trail: async (tx, newly) => {
      if (!newly) return;
      await writeActivity(tx, {
        at: now,
        action: 'notice.unsubscribe',
        targetType: 'email',
        targetId: email,
        clientAddress: call.clientAddress,
        details: { kind: UNSUBSCRIBABLE_KIND },
      });
    },
  });
  return { Email: maskedAddress(email), Unsubscribed: true };
}

/** A scope as a set of entries, whatever their order, for comparing two. */
const scopeKey = (scope: readonly SiteScope[] | null | undefined) =>
  scope ? JSON.stringify(scope.map((e) => JSON.stringify([e.dataCenters, e.plans])).sort()) : 'all';

/**
 * Why a due notice may not go out on its sender's word any more: the sender lost the right to send
 * notices (deactivated, deleted, or no role holding notices.send), or their scope for it is not the
 * one the audience was bounded by when they wrote it (narrowed, widened or gone). The notice fails
 * with the reason; a sender who still may writes it again.
 */
async function senderRefusal(tx: Queryable, n: repo.NoticeRow): Promise<string | undefined> {
  const sender = n.created_by_uid ? await currentGrantOf(tx, n.created_by_uid) : undefined;
  if (!sender?.active || !sender.permissions.includes('notices.send'))
    return 'The sender may no longer send notices.';
  if (scopeKey(scopeFor(sender.scopes, 'notices.send')) !== scopeKey(n.scope))
    return "The sender's role scope changed after the notice was written: write it again.";
  return undefined;
}

/**
 * Starts the due notices, one write each: the due notice claimed (locked, skipping one another run
 * holds), its audience resolved into recipients and the notice marked sending, with its trail row;
 * a notice whose audience grew past the limit is failed instead.
 */
async function startDue(ctx: AppContext): Promise<void> {
  for (;;) {
    const now = ctx.clock.now();
    const started = await runWrite(ctx.db, {
      lock: async (tx) => (await repo.claimDue(tx, now, 1))[0],
      change: async (tx, n) => {
        if (!n) return undefined;
        const refused = await senderRefusal(tx, n);
        if (refused) throw Object.assign(new Error('sender'), { noticeId: Number(n.id), reason: refused });
        const total = await repo.resolveRecipients(tx, Number(n.id), n.audience, n.scope);
        if (total > ctx.config.noticeMaxRecipients) {
          // Rolled back with the rows: the audience grew past the limit after the notice was written.
          throw Object.assign(new Error('over'), {
            noticeId: Number(n.id),
            reason: `The audience reached more than ${ctx.config.noticeMaxRecipients} recipients.`,
          });
        }
        await repo.markStarted(tx, Number(n.id), now, total);
        return total;
      },
      trail: async (tx, total, n) => {
        if (!n) return;
        await writeActivity(tx, {
          at: now,
          action: 'notice.send',
          actorUid: n.created_by_uid,
          actorEmail: n.created_by_email,
          targetType: 'notice',
          targetId: String(n.id),
          details: { kind: n.kind, subject: n.subject, recipients: total },
        });
      },
    })
      .then((total) => total !== undefined)
      .catch(async (err: unknown) => {
        const { noticeId, reason } = err as { noticeId?: number; reason?: string };
        if (noticeId === undefined || reason === undefined) throw err;
        await repo.markFailed(ctx.db, noticeId, ctx.clock.now(), reason);
        return true;
      });
    if (!started) return;
  }
}

/**
 * Queues one batch of a notice's recipients into the mail outbox, through the write path: the
 * batch claimed (its rows locked, skipping those another run holds), the unsubscribed skipped,
 * the rest queued; answers how many were taken.
 */
async function queueBatch(ctx: AppContext, n: repo.NoticeRow): Promise<number> {
  const origin = consoleOrigin(ctx.config);
  const announcement = n.kind === UNSUBSCRIBABLE_KIND;
  return runWrite(ctx.db, {
    lock: (tx) => repo.claimBatch(tx, Number(n.id), ctx.config.noticeBatchSize),
    change: async (tx, batch) => {
      const now = ctx.clock.now();
      const skipped = batch.filter((r) => announcement && r.unsubscribed);
      const sending = batch.filter((r) => !(announcement && r.unsubscribed));
      await repo.markSkipped(
        tx,
        skipped.map((r) => Number(r.id)),
        'Unsubscribed from announcements.',
      );
      const ids = await ctx.mailer.sendAll(
        tx,
        sending.map((r) => {
          const token = announcement ? unsubscribeToken(ctx.crypto, r.email) : '';
          return noticeMail({
            to: r.email,
            firstName: r.first_name,
            kind: n.kind,
            subject: n.subject,
            text: n.body_text,
            ...(announcement
              ? {
                  unsubscribePage: `${origin}${consolePaths.unsubscribe({ token })}`,
                  oneClickUrl: `${origin}${ONE_CLICK_PATH}?token=${token}`,
                }
              : {}),
          });
        }),
      );
      await repo.markQueued(
        tx,
        now,
        sending.map((r) => Number(r.id)),
        ids,
      );
      if (batch.length < ctx.config.noticeBatchSize) await repo.markAllQueued(tx, Number(n.id), now);
      return batch.length;
    },
    trail: {
      none: "a batch queued is the delivery of a notice whose start wrote its trail row (notice.send); each recipient's queuing is kept in its recipient row",
    },
  });
}

/**
 * The periodic job (and a "send now" right after its answer): starts due notices, queues their
 * recipients a batch per transaction and lets the outbox send each batch before the next, so the
 * outbox holds one batch of a notice at a time; marks notices whose mails all ended as sent.
 * Every step claims its rows in SQL, so two runs at once (two instances, or the job and a send
 * now) never queue one recipient twice. Answers how many recipients it queued or skipped.
 */
export async function sendDueNotices(ctx: AppContext): Promise<number> {
  const until = Date.now() + RUN_BUDGET_MS;
  let taken = 0;
  await startDue(ctx);
  for (const n of await repo.sendingWithWork(ctx.db)) {
    for (;;) {
      const k = await queueBatch(ctx, n);
      taken += k;
      if (k > 0) await ctx.mailer.sendDue();
      if (k < ctx.config.noticeBatchSize || Date.now() > until) break;
    }
    if (Date.now() > until) break;
  }
  await repo.finishDelivered(ctx.db, ctx.clock.now());
  return taken;
}
