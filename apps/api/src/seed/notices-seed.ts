import type { NoticeAudience, NoticeKind } from '@sac/contract/notices';
import type { AppContext } from '../app-context.ts';
import type { Queryable } from '../db/db.ts';
import { execute, qb } from '../db/sql.ts';
import type { ManualClock } from '../lib/clock.ts';
import type { StaffCall } from '../lib/endpoint-route.ts';
import { audienceReach, createNotice, sendDueNotices } from '../modules/notices/notices.service.ts';

const HOUR = 3_600_000;

/**
 * The most owners a demo notice reaches. Demo data may go on top of a large database (the scale
 * generator's million customers, for benchmarks): there a notice to all would pass the notices'
 * own limit or fill the outbox, so it goes to the demo's chosen sites instead.
 */
export const DEMO_NOTICE_MAX_RECIPIENTS = 500;

interface DemoNotice {
  by: string;
  kind: NoticeKind;
  subject: string;
  text: string;
  audience: NoticeAudience;
  /** Written this long before the first start; sent `sendAfter` later (in the past: sent, else scheduled). */
  ago: number;
  sendAfter: number;
  /** This many of its mails were refused by the recipient's server. */
  refused?: number;
}

const NOTICES = (by: { sa: string; ad: string }): DemoNotice[] => [
  {
    by: by.sa,
    kind: 'maintenance',
    subject: 'Planned maintenance of the EU data centre on Saturday 02:00–03:00 UTC',
    text: 'Hello,\n\nWe will upgrade the database servers of the eu-central data centre on Saturday between 02:00 and 03:00 UTC. Sign-ins may pause for up to a minute during that hour.\n\nNo action is needed on your side.',
    audience: { Type: 'data-center', DataCenters: ['eu-central'] },
    ago: 74 * HOUR,
    sendAfter: 2 * HOUR,
    refused: 1,
  },
  {
    by: by.ad,
    kind: 'incident',
    subject: 'Resolved: slow sign-ins for Developer Premium sites',
    text: 'Hello,\n\nBetween 09:12 and 09:41 UTC some sign-ins on Developer Premium sites took several seconds. The cause, an overloaded cache node, has been replaced and sign-ins are back to normal.\n\nWe are sorry for the trouble.',
    audience: { Type: 'plan', Plans: ['Developer Premium'] },
    ago: 27 * HOUR,
    sendAfter: 60_000,
  },
  {
    by: by.ad,
    kind: 'announcement',
    subject: 'New: passkeys for your customers',
    text: 'Hello,\n\nYour sites can now let their users sign in with passkeys. Turn them on under Application Level Security.',
    audience: { Type: 'all' },
    ago: 5 * HOUR,
    sendAfter: 53 * HOUR,
  },
];

/**
 * Customer notices of the made-up past through the notices service: two sent (one with a mail a
 * server refused) and one scheduled. Their mails go into the outbox as delivered then (the seed's
 * mailer), so the delivery log reads them and nothing is sent at the first start.
 */
export async function seedDemoNotices(
  tx: Queryable,
  ctx: AppContext,
  clock: ManualClock,
  opts: {
    at: Date;
    caller(email: string): StaffCall;
    by: { sa: string; ad: string };
    /** The sites a notice goes to when its audience reaches none or too many owners. */
    sites: number[];
  },
): Promise<number> {
  const list = NOTICES(opts.by);
  for (const n of list) {
    clock.set(new Date(opts.at.getTime() - n.ago));
    const sendAt = new Date(opts.at.getTime() - n.ago + n.sendAfter);
    const reach = await audienceReach(ctx, n.audience, DEMO_NOTICE_MAX_RECIPIENTS);
    const fits = reach > 0 && reach <= DEMO_NOTICE_MAX_RECIPIENTS;
    const made = await createNotice(ctx, opts.caller(n.by), {
      Kind: n.kind,
      Subject: n.subject,
      Text: n.text,
      Audience: fits ? n.audience : { Type: 'sites', AppIds: opts.sites },
      // Always a time: "now" would start a run after the answer, beside this transaction's work.
      SendAt: sendAt.toISOString(),
    });
    if (sendAt > opts.at) continue;
    clock.set(sendAt);
    await sendDueNotices(ctx);
    if (n.refused) {
      const refused = qb
        .selectFrom('customer_notice_recipients as r')
        .select('r.outbox_id')
        .where('r.notice_id', '=', made.Data.Id)
        .orderBy('r.id')
        .limit(n.refused);
      await execute(
        tx,
        qb
          .updateTable('mail_outbox as o')
          .from(refused.as('f'))
          .set({
            sent_at: null,
            failed_at: sendAt,
            attempts: 1,
            last_error: '550 5.1.1 Recipient address rejected: mailbox unavailable',
          })
          .whereRef('o.id', '=', 'f.outbox_id'),
      );
    }
  }
  clock.set(opts.at);
  return list.length;
}
