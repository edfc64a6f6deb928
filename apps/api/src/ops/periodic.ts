import { GRANT_EXPIRING_NOTICE_MS } from '@sac/contract/staff-notifications';
import type { AppContext } from '../app-context.ts';
import { flushRefusals, REFUSAL_FOLD_MS } from '../modules/activity/activity.service.ts';
import { configuredSinks, trailStreamJob } from '../modules/audit/trail-stream.service.ts';
import { bulkRunnerJob } from '../modules/bulk/bulk.service.ts';
import { retireLapsedSecrets } from '../modules/customers/customer-writes.service.ts';
import { sendExpiryNotices } from '../modules/impersonation/expiry-notices.service.ts';
import { sendDueNotices } from '../modules/notices/notices.service.ts';
import { recheckDomains } from '../modules/site-settings/custom-domains.service.ts';
import {
  notifyExpiringGrants,
  pruneNotifications,
} from '../modules/staff-notifications/staff-notifications.service.ts';
import { expireOverdueRoles } from '../modules/team/access-review.service.ts';
import { pruneWebhookLog, webhookJob } from '../modules/webhooks/webhook-delivery.service.ts';
import type { PeriodicJob } from './jobs.ts';

/** The API's periodic work, each at its configured interval (0 leaves it out). */
export function periodicJobs(ctx: AppContext): PeriodicJob[] {
  const jobs: PeriodicJob[] = [];
  // Custom domains are looked up again now and then: a customer's DNS change shows, and so do
  // verified domains whose records broke later (DOMAIN_VERIFIED_RECHECK_HOURS).
  if (ctx.config.domainRecheckMs > 0) {
    jobs.push({
      name: 'domain-recheck',
      everyMs: ctx.config.domainRecheckMs,
      run: () => recheckDomains(ctx),
    });
  }
  if (ctx.config.expiryNoticeMs > 0) {
    jobs.push({
      name: 'impersonation-expiry-notices',
      everyMs: ctx.config.expiryNoticeMs,
      run: async () => ctx.metrics.expiryNotices.inc(await sendExpiryNotices(ctx)),
    });
  }
  // "Grant expiring in 15 minutes", to its holder, at the expiry notices' pace.
  if (ctx.config.expiryNoticeMs > 0) {
    jobs.push({
      name: 'grant-expiring-notifications',
      everyMs: ctx.config.expiryNoticeMs,
      run: () => notifyExpiringGrants(ctx, GRANT_EXPIRING_NOTICE_MS),
    });
  }
  // A rotated site secret's grace ends: the old hash is forgotten and its end logged.
  if (ctx.config.secretRetireMs > 0) {
    jobs.push({
      name: 'site-secret-retire',
      everyMs: ctx.config.secretRetireMs,
      run: async () => void (await retireLapsedSecrets(ctx)),
    });
  }
  // Due customer notices are started and queued a batch at a time; the outbox sends them.
  if (ctx.config.noticeSendMs > 0) {
    jobs.push({
      name: 'customer-notices',
      everyMs: ctx.config.noticeSendMs,
      run: async () => void (await sendDueNotices(ctx)),
    });
  }
  // Staff notifications are kept STAFF_NOTIFICATION_RETENTION_DAYS; older ones go once an hour.
  if (ctx.config.staffNotificationRetentionMs > 0) {
    jobs.push({
      name: 'staff-notification-retention',
      everyMs: NOTIFICATION_PRUNE_EVERY_MS,
      run: async () => void (await pruneNotifications(ctx)),
    });
  }
  // The staff trail goes to the operator's SIEM (syslog, HTTP collector) as it is written.
  const sinks = configuredSinks(ctx);
  if (sinks.length > 0) {
    jobs.push(trailStreamJob(ctx, sinks, ctx.config.trailStream.everyMs));
  }
  // Webhooks: the trail's new events queued per subscription, and what is due posted.
  jobs.push(webhookJob(ctx));
  jobs.push({ name: 'webhook-log-retention', everyMs: 3_600_000, run: () => pruneWebhookLog(ctx) });
  // The periodic access review: overdue members lose their roles, when the operator turned it on.
  if (ctx.config.accessReview.autoRevoke) {
    jobs.push({
      name: 'access-review-expire',
      everyMs: ACCESS_REVIEW_CHECK_EVERY_MS,
      run: async () => void (await expireOverdueRoles(ctx)),
    });
  }
  // Bulk jobs (modules/bulk): run item by item as soon as one is queued or approved.
  jobs.push(bulkRunnerJob(ctx));
  // Folded repeats of refused staff calls are written to the trail once their window has closed.
  jobs.push({
    name: 'refusal-fold',
    everyMs: REFUSAL_FOLD_MS,
    run: async () => void (await flushRefusals(ctx.db, ctx.clock.now())),
  });
  return jobs;
}

const NOTIFICATION_PRUNE_EVERY_MS = 3_600_000;
/** How often overdue access reviews are looked for (the period is counted in days). */
const ACCESS_REVIEW_CHECK_EVERY_MS = 3_600_000;
