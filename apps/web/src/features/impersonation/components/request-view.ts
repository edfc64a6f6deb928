import { availableActions, type RequestState } from '@sac/contract/impersonation';
import type { ImpersonationRequest } from '@sac/contract/impersonation-api';

export type RequestAction = ReturnType<typeof availableActions>[number];

/** The state machine's view of a listed request (an Expired row is a stored Approved one). */
function stateOf(r: ImpersonationRequest): RequestState {
  return {
    status: r.Action.Status === 'Expired' ? 'Approved' : r.Action.Status,
    deleted: false,
    initiator: r.Initiator,
    assignees: r.Request.Assignees,
    consent: r.Consent,
    priority: r.Request.Priority,
    description: r.Request.Description,
    proxyRoles: r.Request.ProxyRoles,
    additionalPermissions: r.Request.AdditionalPermissions,
    durationMinutes: r.Request.Duration,
    expiresAt: r.Action.ExpiresAt ? Date.parse(r.Action.ExpiresAt) : null,
    approvedRoles: r.Action.ApprovedProxyRoles,
    approvedPermissions: r.Action.ApprovedAdditionalPermissions,
  };
}

/** What the viewer may do with a request now: none once expired (or shown Expired by the server). */
export function actionsFor(
  r: ImpersonationRequest,
  viewer: { email: string; isApprover: boolean },
  now: number,
): RequestAction[] {
  if (r.Action.Status === 'Expired') return [];
  return availableActions(stateOf(r), viewer, now);
}

/** The permission names of the customer roles (their Permissions objects' keys), in first-seen order. */
export function permissionNames(roles: readonly { Permissions: Record<string, boolean> }[]): string[] {
  return [...new Set(roles.flatMap((r) => Object.keys(r.Permissions)))];
}
