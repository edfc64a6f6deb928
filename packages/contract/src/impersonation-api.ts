import { z } from 'zod';
import { caseReferenceField, reasonCodeField } from './access-reasons.ts';
import { exportSelectionIds } from './bulk.ts';
import { IMPERSONATION_DURATION_MAX_MINUTES, IMPERSONATION_DURATION_MIN_MINUTES } from './constants.ts';
import { ERRORS } from './errors.ts';
import { decisionComments, PRIORITIES, REVOKE_ACTIONS, STORED_STATUSES } from './impersonation.ts';
import { LOG_SORT_KEYS, REQUEST_SORT_KEYS, sortQueryField } from './list-sort.ts';
import { MESSAGES } from './messages.ts';
import { reasonWireShape } from './reason-wire.ts';
import { decimalInteger } from './validation.ts';

/** Wire shapes of the impersonation calls (spec sections 3 and 7). */

export const DISPLAY_STATUSES = [...STORED_STATUSES, 'Expired'] as const;
const isoDate = z.string();

export const impersonationRequest = z.object({
  Id: z.number().int(),
  AppId: z.number().int(),
  AppName: z.string(),
  /** The requester's email. */
  Initiator: z.string(),
  /** Whether the customer has granted permission to impersonate their site. */
  Impersonation: z.boolean(),
  Consent: z.enum(['pending', 'granted', 'denied']),
  IsCustomerRequest: z.boolean(),
  /** Break-glass access (break-glass.ts): opened at once by a SuperAdmin, without consent or approval. */
  BreakGlass: z.boolean().optional(),
  Request: z.object({
    Priority: z.enum(PRIORITIES),
    Description: z.string(),
    Assignees: z.array(z.string()),
    ProxyRoles: z.array(z.string()),
    AdditionalPermissions: z.array(z.string()),
    Duration: z.number().int(),
    /**
     * Why (access-reasons.ts): the code, its words, the case or ticket reference and its link
     * (IMPERSONATION_CASE_URL); all null on requests made before reasons had codes.
     */
    ...reasonWireShape,
    RequestCreatedDate: isoDate,
    RequestModifiedDate: isoDate,
  }),
  Action: z.object({
    /** Pending, Approved, Rejected, Revoked, or Expired once ExpiresAt has passed. */
    Status: z.enum(DISPLAY_STATUSES),
    ActionTakenBy: z.string().nullable(),
    ActionTakenAt: isoDate.nullable(),
    ExpiresAt: isoDate.nullable(),
    ApprovedProxyRoles: z.array(z.string()),
    ApprovedAdditionalPermissions: z.array(z.string()),
    Reason: z.string(),
  }),
  /** Raised by every change of the request: the requester's edit sends it back as If-Match ("7"). */
  Version: z.number().int(),
});
export type ImpersonationRequest = z.infer<typeof impersonationRequest>;

const duration = decimalInteger(
  z
    .number({ error: MESSAGES.approveDurationRange })
    .int(MESSAGES.approveDurationRange)
    .min(IMPERSONATION_DURATION_MIN_MINUTES, MESSAGES.approveDurationRange)
    .max(IMPERSONATION_DURATION_MAX_MINUTES, MESSAGES.approveDurationRange),
);
const roles = z.array(z.string().trim().min(1)).min(1, MESSAGES.approveRolesRequired);
const assignees = z.array(z.string().trim().min(1)).min(1, MESSAGES.editAssigneesRequired);
const permissions = z.array(z.string().trim().min(1)).default([]);

/** POST /admin/impersonation/requests {data}: ask for access to a customer's site. */
export const createImpersonationBody = z.object({
  data: z.object({
    AppId: decimalInteger(z.number().int().positive('AppId must be a number.')),
    Priority: z.enum(PRIORITIES, { error: 'Please choose a priority.' }),
    Description: z.string().trim().min(1, 'Please describe why you need access.').max(2000),
    /** One of GET /admin/impersonation/reasons; unknown: 1140. */
    ReasonCode: reasonCodeField,
    /** The case or ticket; required when the operator says so (1141); bounded (1142). */
    CaseReference: caseReferenceField,
    Assignees: assignees,
    ProxyRoles: roles,
    AdditionalPermissions: permissions,
    Duration: duration,
  }),
});

export const requestIdQuery = z.object({
  requestId: decimalInteger(z.number().int().positive('requestId must be a number.')),
});
/**
 * GET /admin/impersonation/taken-roles?appId=&exceptId=: the roles other live requests of one site
 * hold (pending: requested; approved and unexpired: granted), which a new request or an edit may
 * not ask for; exceptId leaves out the request being edited.
 */
export const takenRolesQuery = z.object({
  appId: decimalInteger(z.number().int().positive('appId must be a positive number.')),
  exceptId: decimalInteger(z.number().int().positive('exceptId must be a positive number.')).optional(),
});
export const takenRolesResponse = z.object({
  Data: z.object({ AppId: z.number().int(), Roles: z.array(z.string()) }),
});

/** Rows a list page holds unless `limit` says otherwise, and the most it may say. */
export const IMPERSONATION_LIST_PAGE_SIZE = 50;
const IMPERSONATION_LIST_PAGE_MAX = 200;
const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${IMPERSONATION_LIST_PAGE_MAX}.`;
const CURSOR_MESSAGE = 'cursor is not a cursor of this list.';
/** Keyset paging of the impersonation lists, as GET /admin/audit/events pages. */
const pageShape = {
  /** NextCursor of the previous page, as answered. */
  cursor: z
    .string()
    .max(200, CURSOR_MESSAGE)
    .regex(/^[A-Za-z0-9_-]+$/, CURSOR_MESSAGE)
    .optional(),
  limit: decimalInteger(
    z
      .number({ error: LIMIT_MESSAGE })
      .int(LIMIT_MESSAGE)
      .min(1, LIMIT_MESSAGE)
      .max(IMPERSONATION_LIST_PAGE_MAX, LIMIT_MESSAGE),
  ).optional(),
};
const idFilter = (name: string) =>
  decimalInteger(
    z
      .number({ error: `${name} must be a positive number.` })
      .int(`${name} must be a positive number.`)
      .positive(`${name} must be a positive number.`)
      .max(Number.MAX_SAFE_INTEGER, `${name} must be a positive number.`),
  ).optional();

/** The request list's filters and order, as the list and its export take them. */
const requestFilterShape = {
  status: z.enum(DISPLAY_STATUSES).optional(),
  appId: idFilter('appId'),
  requestId: idFilter('requestId'),
  /**
   * id, app (AppName), priority (by severity: Low, Moderate, High, Critical), status (the display
   * status, alphabetically: Approved, Expired, Pending, Rejected, Revoked) or modified
   * (RequestModifiedDate), `-` first for descending; ties by Id. Absent: spec section 4's order.
   */
  sort: sortQueryField(REQUEST_SORT_KEYS),
};
/** GET /admin/impersonation/requests: the spec's status filter, a page, one site or request, an order. */
export const statusQuery = z.object({ ...requestFilterShape, ...pageShape });
/** GET /admin/impersonation/requests/export: the list's filters and order, every row (CSV). */
export const requestsExportQuery = z.object({
  ...requestFilterShape,
  /** A selection's rows (the list's bulk bar): only these, as the filter and visibility allow. */
  ids: exportSelectionIds,
});
/** GET /admin/impersonation/customer/requests: a page. */
export const customerRequestsQuery = z.object(pageShape);

/** PUT /admin/impersonation/request?requestId=: the requester edits a pending request. */
export const editImpersonationBody = z.object({
  AdditionalPermissions: permissions,
  Assignees: assignees,
  Description: z.string().trim().min(1, 'Please describe why you need access.').max(2000),
  ReasonCode: reasonCodeField,
  CaseReference: caseReferenceField,
  Priority: z.enum(PRIORITIES),
  ProxyRoles: roles,
});

/** POST /admin/impersonation/request/action?requestId=&revokeAction=: approve, reject or revoke. */
export const impersonationActionQuery = requestIdQuery.extend({
  revokeAction: z.enum(REVOKE_ACTIONS).optional(),
});
/** The body of each action, by name (the console's forms each parse one). */
export const approveActionBody = z.object({
  Status: z.literal('Approve'),
  ProxyRoles: roles,
  AdditionalPermissions: permissions,
  Duration: duration,
  Comments: decisionComments,
});
export const rejectActionBody = z.object({
  Status: z.literal('Reject'),
  Comments: decisionComments,
});
export const revokeActionBody = z.object({
  Status: z.literal('Revoke'),
  /** With revokeAction=roles: the roles and permissions to take away. */
  ProxyRoles: z.array(z.string()).optional().default([]),
  AdditionalPermissions: z.array(z.string()).optional().default([]),
  Comments: decisionComments,
});
export const impersonationActionBody = z.discriminatedUnion('Status', [
  approveActionBody,
  rejectActionBody,
  revokeActionBody,
]);

/** Pass as `cursor` for the next page; null on the last page. */
const nextCursor = z.string().nullable();
export const impersonationListResponse = z.object({
  Data: z.array(impersonationRequest),
  NextCursor: nextCursor,
});
export const impersonationOneResponse = z.object({ Data: impersonationRequest });
/** The update response of spec section 7. */
export const impersonationActionResponse = z.object({
  Data: z.object({
    Id: z.number().int(),
    AppName: z.string(),
    Action: z.object({ Status: z.enum(DISPLAY_STATUSES) }),
    ApprovedProxyRoles: z.array(z.string()),
    ApprovedAdditionalPermissions: z.array(z.string()),
    ExpiresAt: isoDate.nullable(),
    Initiator: z.string(),
  }),
  /** 'newUser' when the initiator has never signed in (then: 'please check your email'). */
  userStatus: z.string(),
  Message: z.string(),
  /** The whole request after the action, so clients replace their row. */
  Request: impersonationRequest,
});

/** A log entry's status after its step; 'Deleted' for the step that deleted the request. */
/** GET /admin/impersonation/approvers: who a request can be assigned to. */
export const approversResponse = z.object({
  Data: z.array(z.object({ Email: z.string(), Name: z.string() })),
});

export const LOG_STATUSES = [...DISPLAY_STATUSES, 'Deleted'] as const;
const impersonationLogEntry = z.object({
  Id: z.number().int(),
  RequestId: z.number().int(),
  AppName: z.string(),
  Status: z.enum(LOG_STATUSES),
  Event: z.string(),
  Actor: z.string().nullable(),
  LastModified: isoDate,
  Details: z.record(z.string(), z.unknown()),
});
export const impersonationLogsResponse = z.object({
  Data: z.array(impersonationLogEntry),
  NextCursor: nextCursor,
});
const logFilterShape = {
  status: z.enum(LOG_STATUSES).optional(),
  /**
   * request (RequestId), app (AppName), status (as shown, alphabetically) or modified
   * (LastModified), `-` first for descending; ties by Id. Absent: newest first.
   */
  sort: sortQueryField(LOG_SORT_KEYS),
};
export const logStatusQuery = z.object({ ...logFilterShape, ...pageShape });
/** GET /admin/impersonation/logs/export: the log's filter and order, every entry (CSV). */
export const logsExportQuery = z.object(logFilterShape);

/** The CSV columns of the two exports, in order. */
export const REQUESTS_EXPORT_COLUMNS = [
  'Request Id',
  'App Name',
  'Priority',
  'Status',
  'Initiator',
  'Assignees',
  'Created',
  'Modified',
  'Expires At',
  'Reason Code',
  'Case',
] as const;
export const LOGS_EXPORT_COLUMNS = [
  'Log Id',
  'Request Id',
  'App Name',
  'Status',
  'Event',
  'Actor',
  'Last Modified',
] as const;
/** Exports of the impersonation lists one instance streams at once; more are refused (429, 979). */
export const IMPERSONATION_EXPORTS_AT_ONCE = 2;
/** An export's body, described for the API document (the file itself is CSV text, streamed). */
export const listExportResponse = z.string();

/**
 * POST /admin/impersonation/customer/requests: a customer asks for help themselves, authenticated
 * with their site's API key and secret (headers `apikey` and `apisecret`); the request carries
 * its own consent.
 */
export const CUSTOMER_AUTH_HEADERS = { apiKey: 'apikey', apiSecret: 'apisecret' } as const;
export const customerRequestBody = z.object({
  data: z.object({
    Priority: z.enum(PRIORITIES, { error: 'Please choose a priority.' }),
    Description: z.string().trim().min(1, 'Please describe what you need help with.').max(2000),
    ProxyRoles: roles,
    AdditionalPermissions: permissions,
    Duration: duration,
  }),
});

/** The owner's page of every access to their site (link in the consent email). */
export const siteAccessQuery = z.object({ token: z.string().trim().min(1, 'The link is not complete.') });
export const siteAccessResponse = z.object({
  Data: z.object({
    AppName: z.string(),
    Requests: z.array(impersonationRequest),
    Log: z.array(
      z.object({
        RequestId: z.number().int(),
        Event: z.string(),
        Actor: z.string().nullable(),
        Date: isoDate,
        ClientAddress: z.string().nullable(),
        /** The request's reason and case (null on older requests). */
        ...reasonWireShape,
      }),
    ),
  }),
});
/** How long the site access link of an email works. */
export const SITE_ACCESS_LINK_TTL_MS = 90 * 24 * 3_600_000;

/** The owner's export of every step on their site: CSV (these columns) or a JSON array. */
export const siteAccessExportQuery = siteAccessQuery.extend({
  format: z.enum(['csv', 'json']).default('csv'),
});
export const SITE_ACCESS_EXPORT_COLUMNS = [
  'Date',
  'Site',
  'Request',
  'Event',
  'Actor',
  'Client address',
  'Reason',
  'Case',
] as const;
export const siteAccessFileResponse = z.string();

/** The words of the owner's feed (Atom) of the newest steps on their site. */
export const SITE_ACCESS_FEED = {
  title: (appName: string) => `Provider access to ${appName}`,
  author: 'Super Admin Console',
  entryTitle: (event: string, actor: string | null, requestId: number) =>
    `Request ${requestId}: ${event}${actor ? ` by ${actor}` : ''}`,
  /** The entry's reason and case, after its text ('' on older requests). */
  reason: (label: string | null, caseReference: string | null) =>
    `${label ? `. Reason: ${label}` : ''}${caseReference ? `. Case: ${caseReference}` : ''}`,
} as const;

/** The public consent page: the signed link's token. */
export const consentQuery = z.object({
  token: z.string().trim().min(1, 'The consent link is not complete.'),
});
export const consentBody = z.object({
  token: z.string().trim().min(1, 'The consent link is not complete.'),
  granted: z.boolean(),
});
export const consentDetailsResponse = z.object({
  Data: z.object({
    RequestId: z.number().int(),
    AppName: z.string(),
    RequestedBy: z.string(),
    Description: z.string(),
    ProxyRoles: z.array(z.string()),
    AdditionalPermissions: z.array(z.string()),
    Duration: z.number().int(),
    ...reasonWireShape,
    Consent: z.enum(['pending', 'granted', 'denied']),
  }),
});

export const IMPERSONATION_MESSAGES = {
  created: (id: number, app: string) => `Impersonation request ${id} for ${app} has been created.`,
  /** `expires` as MM-DD-YYYY HH:mm UTC (formatExpiry). */
  approved: (id: number, app: string, roles: number, perms: number, expires: string, newUser: boolean) =>
    `Request ${id} for ${app} approved with ${roles} role${roles === 1 ? '' : 's'} and ${perms} additional permission${perms === 1 ? '' : 's'} until ${expires}. The initiator can access the app through the console${newUser ? '; please check your email' : ''}.`,
  rejected: (id: number, app: string) => `Request ${id} for ${app} has been rejected.`,
  revoked: (id: number, app: string) => `Access of request ${id} to ${app} has been revoked.`,
  partlyRevoked: (id: number, app: string) => `Some access of request ${id} to ${app} has been revoked.`,
  updated: (id: number, app: string) => `Request ${id} for ${app} has been updated.`,
  deleted: (id: number, app: string) => `Request ${id} for ${app} has been deleted.`,
  consentGranted: 'Thank you. You have allowed this access to your site.',
  consentDenied: 'Thank you. You have denied this access to your site.',
  /** Error 975. */
  consentLinkInvalid: ERRORS.consentLinkInvalid.text,
  roleTaken: 'These roles are already requested or granted for this app by another request',
  customerAuthFailed: 'The API key and secret do not match a site.',
  /** Error 948: `since` and `from` as MM-DD-YYYY HH:mm UTC (formatExpiry). */
  approverCoolingDown: (since: string, from: string) =>
    `You became a SuperAdmin on ${since}. A new SuperAdmin may approve impersonation requests only after a cool-down: you can approve from ${from}.`,
  customerRequested: (id: number, app: string) =>
    `Your request ${id} for help with ${app} has been received. Our staff will review it.`,
  /** Error 976. */
  siteAccessLinkInvalid: ERRORS.siteAccessLinkInvalid.text,
  notApproverAssignee: 'Assignees must be super users holding the SuperAdmin role.',
  /** Error 979 of the two lists' exports. */
  exportBusy: `${IMPERSONATION_EXPORTS_AT_ONCE} exports of the impersonation lists are already running. Please try again when one has finished.`,
} as const;

/** How long a consent link works. */
export const CONSENT_LINK_TTL_MS = 7 * 24 * 3_600_000;

/** MM-DD-YYYY HH:mm UTC, the console's date format with the time. */
export function formatExpiry(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}-${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())} UTC`;
}
