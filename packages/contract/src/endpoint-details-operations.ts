import { z } from 'zod';
import { reasonSettingsResponse } from './access-reasons.ts';
import {
  auditEventsQuery,
  auditEventsResponse,
  auditExportQuery,
  auditExportResponse,
  auditSigningKeyResponse,
  auditStreamResponse,
} from './audit.ts';
import { okResponse } from './auth.ts';
import {
  breakGlassOptionsResponse,
  breakGlassReviewsQuery,
  breakGlassReviewsResponse,
  closeBreakGlassReviewBody,
  closeBreakGlassReviewResponse,
  openBreakGlassBody,
  openBreakGlassResponse,
} from './break-glass.ts';
import { dashboardResponse, trialsEndingQuery, trialsEndingResponse } from './dashboard.ts';
import { type DetailsPart, errors } from './endpoint-details.ts';
import {
  approversResponse,
  consentBody,
  consentDetailsResponse,
  consentQuery,
  createImpersonationBody,
  customerRequestBody,
  customerRequestsQuery,
  editImpersonationBody,
  impersonationActionBody,
  impersonationActionQuery,
  impersonationActionResponse,
  impersonationListResponse,
  impersonationLogsResponse,
  impersonationOneResponse,
  listExportResponse,
  logStatusQuery,
  logsExportQuery,
  requestIdQuery,
  requestsExportQuery,
  siteAccessExportQuery,
  siteAccessFileResponse,
  siteAccessQuery,
  siteAccessResponse,
  statusQuery,
  takenRolesQuery,
  takenRolesResponse,
} from './impersonation-api.ts';
import {
  switchAppQuery,
  switchAppResponse,
  updateAccessQuery,
  updateAccessResponse,
} from './impersonation-session.ts';
import {
  createNoticeBody,
  noticeAudienceOptionsResponse,
  noticeCancelBody,
  noticeDeliveriesQuery,
  noticeDeliveriesResponse,
  noticeListQuery,
  noticeListResponse,
  noticeQuery,
  noticeRecipientsBody,
  noticeRecipientsResponse,
  noticeResponse,
  noticeSiteOptionsQuery,
  noticeSiteOptionsResponse,
  unsubscribeQuery,
  unsubscribeResponse,
} from './notices.ts';
import {
  markNotificationsReadBody,
  markNotificationsReadResponse,
  notificationPreferencesBody,
  notificationPreferencesResponse,
  notificationStreamResponse,
  staffNotificationsQuery,
  staffNotificationsResponse,
} from './staff-notifications.ts';

/** Summary, tag and schemas of the endpoints of impersonation, the dashboard, notices, notifications and the audit trail. */
export const OPERATIONS_DETAILS = {
  impersonationCreate: {
    summary:
      "Ask for time-boxed access to a customer's site with customer roles and permissions. The site owner is mailed a single-use consent link; the SuperAdmin assignees are told.",
    tag: 'Impersonation',
    body: createImpersonationBody,
    responses: {
      200: impersonationOneResponse.extend({ Message: z.string() }),
      ...errors(400, 401, 403, 404, 409),
    },
  },
  impersonationList: {
    summary:
      'Requests the caller made or is assigned (SuperAdmins: all), pending and unexpired approved first, then by the newest action or change; optional status filter (Expired is derived), site (appId) or request (requestId); sort by id, app, priority (by severity), status or modified (-key descending, ties by Id). 50 a page (limit: 1 to 200); pass NextCursor as cursor for the next page under the same sort, read as of the first.',
    tag: 'Impersonation',
    query: statusQuery,
    responses: { 200: impersonationListResponse, ...errors(400, 401, 403) },
  },
  impersonationRequestsExport: {
    summary:
      'The request list as CSV (Request Id, App Name, Priority, Status, Initiator, Assignees, Created, Modified, Expires At, Reason Code, Case): the same filters, order (sort) and visibility as GET /admin/impersonation/requests, every row, streamed. The x-export-rows header says how many rows follow the header line. Two exports at once per instance (else 429).',
    tag: 'Impersonation',
    query: requestsExportQuery,
    responses: { 200: listExportResponse, ...errors(400, 401, 403, 429) },
    produces: ['text/csv'],
  },
  impersonationTakenRoles: {
    summary:
      'The roles other live requests of one site hold (pending: requested; approved and unexpired: granted): a new request or an edit may not ask for them. exceptId leaves out the request being edited.',
    tag: 'Impersonation',
    query: takenRolesQuery,
    responses: { 200: takenRolesResponse, ...errors(400, 401, 403) },
  },
  impersonationEdit: {
    summary: 'The requester edits their pending request.',
    tag: 'Impersonation',
    versioned: 'if-match',
    query: requestIdQuery,
    body: editImpersonationBody,
    responses: {
      200: impersonationOneResponse.extend({ Message: z.string() }),
      ...errors(400, 401, 403, 404, 409),
    },
  },
  impersonationDelete: {
    summary: 'The requester deletes their pending request.',
    tag: 'Impersonation',
    query: requestIdQuery,
    responses: {
      200: z.object({ IsDeleted: z.boolean(), Id: z.number().int(), Message: z.string() }),
      ...errors(400, 401, 403, 404, 409),
    },
  },
  impersonationAction: {
    summary:
      "Approve (needs the customer's consent; roles and duration may be narrowed), reject, or revoke (revokeAction=site: all access; roles: the ProxyRoles and AdditionalPermissions given). Nobody decides their own request.",
    tag: 'Impersonation',
    query: impersonationActionQuery,
    body: impersonationActionBody,
    responses: { 200: impersonationActionResponse, ...errors(400, 401, 403, 404, 409) },
  },
  impersonationApprovers: {
    summary:
      'The SuperAdmins a request can be assigned to (name and email), for anyone who may request impersonation.',
    tag: 'Impersonation',
    responses: { 200: approversResponse, ...errors(401, 403) },
  },
  impersonationReasons: {
    summary:
      "The reason codes a request may give (the built-in ones, then the operator's IMPERSONATION_REASON_CODES), whether a case or ticket reference is required (IMPERSONATION_CASE_REQUIRED) and the pattern of its link (IMPERSONATION_CASE_URL, {case} where the reference goes), for the request and edit forms.",
    tag: 'Impersonation',
    responses: { 200: reasonSettingsResponse, ...errors(401, 403) },
  },
  breakGlassOptions: {
    summary:
      'Break-glass access (SuperAdmins only): whether the operator left it on (BREAK_GLASS_ENABLED), its reason codes (production-incident, security-incident, legal-request), its longest duration (60 minutes), the hours its review is due in (24), and the other SuperAdmins an opening tells (the site owner is told too).',
    tag: 'Impersonation',
    responses: { 200: breakGlassOptionsResponse, ...errors(401, 403) },
  },
  breakGlassOpen: {
    summary:
      "Break-glass access (SuperAdmins only, a recent proof): opens a grant to the site at once, without the owner's consent or another's approval, with a break-glass reason code (else 1140) and a case reference (always, 1141), for 1 to 60 minutes (1181); never extended or stacked on a grant the caller holds on the site (1182); refused while the operator turned it off (1180). Every other SuperAdmin (bell and mail) and the site's owner (mail) are told at once, the webhook event impersonation.break_glass_opened is sent, and the grant lands in the review queue (the dashboard) until another SuperAdmin closes it with a note. The grant then follows every grant's rule: scope, expiry, every call logged, revoke. Recorded (impersonation.break-glass, impersonation.break-glass-told).",
    tag: 'Impersonation',
    body: openBreakGlassBody,
    responses: { 200: openBreakGlassResponse, ...errors(400, 401, 403, 404, 409) },
  },
  breakGlassReviewClose: {
    summary:
      'Closes the review of a break-glass access with a note (SuperAdmins only; never the opener, 1183; once, 1184). Due within 24 hours of the opening: an overdue one stays red on the dashboard until closed. The opener is told in the bell; recorded with the note (impersonation.break-glass-review, webhook impersonation.break_glass_reviewed).',
    tag: 'Impersonation',
    body: closeBreakGlassReviewBody,
    responses: { 200: closeBreakGlassReviewResponse, ...errors(400, 401, 403, 404, 409) },
  },
  breakGlassReviews: {
    summary:
      "The break-glass reviews (SuperAdmins only): every open one, oldest first (state=open, the default), or those closed in the last 30 days (state=closed) or both (state=all), newest opening first; each with its site, opener, reason and case, the grant's status, the review's deadline (24 hours after the opening) and whether it is overdue, and a closed one's note. Sites in the caller's scope only. 50 a page (limit: 1 to 200); pass NextCursor as cursor for the next page under the same state.",
    tag: 'Impersonation',
    query: breakGlassReviewsQuery,
    responses: { 200: breakGlassReviewsResponse, ...errors(400, 401, 403) },
  },
  impersonationLogs: {
    summary:
      'Every step of every impersonation request, newest first; optional status filter; sort by request, app, status or modified (-key descending, ties by Id). 50 a page (limit: 1 to 200); pass NextCursor as cursor for the next page under the same sort.',
    tag: 'Impersonation',
    query: logStatusQuery,
    responses: { 200: impersonationLogsResponse, ...errors(400, 401, 403) },
  },
  impersonationLogsExport: {
    summary:
      'The impersonation log as CSV (Log Id, Request Id, App Name, Status, Event, Actor, Last Modified): the same filter and order (sort) as GET /admin/impersonation/logs, every entry, streamed. The x-export-rows header says how many rows follow the header line. Two exports at once per instance (else 429).',
    tag: 'Impersonation',
    query: logsExportQuery,
    responses: { 200: listExportResponse, ...errors(400, 401, 403, 429) },
    produces: ['text/csv'],
  },
  dashboard: {
    summary:
      "The signed-in staff member's dashboard: impersonation requests awaiting them and live grants, customer and site figures, staff sign-in failures, recently viewed customers. Each part is present only with the permission of the list behind it.",
    tag: 'Dashboard',
    responses: { 200: dashboardResponse, ...errors(401, 403) },
  },
  trialsEnding: {
    summary:
      "Sites on a trial that ends within `days` days from now (7 when absent, up to 90), soonest first (sort=-ends: latest first), 50 a page (limit up to 200), each with its owner's name, plan and data center; pass NextCursor as cursor for the next page.",
    tag: 'Dashboard',
    query: trialsEndingQuery,
    responses: { 200: trialsEndingResponse, ...errors(400, 401, 403) },
  },
  noticeList: {
    summary:
      'Customer notices, newest first, 50 a page, each with its status and delivery progress; pass NextCursor as cursor for the next page.',
    tag: 'Notices',
    query: noticeListQuery,
    responses: { 200: noticeListResponse, ...errors(400, 401, 403) },
  },
  noticeCreate: {
    summary:
      "A notice to the owners of the audience's sites, sent now (SendAt null) or at SendAt (at most 90 days ahead). Recipients are resolved when sending starts; ErrorCode 991 when the audience is over the limit, 992 when it reaches nobody.",
    tag: 'Notices',
    body: createNoticeBody,
    responses: { 200: noticeResponse, ...errors(400, 401, 403) },
  },
  noticeRecipients: {
    summary:
      'How many distinct owner addresses an audience reaches now (the count shown before sending), and whether it is over the limit.',
    tag: 'Notices',
    body: noticeRecipientsBody,
    responses: { 200: noticeRecipientsResponse, ...errors(400, 401, 403) },
  },
  noticeAudienceOptions: {
    summary: 'What an audience may name: the plans and the data centers.',
    tag: 'Notices',
    responses: { 200: noticeAudienceOptionsResponse, ...errors(401, 403) },
  },
  noticeSiteOptions: {
    summary:
      'Sites to choose for a notice to chosen sites, by site name or by owner name (at most 20): the picker instead of typed AppIds.',
    tag: 'Notices',
    query: noticeSiteOptionsQuery,
    responses: { 200: noticeSiteOptionsResponse, ...errors(400, 401, 403) },
  },
  noticeOne: {
    summary: 'One notice with its text, status and delivery progress.',
    tag: 'Notices',
    query: noticeQuery,
    responses: { 200: noticeResponse, ...errors(400, 401, 403, 404) },
  },
  noticeDeliveries: {
    summary:
      "A notice's delivery log, one row per recipient (pending, queued, retrying, sent, failed with the reason, skipped), 50 a page, filtered by status.",
    tag: 'Notices',
    query: noticeDeliveriesQuery,
    responses: { 200: noticeDeliveriesResponse, ...errors(400, 401, 403, 404) },
  },
  noticeCancel: {
    summary:
      'Cancel a scheduled notice. ErrorCode 990 once it has started sending (mails already queued are delivered), was sent or was cancelled.',
    tag: 'Notices',
    body: noticeCancelBody,
    responses: { 200: noticeResponse, ...errors(400, 401, 403, 404, 409) },
  },
  noticeUnsubscribeDetails: {
    summary:
      'What an unsubscribe link (from an announcement mail) is for: the address, masked, and whether it is already unsubscribed. ErrorCode 994 when the link is forged or altered.',
    tag: 'Notices',
    query: unsubscribeQuery,
    responses: { 200: unsubscribeResponse, ...errors(400, 429) },
  },
  noticeUnsubscribe: {
    summary:
      "Unsubscribe the link's address from announcements (incident and maintenance notices still arrive). Mail clients' one-click unsubscribe (RFC 8058) posts to POST /mail/unsubscribe instead.",
    tag: 'Notices',
    query: unsubscribeQuery,
    responses: { 200: unsubscribeResponse, ...errors(400, 429) },
  },
  staffNotifications: {
    summary:
      "The caller's notifications, newest first (20 a page, limit 1 to 50; pass NextCursor as cursor for the next), with how many are unread in all.",
    tag: 'Notifications',
    query: staffNotificationsQuery,
    responses: { 200: staffNotificationsResponse, ...errors(400, 401, 403) },
  },
  staffNotificationsRead: {
    summary:
      "Marks some of the caller's notifications (Ids, up to 100) or all of them (All: true) read; others' ids are left alone. Answers how many changed and the unread count.",
    tag: 'Notifications',
    body: markNotificationsReadBody,
    responses: { 200: markNotificationsReadResponse, ...errors(400, 401, 403) },
  },
  staffNotificationPreferences: {
    summary: 'How the caller is told of each kind of notification: in-app only, or also by email.',
    tag: 'Notifications',
    responses: { 200: notificationPreferencesResponse, ...errors(401, 403) },
  },
  staffNotificationPreferencesSave: {
    summary:
      'Sets, per kind named, in-app only or also email (the kinds not named keep theirs); answers every kind.',
    tag: 'Notifications',
    body: notificationPreferencesBody,
    responses: { 200: notificationPreferencesResponse, ...errors(400, 401, 403) },
  },
  staffNotificationStream: {
    summary:
      "The caller's new notifications as Server-Sent Events (event: notification, id: the notification's Id, data: {Notification, UnreadCount}), live from any instance; a comment line every 15 seconds keeps it open. Send Last-Event-ID to be sent what came after that id first. Authenticated like every call (the session headers: read it with fetch, not EventSource); it ends when the session ends or the server shuts down. 429 past 5 streams per staff member or the instance's cap.",
    tag: 'Notifications',
    responses: { 200: notificationStreamResponse, ...errors(401, 403, 429) },
    produces: ['text/event-stream'],
  },
  auditEvents: {
    summary:
      'The staff audit trail: staff events and every write made through the console, newest first (sort=time: oldest first), 50 a page, filtered by actor, action, customer, site, time range and free text; pass NextCursor as cursor for the next page under the same sort.',
    tag: 'Audit',
    query: auditEventsQuery,
    responses: { 200: auditEventsResponse, ...errors(400, 401, 403) },
  },
  auditExport: {
    summary:
      'The filtered trail as a file (format csv or jsonl), oldest first (sort=-time: newest first), streamed; every row carries a SHA-256 hash chain and the last line the Ed25519 signature of its head. The x-export-rows header says how many rows follow. Two exports at once per instance (else 429).',
    tag: 'Audit',
    query: auditExportQuery,
    responses: { 200: auditExportResponse, ...errors(400, 401, 403, 429) },
    produces: ['text/csv', 'application/x-ndjson'],
  },
  auditSigningKey: {
    summary: 'The public key (Ed25519, PEM) that verifies the signature of exported trails.',
    tag: 'Audit',
    responses: { 200: auditSigningKeyResponse, ...errors(401, 403) },
  },
  auditStream: {
    summary:
      "How far the operator's SIEM stream has got through the trail: each configured sink (syslog over TCP or TLS, an HTTP collector; TRAIL_* settings), its target, rows sent, the last send, rows waiting (exact up to 10,000), the lag in seconds and the last error while it lasts. Sinks is empty when no stream is set up.",
    tag: 'Audit',
    responses: { 200: auditStreamResponse, ...errors(401, 403) },
  },
  customerRequestsList: {
    summary:
      'Requests opened on behalf of customers who asked for help, by modified date, newest first. 50 a page (limit: 1 to 200); pass NextCursor as cursor for the next page.',
    tag: 'Impersonation',
    query: customerRequestsQuery,
    responses: { 200: impersonationListResponse, ...errors(400, 401, 403) },
  },
  customerRequestsCreate: {
    summary:
      "A customer asks for help: authenticated with their site's API key and secret (headers apikey and apisecret), the request carries its own consent and goes to the SuperAdmins. The SuperAdmin who approves it is the one who may use it.",
    tag: 'Impersonation',
    siteCredentials: true,
    body: customerRequestBody,
    responses: {
      200: impersonationOneResponse.extend({ Message: z.string() }),
      ...errors(400, 401, 409, 429),
    },
  },
  siteAccess: {
    summary:
      "The owner's view of every impersonation request and step on their site, from the link in the consent email; ErrorCode 976 when the link is invalid or has expired.",
    tag: 'Impersonation',
    query: siteAccessQuery,
    responses: { 200: siteAccessResponse, ...errors(400, 429) },
  },
  siteAccessExport: {
    summary:
      "Every step on the owner's site, oldest first, as a file (format csv, the default, or json: an array), with provider staff named as on the owner's page and each step's reason and case; behind the same link (token). ErrorCode 976 when the link is invalid or has expired.",
    tag: 'Impersonation',
    query: siteAccessExportQuery,
    responses: { 200: siteAccessFileResponse, ...errors(400, 429) },
    produces: ['text/csv', 'application/json'],
  },
  siteAccessFeed: {
    summary:
      "An Atom feed (RFC 4287) of the newest 100 steps on the owner's site, each with its request's reason and case, for a feed reader; behind the same link (token), so it lasts as long as the link. ErrorCode 976 when the link is invalid or has expired.",
    tag: 'Impersonation',
    query: siteAccessQuery,
    responses: { 200: siteAccessFileResponse, ...errors(400, 429) },
    produces: ['application/atom+xml'],
  },
  consentDetails: {
    summary:
      'What a consent link asks: for the public consent page the site owner opens from the email; ErrorCode 975 when the link is invalid, used or expired.',
    tag: 'Impersonation',
    query: consentQuery,
    responses: { 200: consentDetailsResponse, ...errors(400, 429) },
  },
  consentAnswer: {
    summary:
      'The site owner allows or denies a request; recorded with time and client address; the link then stops working (ErrorCode 975 when it is invalid, used or expired).',
    tag: 'Impersonation',
    body: consentBody,
    responses: { 200: okResponse, ...errors(400, 409, 429) },
  },
  updateAccess: {
    summary:
      "The caller's live access to a customer's site: their approved, consented, unexpired impersonation grant (roles, permissions, expiry), or 403.",
    tag: 'Impersonation',
    query: updateAccessQuery,
    responses: { 200: updateAccessResponse, ...errors(400, 401, 403, 404) },
  },
  switchApp: {
    summary:
      "Open an impersonation session on a site the caller holds a live grant for: a new xtoken/xsign pair that reaches only that site's calls, within the approved customer roles and permissions, until the grant expires or is revoked. Every call of it is logged.",
    tag: 'Impersonation',
    query: switchAppQuery,
    responses: { 200: switchAppResponse, ...errors(400, 401, 403) },
  },
} as const satisfies DetailsPart;
