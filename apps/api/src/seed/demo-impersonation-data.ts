import type { Priority, RevokeAction } from '@sac/contract/impersonation';

/*
 * What the demo's impersonation history is made of (impersonation-seed.ts makes it through the
 * API's services): the requests and each step of them, the custom domains with their checks, and
 * the customers each demo staff member viewed last. Times are minutes (requests) or milliseconds
 * (domains) before the seeding time; sites are the nth of the demo's chosen active sites.
 */

export const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The demo staff's addresses, as the customer seed's activity has them. */
export const STAFF_ADDRESS: Record<string, string> = {
  'superadmin@example.com': '198.51.100.10',
  'admin@example.com': '198.51.100.11',
  'support@example.com': '198.51.100.12',
  'oncall@example.com': '198.51.100.13',
};
export const SA = 'superadmin@example.com';
export const AD = 'admin@example.com';
export const SU = 'support@example.com';
/** The second SuperAdmin: break-glass needs another SuperAdmin to review it. */
export const ON = 'oncall@example.com';
export const CONSOLE_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

export interface DemoRequest {
  /** Which demo site: a named one, or the nth of the other active sites. */
  site: number | 'difference-engine';
  by: string | 'customer';
  priority: Priority;
  description: string;
  /** The reason code and case (access-reasons.ts); default support-ticket and no case. */
  reason?: string;
  caseRef?: string;
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
export const REQUESTS: DemoRequest[] = [
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
    reason: 'production-incident',
    caseRef: 'INC-2291',
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
    reason: 'billing',
    caseRef: 'SUP-1042',
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
    reason: 'bug-investigation',
    caseRef: 'BUG-8812',
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
    reason: 'security-incident',
    caseRef: 'SEC-311',
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
    reason: 'security-review',
    caseRef: 'SEC-317',
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
export const DOMAINS: Array<{
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
export const VIEWED: Record<string, number[]> = {
  [SA]: [0, 2, 5, 6],
  [AD]: [6, 0, 3, 8],
  [SU]: [2, 1, 5, 7, 13],
};

/**
 * Break-glass access on the one demo site no request uses (the 16th): one reviewed (Sam opened it
 * three days ago, the on-call SuperAdmin closed its review that evening), one still open
 * (opened by the on-call SuperAdmin this morning, for Sam to review). Both grants have ended.
 */
export const BREAK_GLASS: Array<{
  by: string;
  reason: 'production-incident' | 'security-incident' | 'legal-request';
  caseRef: string;
  description: string;
  minutes: number;
  ago: number;
  review?: { by: string; ago: number; note: string };
}> = [
  {
    by: SA,
    reason: 'security-incident',
    caseRef: 'SEC-2207',
    description: 'Leaked API key in a public repository: rotating it before the owner wakes up.',
    minutes: 30,
    ago: (3 * DAY) / MINUTE,
    review: {
      by: ON,
      ago: (2 * DAY) / MINUTE + 14 * 60,
      note: 'Checked the session log: only the key rotation was done; the owner was told and agreed.',
    },
  },
  {
    by: ON,
    reason: 'production-incident',
    caseRef: 'INC-3141',
    description: 'Checkout fails for every visitor since the last deploy.',
    minutes: 20,
    ago: 5 * 60,
  },
];
