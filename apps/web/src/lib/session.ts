import { type Permission, permissionsOf } from '@sac/contract/permissions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from './api-client.ts';
import { readAuth, readLoginState } from './storage.ts';

/** GET /admin/session: the signed-in user, roles and permissions. Shared by the shell and guards. */
const sessionKeys = { all: ['session'] as const };

export const sessionQuery = () =>
  queryOptions({
    queryKey: sessionKeys.all,
    queryFn: ({ signal }) => callApi('session', { signal }),
    staleTime: 60_000,
    enabled: readAuth() !== undefined,
  });

/**
 * While the user is a new SuperAdmin in the cool-down (the session's CanApproveImpersonationFrom,
 * still ahead): when it ends; otherwise null. Until then the server refuses their approvals and
 * their acts on another SuperAdmin or on the SuperAdmin role (948).
 */
export function coolDownEnd(user: { canApproveImpersonationFrom: string | null }, now = Date.now()) {
  const end = user.canApproveImpersonationFrom;
  return end !== null && Date.parse(end) > now ? end : null;
}

/** The current user as best known: the server's session, else the saved login state. */
export function useCurrentUser() {
  const q = useQuery(sessionQuery());
  const saved = readLoginState();
  const email = q.data?.Email ?? saved?.Email ?? '';
  const name = q.data?.Name ?? saved?.Name ?? '';
  const roles = q.data?.Role ?? saved?.Role ?? [];
  // The server's list is typed by the contract's matrix: a check by a misspelt name fails the typecheck.
  const permissions = (
    q.data ? new Set(q.data.Permissions) : permissionsOf(roles)
  ) as ReadonlySet<Permission>;
  /** The server's id of the user; '' until the session has loaded. */
  const uid = q.data?.Uid ?? '';
  /** A new SuperAdmin in the approval cool-down: when they may approve impersonation (else null). */
  const canApproveImpersonationFrom = q.data?.CanApproveImpersonationFrom ?? null;
  return { uid, email, name, roles, permissions, canApproveImpersonationFrom, isLoaded: q.isSuccess };
}
