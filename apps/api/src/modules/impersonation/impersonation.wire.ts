import { customerReasonOut, type ReasonSettings, reasonOut } from '@sac/contract/access-reasons';
import { displayStatus } from '@sac/contract/impersonation';
import type { DISPLAY_STATUSES, LOG_STATUSES } from '@sac/contract/impersonation-api';
import { isoOrNull } from '../../lib/iso.ts';
import { type RequestRow, stateOf } from './impersonation.repo.ts';
import type { LogEntryRow } from './impersonation-log-list.repo.ts';

/** Rows of the impersonation tables as the calls answer them. */

export type DisplayStatus = (typeof DISPLAY_STATUSES)[number];
export type LogStatus = (typeof LOG_STATUSES)[number];

/** `reasons`: the operator's reason settings, for the code's words and the case's link. */
export function toWire(r: RequestRow, now: Date, reasons: ReasonSettings) {
  return {
    Id: Number(r.id),
    AppId: Number(r.app_id),
    AppName: r.app_name,
    Initiator: r.initiator_email,
    Impersonation: r.consent === 'granted',
    Consent: r.consent,
    IsCustomerRequest: r.is_customer_request,
    BreakGlass: r.break_glass,
    Request: {
      Priority: r.priority,
      Description: r.description,
      Assignees: r.assignees,
      ProxyRoles: r.proxy_roles,
      AdditionalPermissions: r.additional_permissions,
      Duration: r.duration_minutes,
      ...reasonOut(reasons, r),
      RequestCreatedDate: isoOrNull(r.created_at)!,
      RequestModifiedDate: isoOrNull(r.modified_at)!,
    },
    Action: {
      Status: displayStatus(stateOf(r), now.getTime()) as DisplayStatus,
      ActionTakenBy: r.action_taken_by,
      ActionTakenAt: isoOrNull(r.action_taken_at),
      ExpiresAt: isoOrNull(r.expires_at),
      ApprovedProxyRoles: r.approved_roles,
      ApprovedAdditionalPermissions: r.approved_permissions,
      Reason: r.reason,
    },
    Version: r.version,
  };
}

export type WireRequest = ReturnType<typeof toWire>;

/** The answer's Data of an approval, rejection or revocation. */
export function actionOut(w: WireRequest) {
  return {
    Id: w.Id,
    AppName: w.AppName,
    Action: { Status: w.Action.Status },
    ApprovedProxyRoles: w.Action.ApprovedProxyRoles,
    ApprovedAdditionalPermissions: w.Action.ApprovedAdditionalPermissions,
    ExpiresAt: w.Action.ExpiresAt,
    Initiator: w.Initiator,
  };
}

/** A log entry's details: a JSON object as written (anything else reads as none). */
function detailsOf(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v))
    : {};
}

/**
 * A log entry's status at `now`: the newest entry of an approved request past its expiry reads
 * Expired (as the log's filter says: expiredStep), any other its own. The list's row and an
 * export file's row (its expiry as text) alike.
 */
export function logStatusOf(
  x: Pick<LogEntryRow, 'status' | 'current_status' | 'latest'> & { expires_at: Date | string | null },
  now: number,
): LogStatus {
  if (!x.latest) return x.status as LogStatus;
  const expiresAt = x.expires_at === null ? null : new Date(x.expires_at).getTime();
  return displayStatus({ status: x.current_status, expiresAt }, now) === 'Expired'
    ? 'Expired'
    : (x.status as LogStatus);
}

/** A log entry as the log's page shows it. */
export function logEntryOut(x: LogEntryRow, now: Date) {
  return {
    Id: Number(x.id),
    RequestId: Number(x.request_id),
    AppName: x.app_name,
    Status: logStatusOf(x, now.getTime()),
    Event: x.event,
    Actor: x.actor,
    LastModified: isoOrNull(x.at)!,
    Details: detailsOf(x.details),
  };
}

/** What a consent link asks, for the owner's consent page (the case without the tracker's link). */
export function consentDetailsOut(row: RequestRow, reasons: ReasonSettings) {
  return {
    RequestId: Number(row.id),
    AppName: row.app_name,
    RequestedBy: row.initiator_email,
    Description: row.description,
    ProxyRoles: row.proxy_roles,
    AdditionalPermissions: row.additional_permissions,
    Duration: row.duration_minutes,
    ...customerReasonOut(reasons, row),
    Consent: row.consent,
  };
}
