import type { Priority, RevokeAction } from '@sac/contract/impersonation';
import { verificationRecordName } from '@sac/contract/site-settings';
import type { AppContext, Caller, StaffSession } from '../app-context.ts';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/db.ts';
import { ManualClock } from '../lib/clock.ts';
import type { StaffCall } from '../lib/endpoint-route.ts';
import { inProcessBus } from '../lib/staff-event-bus.ts';
import type { MailMessage } from '../mail/mailer.ts';
import type { Mailer } from '../mail/outbox.ts';
import { findStaffByEmail, permissionsOfRoles } from '../modules/auth/staff.service.ts';
import { flushCustomerViews, recordCustomerView } from '../modules/dashboard/dashboard.service.ts';
import { sendExpiryNotices } from '../modules/impersonation/expiry-notices.service.ts';
import { answerConsent } from '../modules/impersonation/impersonation-consent.service.ts';
import * as opening from '../modules/impersonation/impersonation-opening.service.ts';
import * as impersonation from '../modules/impersonation/impersonation-requests.service.ts';
import { createDomain, recordPeriodicCheck } from '../modules/site-settings/custom-domains.service.ts';
import type { DemoSiteCredentials } from './demo-customer-data.ts';
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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The demo staff's addresses, as the customer seed's activity has them. */
const STAFF_ADDRESS: Record<string, string> = {
  'superadmin@example.com': '198.51.100.10',
  'admin@example.com': '198.51.100.11',
  'support@example.com': '198.51.100.12',
};
const SA = 'superadmin@example.com';
const AD = 'admin@example.com';
const SU = 'support@example.com';
const CONSOLE_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** The seeding transaction as a Db: a service's own transaction joins it. */
function asDb(tx: Queryable, kind: Db['kind']): Db {
  return {
    kind,
    query: (sql, params) => tx.query(sql, params),
    exec: (sql) => tx.exec(sql),
    transaction: (fn) => fn(tx),
    close: async () => {},
  };
}

/**
 * Keeps the mails of the made-up past (the consent links are read from them) and sends none; a
 * notice's batch goes into the outbox as delivered at the clock's time, for its delivery log.
 */
function keepingMailer(kept: MailMessage[], tx: Queryable, clock: ManualClock): Mailer {
  return {
    send: async (_q, m) => void kept.push(m),
    sendAll: async (_q, ms) => {
      const ids: number[] = [];
      for (const m of ms) {
        const r = await tx.query<{ id: number }>(
          `INSERT INTO mail_outbox (created_at, to_address, subject, body_text, body_html, headers,
             next_attempt_at, attempts, sent_at)
           VALUES ($1, $2, $3, $4, $5, $6, $1, 1, $1) RETURNING id`,
          [
            clock.now(),
            m.to,
            m.subject,
            m.text,
            m.html ?? null,
            m.headers ? JSON.stringify(m.headers) : null,
          ],
        );
        ids.push(Number(r.rows[0]!.id));
      }
      return ids;
    },
    afterAnswer: (work) => void work(),
    flush: async () => {},
    sendDue: async () => {},
    poll: () => {},
    close: () => {},
    description: 'demo seed (not sent)',
  };
}

interface DemoRequest {
  /** Which demo site: a named one, or the nth of the other active sites. */
  site: number | 'difference-engine';
  by: string | 'customer';
  priority: Priority;
  description: string;
  roles: string[];
  permissions?: string[];
  duration: number;
  /** Minutes before the seeding time. */
  askedAgo: number;
  edit?: { ago: number; priority: Priority; description: string };
  consent?: { ago: number; granted: boolean };
  decide?: {
    ago: number;
    status: 'Approve' | 'Reject';
    roles?: string[];
    permissions?: string[];
    duration?: number;
    comments: string;
  };
  revoke?: { ago: number; action: RevokeAction; roles?: string[]; comments: string };
  deleteAgo?: number;
}

/**
 * Every state a request can be in, spread over the demo staff: SuperAdmin has requests awaiting
 * their decision and one of their own; Admin and Support have their own pending requests, live
 * grants and past ones. Sites are distinct where a role is pending or live (one role per site).
 */
const REQUESTS: DemoRequest[] = [
  // Pending, the owner not asked back yet.
  {
    site: 0,
    by: AD,
    priority: 'High',
    description:
      'SAML sign-in loops back to the login page since the IdP certificate was rotated this morning; I need to compare the SSO settings with the new metadata.',
    roles: ['Developer'],
    duration: 120,
    askedAgo: 95,
  },
  {
    site: 1,
    by: SU,
    priority: 'Moderate',
    description:
      'About 40 new users are stuck at email verification (ticket #48213). Read-only look at the registration fields and sign-in mode.',
    roles: ['Analyst'],
    duration: 60,
    askedAgo: 5 * 60,
    edit: {
      ago: 4 * 60,
      priority: 'High',
      description:
        'About 40 new users are stuck at email verification (ticket #48213), now 60 and rising. Read-only look at the registration fields and sign-in mode.',
    },
  },
  // Pending with the owner's consent: ready to approve.
  {
    site: 2,
    by: SU,
    priority: 'Critical',
    description:
      'Production outage: every password sign-in fails with an invalid hash after the customer changed the hashing settings. Owner is on the call.',
    roles: ['Support'],
    permissions: ['ManageSettings'],
    duration: 60,
    askedAgo: 50,
    consent: { ago: 38, granted: true },
  },
  {
    site: 3,
    by: AD,
    priority: 'Low',
    description: 'Quarterly review of the custom objects and their schemas the customer asked us to tidy up.',
    roles: ['Developer', 'Analyst'],
    duration: 240,
    askedAgo: 26 * 60,
    consent: { ago: 20 * 60, granted: true },
  },
  // The SuperAdmin's own request, awaiting another SuperAdmin.
  {
    site: 4,
    by: SA,
    priority: 'Moderate',
    description: 'Check the data-center move to eu-central the customer booked for next week before it runs.',
    roles: ['Administrator'],
    duration: 90,
    askedAgo: 3 * 60,
    consent: { ago: 2 * 60, granted: true },
  },
  // A customer's own request: it carries its consent and goes to every SuperAdmin.
  {
    site: 'difference-engine',
    by: 'customer',
    priority: 'High',
    description:
      'Our webhook deliveries to the CRM stopped yesterday at 14:00 UTC. Could someone look at the integration settings with us?',
    roles: ['Developer'],
    duration: 180,
    askedAgo: 35,
  },
  // Approved and live.
  {
    site: 5,
    by: SU,
    priority: 'High',
    description:
      'Customer cannot find where to turn on MFA for their admins; walk them through it in their site.',
    roles: ['Support'],
    duration: 240,
    askedAgo: 80,
    consent: { ago: 70, granted: true },
    decide: { ago: 40, status: 'Approve', comments: 'Approved for the support call.' },
  },
  {
    site: 6,
    by: AD,
    priority: 'Critical',
    description: 'Broken data-source regex blocks every sign-up form; fix it with the owner watching.',
    roles: ['Developer', 'Analyst'],
    permissions: ['ManageSettings'],
    duration: 120,
    askedAgo: 30,
    consent: { ago: 25, granted: true },
    decide: {
      ago: 10,
      status: 'Approve',
      roles: ['Developer'],
      permissions: ['ManageSettings'],
      duration: 90,
      comments: 'Developer is enough for the regex; an hour and a half.',
    },
  },
  // Approved, then expired.
  {
    site: 7,
    by: SU,
    priority: 'Moderate',
    description:
      'Customer reports their monthly active users figure looks doubled; compare with the raw sign-ins.',
    roles: ['Analyst'],
    duration: 120,
    askedAgo: (6 * DAY) / MINUTE + 30,
    consent: { ago: (6 * DAY) / MINUTE, granted: true },
    decide: { ago: (6 * DAY) / MINUTE - 15, status: 'Approve', comments: '' },
  },
  {
    site: 8,
    by: AD,
    priority: 'High',
    description:
      'Migrate the custom database connection string to the new read replica with the customer DBA.',
    roles: ['Administrator'],
    duration: 180,
    askedAgo: (3 * DAY) / MINUTE + 60,
    consent: { ago: (3 * DAY) / MINUTE + 20, granted: true },
    decide: { ago: (3 * DAY) / MINUTE, status: 'Approve', comments: 'Go ahead; the DBA is expecting you.' },
  },
  // Rejected.
  {
    site: 9,
    by: SU,
    priority: 'Low',
    description: 'Look around the customer team settings to answer a billing question.',
    roles: ['Administrator'],
    duration: 480,
    askedAgo: (2 * DAY) / MINUTE,
    consent: { ago: (2 * DAY) / MINUTE - 60, granted: true },
    decide: {
      ago: (2 * DAY) / MINUTE - 90,
      status: 'Reject',
      comments:
        'Billing questions are answered from the plan info; Administrator is far more than this needs.',
    },
  },
  {
    site: 10,
    by: AD,
    priority: 'Moderate',
    description: 'Review the password policy the customer asked about.',
    roles: ['Analyst'],
    duration: 60,
    askedAgo: (4 * DAY) / MINUTE,
    consent: { ago: (4 * DAY) / MINUTE - 120, granted: false },
    decide: {
      ago: (4 * DAY) / MINUTE - 180,
      status: 'Reject',
      comments: 'The owner declined access; answered by mail instead.',
    },
  },
  // Revoked: some roles (the grant ran on with the rest and expired), all roles, the whole site.
  {
    site: 11,
    by: SU,
    priority: 'High',
    description: 'Reproduce the failing social sign-in with the customer and check the integration keys.',
    roles: ['Developer', 'Support'],
    duration: 480,
    askedAgo: (2 * DAY) / MINUTE + 60,
    consent: { ago: (2 * DAY) / MINUTE + 30, granted: true },
    decide: { ago: (2 * DAY) / MINUTE, status: 'Approve', comments: '' },
    revoke: {
      ago: (2 * DAY) / MINUTE - 60,
      action: 'roles',
      roles: ['Developer'],
      comments: 'Keys checked; Support is enough for the rest of the session.',
    },
  },
  {
    site: 12,
    by: AD,
    priority: 'Moderate',
    description: 'Adjust the lockout settings after a credential-stuffing wave.',
    roles: ['Developer'],
    duration: 240,
    askedAgo: 30 * 60,
    consent: { ago: 29 * 60, granted: true },
    decide: { ago: 28 * 60, status: 'Approve', comments: '' },
    revoke: { ago: 27 * 60, action: 'roles', roles: ['Developer'], comments: 'Done; taking the role back.' },
  },
  {
    site: 13,
    by: SU,
    priority: 'Critical',
    description: 'Customer believes an admin account was taken over; check recent configuration changes.',
    roles: ['Analyst', 'Support'],
    duration: 720,
    askedAgo: 9 * 60,
    consent: { ago: 8 * 60 + 45, granted: true },
    decide: { ago: 8 * 60 + 30, status: 'Approve', comments: 'Approved; security is informed.' },
    revoke: {
      ago: 7 * 60,
      action: 'site',
      comments: 'The customer asked us to stop: their own security team takes over.',
    },
  },
  // Deleted by its requester.
  {
    site: 14,
    by: AD,
    priority: 'Low',
    description: 'Check the staging URL of the web app.',
    roles: ['Analyst'],
    duration: 30,
    askedAgo: 20 * 60,
    deleteAgo: 19 * 60 + 50,
  },
];

/**
 * Custom domains: verified, pending and never checked, pending with a failed check, and verified
 * but failing its daily re-check since this morning (the records were changed).
 */
const DOMAINS: Array<{
  site: number;
  host: string;
  ago: number;
  checks: Array<{ ago: number; ok: boolean }>;
}> = [
  // Verified long ago, re-checked this morning: not due again for most of a day (these names do
  // not resolve, so the re-checks of a running demo mark them failing once they are due).
  {
    site: 5,
    host: 'login',
    ago: 40 * DAY,
    checks: [
      { ago: 40 * DAY - HOUR, ok: true },
      { ago: 2 * HOUR, ok: true },
    ],
  },
  {
    site: 6,
    host: 'id',
    ago: 12 * DAY,
    checks: [
      { ago: 12 * DAY - 2 * HOUR, ok: true },
      { ago: 5 * HOUR, ok: true },
    ],
  },
  { site: 7, host: 'accounts', ago: 3 * HOUR, checks: [] },
  { site: 8, host: 'auth', ago: 2 * DAY, checks: [{ ago: 20 * MINUTE, ok: false }] },
  { site: 9, host: 'sso', ago: 5 * DAY, checks: [{ ago: 2 * HOUR, ok: false }] },
  {
    site: 10,
    host: 'www',
    ago: 90 * DAY,
    checks: [
      { ago: 90 * DAY - HOUR, ok: true },
      { ago: 26 * HOUR, ok: true },
      { ago: 3 * HOUR, ok: false },
    ],
  },
];

/** What each demo staff member opened last, newest first. */
const VIEWED: Record<string, number[]> = { [SA]: [0, 2, 5, 6], [AD]: [6, 0, 3, 8], [SU]: [2, 1, 5, 7, 13] };

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
  // Only what these services read of the context: the database, the clock, the mailer, the
  // staff notifications' bus, the settings (a service reaching for more fails the seed test at once).
  const ctx = {
    config: opts.config,
    db: asDb(tx, opts.kind),
    clock,
    mailer: keepingMailer(mails, tx, clock),
    crypto: opts.crypto,
    // The notifications these steps make are kept; no console is listening yet.
    staffEvents: inProcessBus(),
  } as Partial<AppContext> as AppContext;
  const at = (minutesAgo: number) => clock.set(new Date(opts.at.getTime() - minutesAgo * MINUTE));

  const staff = new Map<string, StaffSession>();
  for (const email of [SA, AD, SU]) {
    const s = await findStaffByEmail(tx, email);
    if (!s) throw new Error(`no demo staff ${email}`);
    const permissions = new Set(await permissionsOfRoles(tx, s.roles));
    staff.set(email, { sessionId: 0, uid: s.uid, email, name: s.full_name, roles: s.roles, permissions });
  }
  const caller = (email: string): StaffCall => ({
    session: staff.get(email)!,
    clientAddress: STAFF_ADDRESS[email]!,
    userAgent: CONSOLE_AGENT,
  });
  const ownerCaller: Caller = { session: undefined, clientAddress: '203.0.113.77', userAgent: CONSOLE_AGENT };

  // Active sites of active customers other than the two named ones (those are the tests' and
  // the README's), in a fixed order.
  const sites = (
    await tx.query<{ app_id: number; app_name: string; owner_uid: string }>(
      `SELECT s.app_id, s.app_name, s.owner_uid FROM sites s JOIN customers c ON c.uid = s.owner_uid
        WHERE s.status = 'active' AND c.status = 'Active' AND s.plan <> 'Free'
          AND s.app_name NOT IN ('analytical-engine', 'difference-engine')
        ORDER BY s.app_name LIMIT 16`,
    )
  ).rows;
  const charles = (
    await tx.query<{ app_id: number; owner_uid: string }>(
      "SELECT app_id, owner_uid FROM sites WHERE app_name = 'difference-engine'",
    )
  ).rows[0]!;

  // Every step of every request, in the order of time (ids and log entries then follow it too).
  const steps: Array<{ ago: number; run: () => Promise<void> }> = [];
  for (const r of REQUESTS) {
    let id = 0;
    const appId = r.site === 'difference-engine' ? Number(charles.app_id) : Number(sites[r.site]!.app_id);
    steps.push({
      ago: r.askedAgo,
      run: async () => {
        if (r.by === 'customer') {
          const key = opts.credentials.find((c) => c.name === r.site)!;
          const out = await opening.customerRequest(ctx, ownerCaller, {
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
          id = out.Data.Id;
          return;
        }
        const sent = mails.length;
        const out = await opening.create(ctx, caller(r.by), {
          data: {
            AppId: appId,
            Priority: r.priority,
            Description: r.description,
            Assignees: [SA],
            ProxyRoles: r.roles,
            AdditionalPermissions: r.permissions ?? [],
            Duration: r.duration,
          },

          origin: undefined,
        });
        id = out.Data.Id;
        if (r.consent) {
          // The owner's answer, by the link in the consent mail this request sent.
          const link = mails
            .slice(sent)
            .map((m) => /\/impersonation\/consent\?token=([\w-]+)/.exec(m.text)?.[1])
            .find(Boolean);
          if (!link) throw new Error('the demo request sent no consent link');
          const { granted } = r.consent;
          steps.push({
            ago: r.consent.ago,
            run: async () => void (await answerConsent(ctx, ownerCaller, { token: link, granted })),
          });
          steps.sort((a, b) => b.ago - a.ago);
        }
      },
    });
    if (r.edit) {
      const e = r.edit;
      const by = r.by;
      steps.push({
        ago: e.ago,
        run: async () =>
          void (await impersonation.edit(ctx, caller(by), {
            requestId: id,
            ProxyRoles: r.roles,
            AdditionalPermissions: r.permissions ?? [],
            Assignees: [SA],
            Priority: e.priority,
            Description: e.description,
          })),
      });
    }
    if (r.decide) {
      const d = r.decide;
      steps.push({
        ago: d.ago,
        run: async () =>
          void (await impersonation.act(ctx, caller(SA), {
            requestId: id,
            revokeAction: undefined,
            body:
              d.status === 'Approve'
                ? {
                    Status: 'Approve',
                    ProxyRoles: d.roles ?? r.roles,
                    AdditionalPermissions: d.permissions ?? r.permissions ?? [],
                    Duration: d.duration ?? r.duration,
                    Comments: d.comments,
                  }
                : { Status: 'Reject', Comments: d.comments },
          })),
      });
    }
    if (r.revoke) {
      const v = r.revoke;
      steps.push({
        ago: v.ago,
        run: async () =>
          void (await impersonation.act(ctx, caller(SA), {
            requestId: id,
            revokeAction: v.action,
            body: {
              Status: 'Revoke',
              ProxyRoles: v.roles ?? [],
              AdditionalPermissions: [],
              Comments: v.comments,
            },
          })),
      });
    }
    if (r.deleteAgo !== undefined) {
      const by = r.by;
      steps.push({
        ago: r.deleteAgo,
        run: async () => void (await impersonation.remove(ctx, caller(by), { requestId: id })),
      });
    }
  }
  // Oldest first; a step may add a later one (the consent, once its link exists).
  steps.sort((a, b) => b.ago - a.ago);
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    at(step.ago);
    await step.run();
  }
  // The grants that have ended got their notices (the job's claim; the mails are not sent).
  clock.set(opts.at);
  await sendExpiryNotices(ctx);

  for (const d of DOMAINS) {
    const site = sites[d.site]!;
    const domain = `${d.host}.${site.app_name.replace(/-/g, '')}.example`;
    clock.set(new Date(opts.at.getTime() - d.ago));
    await createDomain(
      ctx,
      { ...caller(AD), session: staff.get(AD)! },
      { uid: site.owner_uid, appId: Number(site.app_id), domain },
    );
    for (const check of d.checks) {
      clock.set(new Date(opts.at.getTime() - check.ago));
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

  for (const [email, picks] of Object.entries(VIEWED)) {
    for (const [k, n] of [...picks].reverse().entries()) {
      at((picks.length - k) * 47);
      recordCustomerView(ctx, staff.get(email), sites[n]!.owner_uid);
    }
  }
  await flushCustomerViews(ctx);
  const notices = await seedDemoNotices(tx, ctx, clock, {
    at: opts.at,
    caller,
    by: { sa: SA, ad: AD },
    sites: sites.map((s) => s.app_id),
  });
  clock.set(opts.at);
  return { requests: REQUESTS.length, domains: DOMAINS.length, notices };
}
