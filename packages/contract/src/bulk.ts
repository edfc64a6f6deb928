import { z } from 'zod';
import { oneCriterion, SEARCH_CRITERIA, searchCriterionShape } from './customers.ts';
import { decisionComments } from './impersonation.ts';
import { decimalInteger } from './validation.ts';

/**
 * Bulk actions (docs/decisions.md, "Bulk actions"): a selection of a list's rows is planned by a
 * dry run (what would change, what would be refused and why), then run as a job, item by item,
 * under the rules, locks and trail rows of the single action. Reversible actions have an undo for
 * BULK_UNDO_MINUTES from the job's end.
 */

/**
 * The lists a bulk job is of (its kind): a customer's sites, the impersonation requests, a
 * colleague's sessions, the team's invitations, the customer search. Each has its actions, its
 * selection's ids and filter, and the permission of its single actions.
 */
const BULK_LISTS = [
  'customer-sites',
  'impersonation-requests',
  'staff-sessions',
  'team-invitations',
  'customers',
] as const;
export type BulkList = (typeof BULK_LISTS)[number];

const SITE_ACTIONS = ['site.deactivate', 'site.activate'] as const;
const REQUEST_ACTIONS = ['request.revoke', 'request.reject'] as const;
const SESSION_ACTIONS = ['session.end'] as const;
const INVITATION_ACTIONS = ['invitation.resend'] as const;
/**
 * The customer search's: the owned sites of the customers selected, deactivated or activated, each
 * site by the single status change. Actions of their own (not site.*): an action is of one list.
 */
const CUSTOMER_ACTIONS = ['customer.deactivate-sites', 'customer.activate-sites'] as const;
/** The actions a bulk job may take, per list; each item runs the single action's own service call. */
const BULK_ACTIONS = [
  ...SITE_ACTIONS,
  ...REQUEST_ACTIONS,
  ...SESSION_ACTIONS,
  ...INVITATION_ACTIONS,
  ...CUSTOMER_ACTIONS,
] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The list each action is of. */
export const BULK_LIST_OF: Record<BulkAction, BulkList> = {
  'site.deactivate': 'customer-sites',
  'site.activate': 'customer-sites',
  'request.revoke': 'impersonation-requests',
  'request.reject': 'impersonation-requests',
  'session.end': 'staff-sessions',
  'invitation.resend': 'team-invitations',
  'customer.deactivate-sites': 'customers',
  'customer.activate-sites': 'customers',
};

/** The action that undoes each reversible action (an action not named here has no undo). */
export const BULK_INVERSE: Partial<Record<BulkAction, BulkAction>> = {
  'site.deactivate': 'site.activate',
  'site.activate': 'site.deactivate',
  'customer.deactivate-sites': 'customer.activate-sites',
  'customer.activate-sites': 'customer.deactivate-sites',
};

/** How long a finished job's undo is offered (the toast and the job's page), minutes. */
export const BULK_UNDO_MINUTES = 10;

/** The most items one job may hold whatever BULK_MAX_ITEMS says (the body's own bound). */
export const BULK_ITEMS_CEILING = 10_000;

/**
 * Rows an export of a selection may name (a list's export with `ids`, each in the address): more
 * are exported as "all matching" (the list's own export under its filter).
 */
export const EXPORT_SELECTION_MAX = 500;

/**
 * Rows an export of a selection may name by uid (the customer search's export with `uids`): a uid
 * is 37 characters with its comma, so 200 of them are 7.4 KB of the address, well within the
 * 16 KiB Node.js takes for a request's line and headers (500 would not be: 18.5 KB).
 */
export const EXPORT_SELECTION_UIDS_MAX = 200;

const selectionTooLarge = (max: number) =>
  `An export of a selection takes at most ${max} rows; export all matching instead.`;

/** A list export's `ids`: the selection's rows, comma-separated (absent: every row the filter matches). */
export const exportSelectionIds = z
  .string()
  .regex(/^[1-9]\d{0,15}(,[1-9]\d{0,15})*$/, 'ids must be row ids separated by commas.')
  .transform((s) => [...new Set(s.split(',').map(Number))])
  .pipe(z.array(z.number().int()).max(EXPORT_SELECTION_MAX, selectionTooLarge(EXPORT_SELECTION_MAX)))
  .optional();

const UID_TEXT = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** A list export's `uids`: the selection's rows by uid, comma-separated (absent: every row the filter matches). */
export const exportSelectionUids = z
  .string()
  // said before the pattern is tried on a long text
  .max((EXPORT_SELECTION_UIDS_MAX + 1) * 37, selectionTooLarge(EXPORT_SELECTION_UIDS_MAX))
  .regex(new RegExp(`^${UID_TEXT}(,${UID_TEXT})*$`), 'uids must be uids separated by commas.')
  .transform((s) => [...new Set(s.toLowerCase().split(','))])
  .pipe(z.array(z.string()).max(EXPORT_SELECTION_UIDS_MAX, selectionTooLarge(EXPORT_SELECTION_UIDS_MAX)))
  .optional();

/** Items one read of a job answers; `after` pages on. */
export const BULK_ITEMS_PAGE = 100;

/** `failed`: its requester could no longer run it when it came to run (`Failure` says why). */
const BULK_STATES = [
  'planned',
  'awaiting-approval',
  'queued',
  'running',
  'done',
  'cancelled',
  'failed',
] as const;
export type BulkState = (typeof BULK_STATES)[number];

const uid = z.string().uuid('Uid is not a valid customer id.');
const appId = z.number().int().positive('AppIds must be positive whole numbers.');
const itemId = z.number().int().positive('Ids must be positive whole numbers.');
const jobId = z
  .number({ error: 'Id must be a number.' })
  .int('Id must be a number.')
  .positive('Id must be a number.');

/** The selection of sites: rows picked (a page, or some of it), or every site of the list that matches its filter. */
const siteSelection = z.discriminatedUnion('Kind', [
  z.object({
    Kind: z.literal('rows'),
    AppIds: z
      .array(appId)
      .min(1, 'Pick at least one row.')
      .max(BULK_ITEMS_CEILING, `A bulk action takes at most ${BULK_ITEMS_CEILING} rows.`),
  }),
  z.object({
    Kind: z.literal('all'),
    /** The list's filter: only sites in this status (absent: every status). */
    Status: z.enum(['active', 'inactive']).optional(),
  }),
]);
export type SiteSelection = z.infer<typeof siteSelection>;

/** The display statuses of the requests list's filter (impersonation.ts DISPLAY_STATUSES). */
const REQUEST_FILTER = ['Pending', 'Approved', 'Rejected', 'Revoked', 'Expired'] as const;

/** The selection of requests: rows picked by Id, or every request the list shows under its status filter. */
const requestSelection = z.discriminatedUnion('Kind', [
  z.object({
    Kind: z.literal('rows'),
    Ids: z
      .array(itemId)
      .min(1, 'Pick at least one row.')
      .max(BULK_ITEMS_CEILING, `A bulk action takes at most ${BULK_ITEMS_CEILING} rows.`),
  }),
  z.object({
    Kind: z.literal('all'),
    /** The list's filter: only requests showing this status (absent: every status). */
    Status: z.enum(REQUEST_FILTER).optional(),
  }),
]);

/** The selection of a colleague's live sessions: rows picked by Id, or every live session of theirs. */
const sessionSelection = z.discriminatedUnion('Kind', [
  z.object({
    Kind: z.literal('rows'),
    Ids: z
      .array(itemId)
      .min(1, 'Pick at least one row.')
      .max(BULK_ITEMS_CEILING, `A bulk action takes at most ${BULK_ITEMS_CEILING} rows.`),
  }),
  z.object({ Kind: z.literal('all') }),
]);

/** The selection of the team list: members picked by Uid, or every member the list shows (it has no filter). */
const invitationSelection = z.discriminatedUnion('Kind', [
  z.object({
    Kind: z.literal('rows'),
    Uids: z
      .array(z.string().uuid('Uids must be user ids.'))
      .min(1, 'Pick at least one row.')
      .max(BULK_ITEMS_CEILING, `A bulk action takes at most ${BULK_ITEMS_CEILING} rows.`),
  }),
  z.object({ Kind: z.literal('all') }),
]);

/**
 * The customer search's selection: customers picked by Uid, or every customer the search matches
 * (`Search`: its one criterion and term, as GET /admin/searchcustomer takes them).
 */
const customerSelection = z.discriminatedUnion('Kind', [
  z.object({
    Kind: z.literal('rows'),
    Uids: z
      .array(z.string().uuid('Uids must be customer ids.'))
      .min(1, 'Pick at least one row.')
      .max(BULK_ITEMS_CEILING, `A bulk action takes at most ${BULK_ITEMS_CEILING} rows.`),
  }),
  z.object({
    Kind: z.literal('all'),
    Search: z.object(searchCriterionShape).superRefine(oneCriterion),
  }),
]);

/**
 * What a job keeps of "all the search matches": the criterion, not its term (a name, an address, a
 * phone number or an API secret, which the job's answers and trail rows would otherwise repeat).
 */
const customerSearchKept = z.object({ Kind: z.literal('all'), Criterion: z.enum(SEARCH_CRITERIA) });

/** A job's selection, of whichever list (the customer search's first: the others' `all` would take it, dropping Criterion). */
const selection = z.union([
  customerSearchKept,
  siteSelection,
  requestSelection,
  sessionSelection,
  invitationSelection,
]);
export type BulkSelection = z.infer<typeof selection>;

/** A dry run on a customer's sites (POST /admin/bulk/dryrun). */
export const bulkSitesDryRunBody = z.object({
  Action: z.enum(SITE_ACTIONS, { error: 'Action is not a bulk action.' }),
  /** The customer whose sites list the selection is of. */
  Uid: uid,
  Selection: siteSelection,
});
/** A dry run on the impersonation requests (POST /admin/bulk/requests/dryrun). */
export const bulkRequestsDryRunBody = z.object({
  Action: z.enum(REQUEST_ACTIONS, { error: 'Action is not a bulk action on requests.' }),
  Selection: requestSelection,
  /** The comment each revocation or rejection carries, as the single action's (told to the requester). */
  Comments: decisionComments,
});
/** A dry run on a colleague's live sessions (POST /admin/bulk/sessions/dryrun): the list is per member. */
export const bulkSessionsDryRunBody = z.object({
  Action: z.enum(SESSION_ACTIONS, { error: 'Action is not a bulk action on sessions.' }),
  /** The staff member whose sessions list the selection is of. */
  StaffUid: z.string().uuid('StaffUid is not a valid user id.'),
  Selection: sessionSelection,
});
/** A dry run on the team list's pending invitations (POST /admin/bulk/invitations/dryrun): resend them. */
export const bulkInvitationsDryRunBody = z.object({
  Action: z.enum(INVITATION_ACTIONS, { error: 'Action is not a bulk action on the team.' }),
  Selection: invitationSelection,
});
/**
 * A dry run on the customer search (POST /admin/bulk/customers/dryrun): the owned sites of the
 * customers selected, each site an item.
 */
export const bulkCustomersDryRunBody = z.object({
  Action: z.enum(CUSTOMER_ACTIONS, { error: 'Action is not a bulk action on customers.' }),
  Selection: customerSelection,
});
/** Every dry run, one shape discriminated by its Action (each list's endpoint takes its own). */
const bulkDryRunBody = z.discriminatedUnion('Action', [
  bulkSitesDryRunBody,
  bulkRequestsDryRunBody,
  bulkSessionsDryRunBody,
  bulkInvitationsDryRunBody,
  bulkCustomersDryRunBody,
]);
export type BulkDryRunBody = z.input<typeof bulkDryRunBody>;
export type BulkSitesDryRunBody = z.output<typeof bulkSitesDryRunBody>;
export type BulkRequestsDryRunBody = z.output<typeof bulkRequestsDryRunBody>;
export type BulkSessionsDryRunBody = z.output<typeof bulkSessionsDryRunBody>;
export type BulkInvitationsDryRunBody = z.output<typeof bulkInvitationsDryRunBody>;
export type BulkCustomersDryRunBody = z.output<typeof bulkCustomersDryRunBody>;

export const bulkJobBody = z.object({ Id: jobId });
export const bulkJobQuery = z.object({
  id: decimalInteger(jobId),
  /** Items after this sequence number (the previous page's ItemsNext). */
  after: decimalInteger(z.number({ error: 'after must be a number.' }).int().min(0)).default(0),
});

const bulkItem = z.object({
  Seq: z.number().int(),
  /** The item's id in its list: a site's appId (of a customer's sites, or of the customers picked), a request's Id, a session's Id. */
  Target: z.number().int(),
  /** The same as Target (the name it had when only sites were bulk items). */
  AppId: z.number().int(),
  /**
   * The item's key when its list's ids are not numbers (a team member's Uid; Target is then its
   * place); of the customer search's items, the Uid of the customer who owns the site.
   */
  Key: z.string().nullable(),
  /**
   * What the list shows of it, as the dry run saw it: a site's name (and its owner's email, of the
   * customer search's items), a request's Id and site.
   */
  Label: z.string(),
  Planned: z.enum(['change', 'refuse']),
  PlannedReason: z.string().nullable(),
  /** Null while the item waits. */
  Outcome: z.enum(['changed', 'refused', 'cancelled']).nullable(),
  OutcomeReason: z.string().nullable(),
});

const bulkJob = z.object({
  Id: z.number().int(),
  Action: z.enum(BULK_ACTIONS),
  /** The list the job is of. */
  List: z.enum(BULK_LISTS),
  /** The customer whose sites a customer-sites job is of; null for the other lists (the customer search's items each name theirs: Key). */
  Uid: z.string().nullable(),
  /** The staff member whose sessions a staff-sessions job is of; null for the other lists. */
  StaffUid: z.string().nullable(),
  Selection: selection,
  /** How many items the selection holds. */
  Count: z.number().int(),
  /** The most a selection may hold (BULK_MAX_ITEMS): a larger one is refused. */
  Bound: z.number().int(),
  /** A job of more items than this waits for a second SuperAdmin's approval (BULK_APPROVAL_OVER). */
  ApprovalOver: z.number().int(),
  ApprovalNeeded: z.boolean(),
  State: z.enum(BULK_STATES),
  /**
   * Why a failed job did not run (its requester's account gone or deactivated, the API token it
   * was asked for with revoked or expired, or the list's permission no longer theirs): its items
   * not yet run are refused with it. Null otherwise.
   */
  Failure: z.string().nullable(),
  Actor: z.string(),
  ActorUid: z.string(),
  /**
   * The API token the job was asked for with (its dry run; its items run with that token's
   * permissions): its id and name, the name null once the token is gone (deleted with its owner).
   * Null: asked for from a console session.
   */
  ApiToken: z.object({ Id: z.number().int(), Name: z.string().nullable() }).nullable(),
  ApprovedBy: z.string().nullable(),
  CreatedAt: z.string(),
  StartedAt: z.string().nullable(),
  FinishedAt: z.string().nullable(),
  /** The job this one undoes; the job that undid this one. */
  UndoOf: z.number().int().nullable(),
  UndoneBy: z.number().int().nullable(),
  /** Until when Undo is offered; null when it is not (not reversible, not done, undone, over). */
  UndoUntil: z.string().nullable(),
  /** What the dry run found. */
  Planned: z.object({ Change: z.number().int(), Refuse: z.number().int() }),
  /** What the run has done so far. */
  Progress: z.object({
    Changed: z.number().int(),
    Refused: z.number().int(),
    Cancelled: z.number().int(),
    Pending: z.number().int(),
  }),
  /** At most BULK_ITEMS_PAGE items, in order, after `after`. */
  Items: z.array(bulkItem),
  /** Pass as `after` for the next items; null when there are none. */
  ItemsNext: z.number().int().nullable(),
});
export type BulkJob = z.infer<typeof bulkJob>;

export const bulkJobResponse = z.object({ Data: bulkJob });
