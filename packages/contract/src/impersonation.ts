import { z } from 'zod';
import { IMPERSONATION_DURATION_MAX_MINUTES, IMPERSONATION_DURATION_MIN_MINUTES } from './constants.ts';
import { MESSAGES } from './messages.ts';

/**
 * The impersonation request state machine (spec sections 3, 4 and 6), pure: the API applies each
 * transition atomically over the stored row, the console uses the same rules to show actions.
 *
 *   Pending --approve--> Approved --revoke (whole site, or the last roles)--> Revoked
 *   Pending --reject---> Rejected
 *   Pending --delete---> (gone)        Pending --edit--> Pending
 *   Approved and ExpiresAt passed: displayed Expired, and no action applies any more.
 */
export const PRIORITIES = ['Low', 'Moderate', 'High', 'Critical'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const STORED_STATUSES = ['Pending', 'Approved', 'Rejected', 'Revoked'] as const;
export type StoredStatus = (typeof STORED_STATUSES)[number];
export type DisplayStatus = StoredStatus | 'Expired';
/** revokeAction: the whole site access, or only the chosen roles and permissions. */
export const REVOKE_ACTIONS = ['site', 'roles'] as const;

/** The most a decision's comment may hold. */
const DECISION_COMMENTS_MAX = 2000;
/**
 * The comment of a decision on a request (approve, reject, revoke), kept as the request's reason
 * and shown to its requester: the single decision's, and each item's of a bulk rejection or
 * revocation (bulk.ts).
 */
export const decisionComments = z
  .string()
  .trim()
  .max(DECISION_COMMENTS_MAX, `A comment takes at most ${DECISION_COMMENTS_MAX} characters.`)
  .optional()
  .default('');
export type RevokeAction = (typeof REVOKE_ACTIONS)[number];

type Consent = 'pending' | 'granted' | 'denied';

export interface RequestState {
  status: StoredStatus;
  deleted: boolean;
  initiator: string;
  assignees: string[];
  consent: Consent;
  priority: Priority;
  description: string;
  proxyRoles: string[];
  additionalPermissions: string[];
  durationMinutes: number;
  expiresAt: number | null;
  approvedRoles: string[];
  approvedPermissions: string[];
}

export type ImpersonationEvent =
  | { type: 'consent'; granted: boolean }
  | {
      type: 'approve';
      actor: string;
      actorIsApprover: boolean;
      roles: string[];
      permissions: string[];
      durationMinutes: number;
    }
  | { type: 'reject'; actor: string; actorIsApprover: boolean }
  | {
      type: 'revoke';
      actor: string;
      actorIsApprover: boolean;
      action: RevokeAction;
      /** For 'roles': the roles and permissions to take away. */
      roles?: string[];
      permissions?: string[];
    }
  | {
      type: 'edit';
      actor: string;
      proxyRoles: string[];
      additionalPermissions: string[];
      assignees: string[];
      priority: Priority;
      description: string;
    }
  | { type: 'delete'; actor: string };

export const TRANSITION_ERRORS = {
  notPending: 'Only a pending request can be changed this way.',
  notApproved: 'Only an approved request can be revoked.',
  expired: 'This request has expired.',
  deleted: 'This request has been deleted.',
  ownRequest: 'You cannot approve or reject your own request.',
  notApprover: 'Only a SuperAdmin can approve, reject or revoke impersonation.',
  notInitiator: 'Only the requester can edit or delete this request.',
  noConsent: MESSAGES.customerNotGrantedImpersonation,
  consentGiven: 'The customer has already answered this request.',
  rolesRequired: MESSAGES.approveRolesRequired,
  durationRange: MESSAGES.approveDurationRange,
  assigneesRequired: MESSAGES.editAssigneesRequired,
  widening: 'An approval may narrow the requested roles and permissions, never widen them.',
  nothingToRevoke: 'Choose at least one role or permission to revoke.',
} as const;
export type TransitionError = keyof typeof TRANSITION_ERRORS;

export type TransitionResult = { ok: true; state: RequestState } | { ok: false; error: TransitionError };

const isDurationValid = (minutes: number): boolean =>
  Number.isInteger(minutes) &&
  minutes >= IMPERSONATION_DURATION_MIN_MINUTES &&
  minutes <= IMPERSONATION_DURATION_MAX_MINUTES;

/** What the display status depends on: the stored status and the expiry. */
type Expiring = Pick<RequestState, 'status' | 'expiresAt'>;

const isExpired = (s: Expiring, now: number): boolean =>
  s.status === 'Approved' && s.expiresAt !== null && now >= s.expiresAt;

export function displayStatus(s: Expiring, now: number): DisplayStatus {
  return isExpired(s, now) ? 'Expired' : s.status;
}

/** The actions the console offers; none once expired (spec section 4). */
export function availableActions(
  s: RequestState,
  viewer: { email: string; isApprover: boolean },
  now: number,
): Array<'approve' | 'reject' | 'revoke' | 'edit' | 'delete'> {
  if (s.deleted || isExpired(s, now)) return [];
  const out: Array<'approve' | 'reject' | 'revoke' | 'edit' | 'delete'> = [];
  const own = viewer.email === s.initiator;
  if (s.status === 'Pending') {
    if (viewer.isApprover && !own) out.push('approve', 'reject');
    if (own) out.push('edit', 'delete');
  }
  if (s.status === 'Approved' && viewer.isApprover) out.push('revoke');
  return out;
}

const subset = (a: readonly string[], b: readonly string[]) => a.every((x) => b.includes(x));
const fail = (error: TransitionError): TransitionResult => ({ ok: false, error });

/** Applies one event at time `now` (epoch ms); answers the next state or why it cannot. */
export function transition(s: RequestState, e: ImpersonationEvent, now: number): TransitionResult {
  if (s.deleted) return fail('deleted');
  if (isExpired(s, now)) return fail('expired');
  switch (e.type) {
    case 'consent':
      if (s.status !== 'Pending') return fail('notPending');
      if (s.consent !== 'pending') return fail('consentGiven');
      return { ok: true, state: { ...s, consent: e.granted ? 'granted' : 'denied' } };
    case 'approve':
      if (s.status !== 'Pending') return fail('notPending');
      if (!e.actorIsApprover) return fail('notApprover');
      if (e.actor === s.initiator) return fail('ownRequest');
      if (s.consent !== 'granted') return fail('noConsent');
      if (e.roles.length === 0) return fail('rolesRequired');
      if (!isDurationValid(e.durationMinutes)) return fail('durationRange');
      if (!subset(e.roles, s.proxyRoles) || !subset(e.permissions, s.additionalPermissions))
        return fail('widening');
      return {
        ok: true,
        state: {
          ...s,
          status: 'Approved',
          approvedRoles: [...e.roles],
          approvedPermissions: [...e.permissions],
          expiresAt: now + e.durationMinutes * 60_000,
        },
      };
    case 'reject':
      if (s.status !== 'Pending') return fail('notPending');
      if (!e.actorIsApprover) return fail('notApprover');
      if (e.actor === s.initiator) return fail('ownRequest');
      return { ok: true, state: { ...s, status: 'Rejected' } };
    case 'revoke': {
      if (s.status !== 'Approved') return fail('notApproved');
      if (!e.actorIsApprover) return fail('notApprover');
      if (e.action === 'site') return { ok: true, state: { ...s, status: 'Revoked' } };
      const roles = e.roles ?? [];
      const permissions = e.permissions ?? [];
      if (roles.length === 0 && permissions.length === 0) return fail('nothingToRevoke');
      const approvedRoles = s.approvedRoles.filter((r) => !roles.includes(r));
      const approvedPermissions = s.approvedPermissions.filter((p) => !permissions.includes(p));
      // Taking away every role ends the access: a grant without a role is no grant.
      const status: StoredStatus = approvedRoles.length === 0 ? 'Revoked' : 'Approved';
      return { ok: true, state: { ...s, status, approvedRoles, approvedPermissions } };
    }
    case 'edit':
      if (s.status !== 'Pending') return fail('notPending');
      if (e.actor !== s.initiator) return fail('notInitiator');
      if (e.proxyRoles.length === 0) return fail('rolesRequired');
      if (e.assignees.length === 0) return fail('assigneesRequired');
      return {
        ok: true,
        state: {
          ...s,
          proxyRoles: [...e.proxyRoles],
          additionalPermissions: [...e.additionalPermissions],
          assignees: [...e.assignees],
          priority: e.priority,
          description: e.description,
        },
      };
    case 'delete':
      if (s.status !== 'Pending') return fail('notPending');
      if (e.actor !== s.initiator) return fail('notInitiator');
      return { ok: true, state: { ...s, deleted: true } };
  }
}

/** Whether a stored state is one the machine can reach (the property test checks every run). */
export function isReachableShape(s: RequestState): boolean {
  if (s.status === 'Approved' || s.status === 'Revoked') {
    if (s.expiresAt === null || s.consent !== 'granted') return false;
    if (!subset(s.approvedRoles, s.proxyRoles) || !subset(s.approvedPermissions, s.additionalPermissions))
      return false;
  }
  if (s.status === 'Approved' && s.approvedRoles.length === 0) return false;
  if (s.status === 'Pending' && (s.expiresAt !== null || s.approvedRoles.length > 0)) return false;
  if (s.deleted && s.status !== 'Pending') return false;
  return s.proxyRoles.length > 0 && s.assignees.length > 0;
}
