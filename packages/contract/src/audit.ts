import { z } from 'zod';
import { AUDIT_EXPORT_SORT_KEYS, AUDIT_SORT_KEYS, sortQueryField } from './list-sort.ts';
import { decimalInteger } from './validation.ts';

/**
 * The staff audit trail: every staff event and every write made through the console, read back
 * with filters, keyset-paged newest first, and exported as CSV or JSON lines whose rows carry a
 * hash chain signed by the server (docs/decisions.md).
 */

/** What the activity log records; impersonation steps are 'impersonation.<step>'. */
const ACTIVITY_ACTIONS = [
  'login.success',
  'login.failed',
  'login.lockout',
  'login.throttled',
  'logout',
  'session.end',
  'password.forgot',
  'password.reset',
  'password.reset.failed',
  'password.change',
  'password.change.failed',
  'login.second-step',
  // Single sign-on (OpenID Connect): a sign-in through the provider, one it refused or we refused
  // (a bad token, an unknown or unmatched account), and a password sign-in of the break-glass
  // account while password sign-in is off.
  'login.sso',
  'login.sso.refused',
  'login.break-glass',
  'mfa.failed',
  'mfa.success',
  'mfa.enrol',
  'mfa.remove',
  'mfa.rename',
  'mfa.reset',
  'recovery.used',
  'recovery.renew',
  // A sensitive action's confirmation (docs/decisions.md, "Step-up"): a right or a wrong proof.
  'stepup.success',
  'stepup.failed',
  'team.create',
  'team.roles',
  'team.delete',
  // an invitation sent again (a new link; the old one void), by one member's bulk item
  'team.invite.resend',
  'team.sso.settings',
  // Periodic access review: a SuperAdmin confirms or removes a member's roles; the automatic
  // removal of an overdue member's roles (ACCESS_REVIEW_AUTO_REVOKE, no staff actor).
  'team.review.confirm',
  'team.review.revoke',
  'team.review.expire',
  'team.service-account.create',
  // Custom roles (a SuperAdmin's definitions; details hold the role before and after)
  'role.create',
  'role.update',
  'role.delete',
  'token.create',
  'token.revoke',
  // SCIM provisioning (docs/operations.md, "Provisioning (SCIM)")
  'scim.user.create',
  'scim.user.replace',
  'scim.user.patch',
  'scim.user.deactivate',
  'scim.user.delete',
  'scim.group.create',
  'scim.group.replace',
  'scim.group.patch',
  'scim.group.delete',
  'scim.token.create',
  'scim.token.revoke',
  'allowlist.save',
  'customer.create',
  'customer.profile.update',
  'customer.password.reset',
  'customer.email.verify',
  'site.create',
  'site.basicsettings',
  'site.features',
  'site.datacenter',
  'site.secret.rotate',
  'site.secret.retire',
  'site.activate',
  'site.deactivate',
  'site.customobject.create',
  'site.customobject.delete',
  'site.customobject.schema',
  'site.customdomain.create',
  'site.customdomain.delete',
  'site.customdomain.verify',
  'site.appsettings',
  'site.security',
  'site.encryption',
  'site.fields',
  'site.datasource',
  'audit.export',
  'customers.export',
  'impersonation-requests.export',
  'impersonation-logs.export',
  'access-review.export',
  'notice.create',
  'notice.schedule',
  'notice.cancel',
  // Written by the sending job when a notice starts (its actor is the staff member who wrote it).
  'notice.send',
  // An owner's unsubscribe link (no staff actor): the address stops getting announcements.
  'notice.unsubscribe',
  'notifications.preferences',
  // Written by the platform's own services (the demo data has them), not by this console.
  'customer.status.update',
  'site.member.add',
  // A refused staff call (403, or 401 on a session that ended): the first of a window, or the
  // repeats after it folded into one row with their count (details.count).
  'access.refused',
  // Webhook subscriptions (webhooks.ts): made, changed, paused (by a SuperAdmin, or by the
  // console when it has failed too long), resumed, a secret rotated, a test or a redelivery.
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.pause',
  'webhook.resume',
  'webhook.rotate',
  'webhook.test',
  'webhook.redeliver',
  // Bulk actions (bulk.ts): a job started (its action, selection, count), approved, cancelled, or
  // failed when it came to run (its requester may no longer run it: the reason); each item's own
  // row is the single action's, naming the job (details.bulkJob). An undo is a job too.
  'bulk.start',
  'bulk.approve',
  'bulk.cancel',
  'bulk.fail',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** The steps of an impersonation request, as impersonation_log names them. */
const IMPERSONATION_STEPS = [
  'request',
  'customer-request',
  'consent-granted',
  'consent-denied',
  'edit',
  'delete',
  'approve',
  'reject',
  'revoke',
  'session-start',
  'call',
  'call-refused',
  // a grant's time ran out (written once, by the expiry notices' job)
  'expire',
  // break-glass access (break-glass.ts): its opening, who was told of it, its review closed with a note
  'break-glass',
  'break-glass-told',
  'break-glass-review',
] as const;
export type ImpersonationStep = (typeof IMPERSONATION_STEPS)[number];

/** Every action the trail can hold, for its action filter. */
export const AUDIT_ACTIONS = [
  ...ACTIVITY_ACTIONS,
  ...IMPERSONATION_STEPS.map((s) => `impersonation.${s}` as const),
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * What came of an action. The trail has no result column: each action code names one outcome, so
 * the result is read from the code. Refused: the console or the sign-in guard turned the call
 * away (a permission, a lock, a throttle, an impersonation call outside its scope). Failed: the
 * caller's own input was wrong (a password, a code). Done: every other action, which the trail
 * only writes once the change is made.
 */
export const AUDIT_RESULTS = ['done', 'refused', 'failed'] as const;
export type AuditResult = (typeof AUDIT_RESULTS)[number];
export const REFUSED_ACTIONS = [
  'access.refused',
  'login.lockout',
  'login.throttled',
  'login.sso.refused',
  'impersonation.call-refused',
] as const satisfies readonly AuditAction[];
export const FAILED_ACTIONS = [
  'login.failed',
  'mfa.failed',
  'password.reset.failed',
  'password.change.failed',
  'stepup.failed',
] as const satisfies readonly AuditAction[];
export function auditResultOf(action: string): AuditResult {
  if ((REFUSED_ACTIONS as readonly string[]).includes(action)) return 'refused';
  if ((FAILED_ACTIONS as readonly string[]).includes(action)) return 'failed';
  return 'done';
}

export const AUDIT_PAGE_SIZE = 50;
/** Free text matches through trigrams: shorter terms would read the whole trail. */
const AUDIT_TEXT_MIN = 3;
const AUDIT_TEXT_MAX = 100;
/** Exports one instance streams at once; more wait for one to end (429). */
export const AUDIT_EXPORTS_AT_ONCE = 2;
const AUDIT_EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];
/** Names the export format and its chain, in the first line of JSON lines and the last of both. */
export const AUDIT_EXPORT_VERSION = 'sac-audit-v1';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const instant = (label: string) =>
  z
    .string()
    .max(40)
    .refine(
      (v) => ISO_INSTANT.test(v) && !Number.isNaN(Date.parse(v)),
      `${label} must be a date and time (ISO 8601).`,
    );

/** The filters of the list and the export; all optional, combined with AND. */
const filterShape = {
  /** The actor's email, any case, exactly. */
  actor: z.string().trim().max(254, 'actor is at most 254 characters.').optional(),
  action: z.enum(AUDIT_ACTIONS, { error: 'action is not an action of the trail.' }).optional(),
  customer: z.string().uuid('customer is not a valid customer id.').optional(),
  appId: decimalInteger(
    z
      .number({ error: 'appId must be a number.' })
      .int('appId must be a whole number.')
      .min(1, 'appId must be a site id.')
      .max(Number.MAX_SAFE_INTEGER, 'appId must be a site id.'),
  ).optional(),
  from: instant('from').optional(),
  to: instant('to').optional(),
  /** done, refused or failed (see AUDIT_RESULTS). */
  result: z.enum(AUDIT_RESULTS, { error: 'result must be done, refused or failed.' }).optional(),
  q: z
    .string()
    .trim()
    .min(AUDIT_TEXT_MIN, `Type at least ${AUDIT_TEXT_MIN} characters to search the trail.`)
    .max(AUDIT_TEXT_MAX, `Search for at most ${AUDIT_TEXT_MAX} characters.`)
    .optional(),
};
const rangeInOrder = (f: { from?: string; to?: string }) =>
  !f.from || !f.to || Date.parse(f.from) <= Date.parse(f.to);
const RANGE_ORDER = { message: 'The start of the date range must not be after its end.', path: ['from'] };
const auditFilters = z.object(filterShape).refine(rangeInOrder, RANGE_ORDER);
export type AuditFilters = z.output<typeof auditFilters>;

/** GET /admin/audit/events */
export const auditEventsQuery = z
  .object({
    ...filterShape,
    /**
     * NextCursor of the previous page, as answered. Under an actor or action sort it carries the
     * row's key (an address of up to 254 characters), hence the room.
     */
    cursor: z
      .string()
      .max(600, 'cursor is not a cursor of this list.')
      .regex(/^[A-Za-z0-9_-]+$/, 'cursor is not a cursor of this list.')
      .optional(),
    /**
     * `-time` newest first (the default), `time` oldest first; `actor` and `action` A to Z, each
     * newest first within (the system's events after every staff member); `-actor` and `-action`
     * the same list read backwards. Ties by Id.
     */
    sort: sortQueryField(AUDIT_SORT_KEYS),
  })
  .refine(rangeInOrder, RANGE_ORDER);

/** A row of the trail as GET /admin/audit/events shows it (and a webhook's `data`). */
export const auditEvent = z.object({
  Id: z.string(),
  At: z.string(),
  ActorUid: z.string().nullable(),
  ActorEmail: z.string().nullable(),
  Action: z.string(),
  TargetType: z.string().nullable(),
  TargetId: z.string().nullable(),
  CustomerUid: z.string().nullable(),
  AppId: z.number().int().nullable(),
  ClientAddress: z.string().nullable(),
  RequestId: z.string().nullable(),
  ImpersonationRequestId: z.number().int().nullable(),
  Details: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof auditEvent>;
/** The fields of an event in the order the export writes and hashes them. */
export const AUDIT_EVENT_FIELDS = [
  'Id',
  'At',
  'ActorUid',
  'ActorEmail',
  'Action',
  'TargetType',
  'TargetId',
  'CustomerUid',
  'AppId',
  'ClientAddress',
  'RequestId',
  'ImpersonationRequestId',
  'Details',
] as const satisfies readonly (keyof AuditEvent)[];

/**
 * A row of the trail as the screen reads it: the event, its result, and the names of what it
 * touched, read with the page (null when the event names no such target). A target since deleted
 * keeps the name the event itself recorded, if any, with TargetGone true.
 */
const auditTrailRow = auditEvent.extend({
  Result: z.enum(AUDIT_RESULTS),
  CustomerName: z.string().nullable(),
  SiteName: z.string().nullable(),
  StaffName: z.string().nullable(),
  /** The customer, site or staff member the event names is no longer there. */
  TargetGone: z.boolean(),
});
export type AuditTrailRow = z.infer<typeof auditTrailRow>;

export const auditEventsResponse = z.object({
  Data: z.array(auditTrailRow),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  NextCursor: z.string().nullable(),
});

/** GET /admin/audit/export */
export const auditExportQuery = z
  .object({
    ...filterShape,
    format: z.enum(AUDIT_EXPORT_FORMATS, { error: 'format must be csv or jsonl.' }),
    /** `time` oldest first (the export's default), `-time` newest first; the chain runs in file order. */
    sort: sortQueryField(AUDIT_EXPORT_SORT_KEYS),
  })
  .refine(rangeInOrder, RANGE_ORDER);
/** The export's body, described for the API document (the file itself is text, streamed). */
export const auditExportResponse = z.string();

/** GET /admin/audit/signing-key: the public key that verifies exports (Ed25519, PEM). */
export const auditSigningKeyResponse = z.object({
  Data: z.object({ Algorithm: z.string(), PublicKey: z.string() }),
});

/** How far the operator's SIEM stream (syslog, HTTP collector) has got through the trail. */
const trailStreamSink = z.object({
  /** 'syslog' or 'http'. */
  Sink: z.string(),
  /** Where it sends, without credentials. */
  Target: z.string(),
  SentRows: z.number().int(),
  LastSentAt: z.string().nullable(),
  /** Rows written and not yet sent, counted exactly up to 10,000 (PendingCapped: more). */
  PendingRows: z.number().int(),
  PendingCapped: z.boolean(),
  /** The age of the oldest row not yet sent, in seconds; 0 when none waits. */
  LagSeconds: z.number().int(),
  /** Why the last attempt failed, while it has not sent since. */
  LastError: z.string().nullable(),
  LastErrorAt: z.string().nullable(),
});
export const auditStreamResponse = z.object({ Sinks: z.array(trailStreamSink) });
