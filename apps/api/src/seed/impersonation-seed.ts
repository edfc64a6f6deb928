import { verificationRecordName } from '@sac/contract/site-settings';
import type { AppContext, Caller, StaffSession } from '../app-context.ts';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/db.ts';
import { firstRow, qb, rows } from '../db/sql.ts';
import { ManualClock } from '../lib/clock.ts';
import type { StaffCall } from '../lib/endpoint-route.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { flushCustomerViews, recordCustomerView } from '../modules/dashboard/dashboard.service.ts';
import * as breakGlass from '../modules/impersonation/break-glass.service.ts';
import { sendExpiryNotices } from '../modules/impersonation/expiry-notices.service.ts';
import { answerConsent } from '../modules/impersonation/impersonation-consent.service.ts';
import * as opening from '../modules/impersonation/impersonation-opening.service.ts';
import * as impersonation from '../modules/impersonation/impersonation-requests.service.ts';
import { createDomain, recordPeriodicCheck } from '../modules/site-settings/custom-domains.service.ts';
import type { DemoSiteCredentials } from './demo-customer-data.ts';
import {
  AD,
  BREAK_GLASS,
  CONSOLE_AGENT,
  type DemoRequest,
  DOMAINS,
  MINUTE,
  ON,
  REQUESTS,
  SA,
  SU,
  VIEWED,
} from './demo-impersonation-data.ts';
import { demoServiceContext, demoStaffCallers } from './demo-service-context.ts';
import { seedDemoNotices } from './notices-seed.ts';

/*
 * Demo impersonation requests, custom domains and recently viewed customers, made through the
 * API's own services (the request, consent, decision and revoke calls, the domain calls, the
 * expiry-notice job) under a clock set to each step's moment: versions, the impersonation log,
 * the staff audit trail, the dashboard's counters and every derived column are what the API
 * itself writes. Times are relative to the seeding time, so a live grant is live after the first
 * start. Mail of these past steps is not sent: a first start does not mail 'customers' about a
 * history made up for the demo.
 */

/** One step of a request at its moment (minutes before the seeding time). */
interface Step {
  ago: number;
  run: () => Promise<void>;
}

/** What the steps of the requests call the services with. */
interface Requests {
  ctx: AppContext;
  /** Every mail the steps sent so far (the consent links are read from them). */
  mails: MailMessage[];
  caller(email: string): StaffCall;
  ownerCaller: Caller;
  credentials: DemoSiteCredentials[];
}

export async function seedDemoImpersonation(
  tx: Queryable,
  opts: {
    at: Date;
    config: Config;
    kind: Db['kind'];
    credentials: DemoSiteCredentials[];
    crypto: AppContext['crypto'];
  },
): Promise<{ requests: number; domains: number; notices: number }> {
  const clock = new ManualClock(opts.at);
  const mails: MailMessage[] = [];
  const ctx = demoServiceContext(tx, opts, clock, mails);
  const { sessions, caller } = await demoStaffCallers(tx, [SA, AD, SU, ON]);
  const ownerCaller: Caller = { session: undefined, clientAddress: '203.0.113.77', userAgent: CONSOLE_AGENT };
  const { sites, charles } = await demoSites(tx);

  const requests: Requests = { ctx, mails, caller, ownerCaller, credentials: opts.credentials };
  const steps: Step[] = [];
  for (const r of REQUESTS) {
    const appId = r.site === 'difference-engine' ? Number(charles.app_id) : Number(sites[r.site]!.app_id);
    stepsOfRequest(requests, r, appId, steps);
  }
  if (opts.config.breakGlassEnabled) breakGlassSteps(ctx, caller, Number(sites[15]!.app_id), steps);
  await runInTimeOrder(steps, clock, opts.at);
  // The grants that have ended got their notices (the job's claim; the mails are not sent).
  clock.set(opts.at);
  await sendExpiryNotices(ctx);

  await seedDemoDomains(ctx, clock, opts.at, sites, { ...caller(AD), session: sessions.get(AD)! });
  await seedRecentViews(ctx, clock, opts.at, sessions, sites);
  const notices = await seedDemoNotices(tx, ctx, clock, {
    at: opts.at,
    caller,
    by: { sa: SA, ad: AD },
    sites: sites.map((s) => s.app_id),
  });
  clock.set(opts.at);
  return { requests: REQUESTS.length, domains: DOMAINS.length, notices };
}

/**
 * Active sites of active customers other than the two named ones (those are the tests' and the
 * README's), in a fixed order; and Charles's named site, which gets a customer's own request.
 */
async function demoSites(tx: Queryable) {
  const sites = await rows(
    tx,
    qb
      .selectFrom('sites as s')
      .innerJoin('customers as c', 'c.uid', 's.owner_uid')
      .select(['s.app_id', 's.app_name', 's.owner_uid'])
      .where('s.status', '=', 'active')
      .where('c.status', '=', 'Active')
      .where('s.plan', '<>', 'Free')
      .where('s.app_name', 'not in', ['analytical-engine', 'difference-engine'])
      .orderBy('s.app_name')
      .limit(16),
  );
  const charles = await firstRow(
    tx,
    qb.selectFrom('sites').select(['app_id', 'owner_uid']).where('app_name', '=', 'difference-engine'),
  );
  return { sites, charles: charles! };
}

type DemoSite = Awaited<ReturnType<typeof demoSites>>['sites'][number];

/** Every step of one request; the asking step adds the owner's consent once its link exists. */
function stepsOfRequest(env: Requests, r: DemoRequest, appId: number, steps: Step[]): void {
  const made = { id: 0 };
  steps.push({ ago: r.askedAgo, run: () => ask(env, r, appId, made, steps) });
  const { edit, decide, revoke } = r;
  if (edit) {
    steps.push({
      ago: edit.ago,
      run: async () =>
        void (await impersonation.edit(env.ctx, env.caller(r.by), {
          requestId: made.id,
          ProxyRoles: r.roles,
          AdditionalPermissions: r.permissions ?? [],
          Assignees: [SA],
          Priority: edit.priority,
          Description: edit.description,
          ReasonCode: r.reason ?? 'support-ticket',
          CaseReference: r.caseRef ?? '',
        })),
    });
  }
  if (decide) {
    steps.push({
      ago: decide.ago,
      run: async () =>
        void (await impersonation.act(env.ctx, env.caller(SA), {
          requestId: made.id,
          revokeAction: undefined,
          body: decision(r, decide),
        })),
    });
  }
  if (revoke) {
    steps.push({
      ago: revoke.ago,
      run: async () =>
        void (await impersonation.act(env.ctx, env.caller(SA), {
          requestId: made.id,
          revokeAction: revoke.action,
          body: {
            Status: 'Revoke',
            ProxyRoles: revoke.roles ?? [],
            AdditionalPermissions: [],
            Comments: revoke.comments,
          },
        })),
    });
  }
  if (r.deleteAgo !== undefined) {
    steps.push({
      ago: r.deleteAgo,
      run: async () => void (await impersonation.remove(env.ctx, env.caller(r.by), { requestId: made.id })),
    });
  }
}

/** The demo's break-glass access (BREAK_GLASS): each opening and, where there is one, its review. */
function breakGlassSteps(
  ctx: AppContext,
  caller: (email: string) => StaffCall,
  appId: number,
  steps: Step[],
): void {
  for (const b of BREAK_GLASS) {
    const made = { id: 0 };
    steps.push({
      ago: b.ago,
      run: async () => {
        const out = await breakGlass.open(ctx, caller(b.by), {
          AppId: appId,
          ReasonCode: b.reason,
          CaseReference: b.caseRef,
          Description: b.description,
          ProxyRoles: ['Developer'],
          AdditionalPermissions: [],
          Duration: b.minutes,
          origin: undefined,
        });
        made.id = out.Data.Id;
      },
    });
    const review = b.review;
    if (review)
      steps.push({
        ago: review.ago,
        run: async () =>
          void (await breakGlass.close(ctx, caller(review.by), { RequestId: made.id, Note: review.note })),
      });
  }
}

/** The SuperAdmin's decision: an approval (as asked, unless it says otherwise) or a rejection. */
function decision(r: DemoRequest, d: NonNullable<DemoRequest['decide']>) {
  return d.status === 'Approve'
    ? {
        Status: 'Approve' as const,
        ProxyRoles: d.roles ?? r.roles,
        AdditionalPermissions: d.permissions ?? r.permissions ?? [],
        Duration: d.duration ?? r.duration,
        Comments: d.comments,
      }
    : { Status: 'Reject' as const, Comments: d.comments };
}

/**
 * The request itself: a customer's own through its site's API key, else a staff member's; a
 * staff request's consent mail gives the link the owner answers by (a later step).
 */
async function ask(
  env: Requests,
  r: DemoRequest,
  appId: number,
  made: { id: number },
  steps: Step[],
): Promise<void> {
  if (r.by === 'customer') {
    const key = env.credentials.find((c) => c.name === r.site)!;
    const out = await opening.customerRequest(env.ctx, env.ownerCaller, {
      data: {
        Priority: r.priority,
        Description: r.description,
        ProxyRoles: r.roles,
        AdditionalPermissions: r.permissions ?? [],
        Duration: r.duration,
      },
      apiKey: key.apiKey,
      apiSecret: key.secret,
      origin: undefined,
    });
    made.id = out.Data.Id;
    return;
  }
  const sent = env.mails.length;
  const out = await opening.create(env.ctx, env.caller(r.by), {
    data: {
      AppId: appId,
      Priority: r.priority,
      Description: r.description,
      ReasonCode: r.reason ?? 'support-ticket',
      CaseReference: r.caseRef ?? '',
      Assignees: [SA],
      ProxyRoles: r.roles,
      AdditionalPermissions: r.permissions ?? [],
      Duration: r.duration,
    },

    origin: undefined,
  });
  made.id = out.Data.Id;
  if (r.consent) {
    // The owner's answer, by the link in the consent mail this request sent.
    const link = env.mails
      .slice(sent)
      .map((m) => /\/impersonation\/consent\?token=([\w-]+)/.exec(m.text)?.[1])
      .find(Boolean);
    if (!link) throw new Error('the demo request sent no consent link');
    const { granted } = r.consent;
    steps.push({
      ago: r.consent.ago,
      run: async () => void (await answerConsent(env.ctx, env.ownerCaller, { token: link, granted })),
    });
    steps.sort((a, b) => b.ago - a.ago);
  }
}

/** Oldest first, each at its moment; a step may add a later one (the consent, once its link exists). */
async function runInTimeOrder(steps: Step[], clock: ManualClock, at: Date): Promise<void> {
  steps.sort((a, b) => b.ago - a.ago);
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    clock.set(new Date(at.getTime() - step.ago * MINUTE));
    await step.run();
  }
}

/** The demo's custom domains, each added by Admin, with what its checks found. */
async function seedDemoDomains(
  ctx: AppContext,
  clock: ManualClock,
  at: Date,
  sites: DemoSite[],
  admin: StaffCall,
): Promise<void> {
  for (const d of DOMAINS) {
    const site = sites[d.site]!;
    const domain = `${d.host}.${site.app_name.replace(/-/g, '')}.example`;
    clock.set(new Date(at.getTime() - d.ago));
    await createDomain(ctx, admin, { uid: site.owner_uid, appId: Number(site.app_id), domain });
    for (const check of d.checks) {
      clock.set(new Date(at.getTime() - check.ago));
      // What the periodic check found (a first start looks nothing up: these names do not resolve).
      await recordPeriodicCheck(
        ctx,
        domain,
        check.ok
          ? { ok: true, result: 'The CNAME and the TXT verification token are in place.' }
          : {
              ok: false,
              result: `No CNAME record for ${domain} was found (ENOTFOUND). No TXT record ${verificationRecordName(domain)} was found (ENOTFOUND).`,
            },
      );
    }
  }
}

/** The customers each demo staff member opened last, 47 minutes apart. */
async function seedRecentViews(
  ctx: AppContext,
  clock: ManualClock,
  at: Date,
  sessions: Map<string, StaffSession>,
  sites: DemoSite[],
): Promise<void> {
  for (const [email, picks] of Object.entries(VIEWED)) {
    for (const [k, n] of [...picks].reverse().entries()) {
      clock.set(new Date(at.getTime() - (picks.length - k) * 47 * MINUTE));
      recordCustomerView(ctx, sessions.get(email), sites[n]!.owner_uid);
    }
  }
  await flushCustomerViews(ctx);
}
