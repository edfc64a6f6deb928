import { availableActions, type RequestState } from '@sac/contract/impersonation';
import type { DISPLAY_STATUSES, ImpersonationRequest } from '@sac/contract/impersonation-api';
import { useEffect, useState } from 'react';

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

/** The status to show now: an Approved grant whose time is up reads Expired without a refetch. */
export function statusAt(r: ImpersonationRequest, now: number): (typeof DISPLAY_STATUSES)[number] {
  const ends = r.Action.ExpiresAt ? Date.parse(r.Action.ExpiresAt) : Number.NaN;
  return r.Action.Status === 'Approved' && ends <= now ? 'Expired' : r.Action.Status;
}

/** Longest timeout a browser keeps (about 24.8 days); a later expiry is waited for in steps. */
const MAX_TIMEOUT = 2_147_483_647;

/**
 * The time now, renewed when the first of the listed grants expires: the list and its popup turn
 * it Expired, and take its actions away, at that moment.
 */
export function useExpiryClock(requests: readonly ImpersonationRequest[] | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const next = Math.min(
      ...(requests ?? [])
        .filter((r) => r.Action.Status === 'Approved' && r.Action.ExpiresAt)
        .map((r) => Date.parse(r.Action.ExpiresAt!))
        .filter((at) => at > now),
    );
    if (!Number.isFinite(next)) return;
    const id = setTimeout(() => setNow(Date.now()), Math.min(next - Date.now() + 50, MAX_TIMEOUT));
    return () => clearTimeout(id);
  }, [requests, now]);
  return now;
}
