import { ENDPOINT_ROUTES, type EndpointId } from '@sac/contract/endpoint-routes';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import type { ImpersonationSession, TokenPair } from './impersonation-mode.ts';
import { useCurrentUser } from './session.ts';

/**
 * Who the screens below call the API as: the signed-in staff member (their stored pair, their
 * permissions) or an impersonation session (its own pair, the customer permissions it was granted).
 * Screens never take credentials as arguments; they read this.
 */
export interface ApiAuth {
  /** The pair to send; undefined sends the stored staff pair. */
  pair: TokenPair | undefined;
  /** Names the caller in query keys, so two callers never share cached answers. */
  scope: string;
  /**
   * Whether the server lets this caller make the call, by the rule it applies: the staff member's
   * permission, or for an impersonation the grant's customer permission named by the endpoint.
   */
  allows(id: EndpointId): boolean;
  /** The customer permission an impersonation would need for a call (for the reason shown). */
  needs(id: EndpointId): string | undefined;
  /** False while the staff member's permissions are still being read (then only guessed). */
  ready: boolean;
}

/** The query and call options that carry the caller's pair. */
export const withAuth = (auth: ApiAuth) => (auth.pair ? { auth: auth.pair } : {});

const ApiAuthContext = createContext<ApiAuth | undefined>(undefined);

/** Screens inside call as an impersonation session: its pair, limited to its grant. */
export function ImpersonationAuthProvider({
  session,
  children,
}: {
  session: ImpersonationSession;
  children: ReactNode;
}) {
  const value = useMemo(() => impersonationAuth(session), [session]);
  return <ApiAuthContext.Provider value={value}>{children}</ApiAuthContext.Provider>;
}

function impersonationAuth(session: ImpersonationSession): ApiAuth {
  const granted = new Set(session.grant.Permissions);
  const needs = (id: EndpointId): string | undefined =>
    (ENDPOINT_ROUTES[id] as { impersonation?: string }).impersonation;
  return {
    pair: { xtoken: session.xtoken, xsign: session.xsign },
    scope: `as:${session.xtoken}`,
    ready: true,
    needs,
    allows: (id) => {
      const permission = needs(id);
      return permission !== undefined && granted.has(permission);
    },
  };
}

/** The caller of the screen: the impersonation session around it, else the signed-in staff member. */
export function useApiAuth(): ApiAuth {
  const provided = useContext(ApiAuthContext);
  const { permissions, isLoaded } = useCurrentUser();
  return useMemo(
    () =>
      provided ?? {
        pair: undefined,
        scope: 'staff',
        ready: isLoaded,
        needs: () => undefined,
        allows: (id) => {
          const access = ENDPOINT_ROUTES[id].access;
          return access === 'public' || access === 'session' || permissions.has(access);
        },
      },
    [provided, permissions, isLoaded],
  );
}
