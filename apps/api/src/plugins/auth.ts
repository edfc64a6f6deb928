import { API_TOKEN_MESSAGES, API_TOKEN_PREFIX, NOT_FOR_TOKENS } from '@sac/contract/api-tokens';
import { SESSION_ENDED_MESSAGES } from '@sac/contract/auth';
import { HEADERS } from '@sac/contract/constants';
import type { EndpointRoute } from '@sac/contract/endpoint-routes';
import { IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session-messages';
import { BUILT_IN_ROLES } from '@sac/contract/permissions';
import { type PermissionScopes, scopeFor } from '@sac/contract/role-scopes';
import { STEP_UP_MESSAGES } from '@sac/contract/step-up';
import type { FastifyRequest } from 'fastify';
import type { CallAuth, Refusal, StaffSession } from '../app-context.ts';
import { addressAllowed } from '../lib/address-allowlist.ts';
import { AppError } from '../lib/app-error.ts';

/** A live session as the session store answers it. */
interface FoundSession {
  id: number;
  uid: string;
  email: string;
  full_name: string;
  roles: string[];
  permissions: string[];
  verified_at: Date;
  /** What the member's scoped roles limit, per permission; null: nothing. */
  scopes: PermissionScopes | null;
  impersonation_request_id: number | null;
  /** The staff address allowlist as it stands (none: everyone). */
  allowlist: string[];
}

/** A live API token as the token store answers it, with its owner as they stand now. */
interface FoundToken {
  id: number;
  name: string;
  uid: string;
  email: string;
  full_name: string;
  roles: string[];
  /** The owner's permissions now. */
  permissions: string[];
  token_permissions: string[];
  /** What the owner's scoped roles limit, per permission; null: nothing. */
  scopes: PermissionScopes | null;
  allowed_addresses: string[];
  allowlist: string[];
}

/** What authentication needs from the modules that own sessions and grants; app.ts passes them in. */
export interface AuthDeps {
  /** The live session of a token and sign pair (renewed), or undefined. */
  findSession(xtoken: string, xsign: string): Promise<FoundSession | undefined>;
  /** The live token of a bearer secret, or undefined (unknown, revoked, expired, its owner gone). */
  findToken(token: string): Promise<FoundToken | undefined>;
  /** The owner of a bearer secret that names a token no longer live; undefined for any other. */
  endedTokenOwner(token: string): Promise<{ uid: string; email: string } | undefined>;
  /** Notes a token's use (written behind the call, at most once a minute per token). */
  noteTokenUse(id: number, clientAddress: string): void;
  /** The live grant an impersonation session acts under; throws 401 when it ended. */
  impersonationScope(
    requestId: number,
    staff: { uid: string; email: string },
  ): Promise<NonNullable<StaffSession['impersonation']>>;
  /** Writes an impersonated call, allowed or refused, to the impersonation log. */
  logImpersonatedCall(
    session: StaffSession,
    call: { method: string; path: string; allowed: boolean; clientAddress: string },
  ): Promise<void>;
  /**
   * The staff member a pair names when its session is no longer live, and why it ended (null: it
   * ran out); undefined for any other pair.
   */
  endedSessionOwner(
    xtoken: string,
    xsign: string,
  ): Promise<{ uid: string; email: string; reason: string | null } | undefined>;
  /** Whether a session's last sign-in or step-up is recent enough for a sensitive action. */
  recentlyVerified(session: StaffSession): boolean;
  /** Writes a refused staff call to the staff trail (folded); may throw. */
  recordRefusal(refusal: Refusal): Promise<void>;
  /** Where a refusal that could not be recorded is logged. */
  log: { error(obj: unknown, msg: string): void };
}

/** The words of a 901 for a session someone ended (undefined: it ran out, the 901's own text). */
const whyEnded = (reason: string | null | undefined): string | undefined =>
  reason && reason in SESSION_ENDED_MESSAGES
    ? SESSION_ENDED_MESSAGES[reason as keyof typeof SESSION_ENDED_MESSAGES]
    : undefined;

const NOT_FOR_TOKEN_IDS = new Set<string>(NOT_FOR_TOKENS);

/** The bearer secret of an `Authorization: Bearer sac_…` header, or undefined. */
const bearerOf = (req: FastifyRequest): string | undefined => {
  const v = req.headers.authorization;
  // The scheme's name is case-insensitive (RFC 9110).
  if (typeof v !== 'string' || v.length > 200 || v.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  const token = v.slice(7).trim();
  return token.startsWith(API_TOKEN_PREFIX) ? token : undefined;
};

/** Calls an impersonation session may always make: who am I, and ending the session. */
const IMPERSONATION_OPEN = new Set(['session', 'logout']);

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name.toLowerCase()];
  return typeof v === 'string' && v !== '' && v !== 'undefined' ? v : undefined;
};

/** The live session of the call's pair with the allowlist read with it, or undefined. */
async function sessionOf(
  deps: AuthDeps,
  request: FastifyRequest,
): Promise<{ session: StaffSession; allowlist: string[] } | undefined> {
  const xtoken = header(request, HEADERS.token);
  const xsign = header(request, HEADERS.sign);
  if (!xtoken || !xsign) return undefined;
  const s = await deps.findSession(xtoken, xsign);
  if (!s) return undefined;
  const impersonation = s.impersonation_request_id
    ? await deps.impersonationScope(Number(s.impersonation_request_id), { uid: s.uid, email: s.email })
    : undefined;
  const session = {
    ...(impersonation ? { impersonation } : {}),
    sessionId: s.id,
    uid: s.uid,
    email: s.email,
    name: s.full_name,
    roles: s.roles,
    permissions: new Set(s.permissions),
    ...(s.scopes ? { scopes: s.scopes } : {}),
    verifiedAt: new Date(s.verified_at),
  };
  return { session, allowlist: s.allowlist };
}

/**
 * A token's principal: its owner, with the token's permissions the owner still holds, and of
 * the owner's built-in roles only those whose every permission the token holds. The rules that
 * go by role (a SuperAdmin's acts, the profile-access rule) then hold a token to what it was
 * given: a SuperAdmin's token with a few permissions is no SuperAdmin.
 */
function tokenPrincipal(t: FoundToken): StaffSession {
  const owner = new Set(t.permissions);
  const permissions = new Set(t.token_permissions.filter((p) => owner.has(p)));
  const roles = t.roles.filter(
    (r) => BUILT_IN_ROLES[r]?.permissions.every((p) => permissions.has(p)) ?? true,
  );
  return {
    sessionId: 0,
    uid: t.uid,
    email: t.email,
    name: t.full_name,
    roles,
    permissions,
    ...(t.scopes ? { scopes: t.scopes } : {}),
    // a token is never a person's recent proof: sensitive actions are refused to it
    verifiedAt: new Date(0),
    apiToken: { id: Number(t.id), name: t.name },
  };
}

/**
 * The principal of a bearer token, or the refusal it earned: a token no longer live (recorded
 * as its owner's when it names a real one), a call no token may make, an address its list or
 * the staff allowlist leaves out.
 */
async function tokenCall(
  deps: AuthDeps,
  recordRefusal: CallAuth['recordRefusal'],
  def: EndpointRoute,
  request: FastifyRequest,
  bearer: string,
): Promise<StaffSession> {
  const t = await deps.findToken(bearer);
  if (!t) {
    const refusal = new AppError('unauthenticated', 'This API token has expired or was revoked.');
    let owner: Awaited<ReturnType<AuthDeps['endedTokenOwner']>>;
    try {
      owner = await deps.endedTokenOwner(bearer);
    } catch (err) {
      deps.log.error({ err }, 'a refused staff call could not be written to the trail');
    }
    if (owner) await recordRefusal(owner, def, 'a live API token', refusal, request.ip);
    throw refusal;
  }
  const principal = tokenPrincipal(t);
  const refuse = async (error: AppError, missing: string) => {
    await recordRefusal(principal, def, missing, error, request.ip);
    return error;
  };
  if (!addressAllowed(t.allowlist, request.ip))
    throw await refuse(new AppError('addressNotAllowed'), 'an allowed address');
  if (!addressAllowed(t.allowed_addresses, request.ip))
    throw await refuse(
      new AppError('addressNotAllowed', API_TOKEN_MESSAGES.addressRefused),
      'a token address',
    );
  if (NOT_FOR_TOKEN_IDS.has(def.id))
    throw await refuse(new AppError('tokenNotAllowed', API_TOKEN_MESSAGES.tokenCall), 'a console session');
  // A sensitive action needs a person's recent proof (step-up), which a token cannot give.
  if (def.stepUp)
    throw await refuse(new AppError('tokenNotAllowed', STEP_UP_MESSAGES.tokenCannot), 'a recent sign-in');
  deps.noteTokenUse(principal.apiToken!.id, request.ip);
  return principal;
}

/**
 * Authentication and authorization of every endpoint call: the xtoken/xsign pair to a staff
 * session or a bearer API token to its owner, the staff address allowlist, the staff permission
 * the endpoint needs, and for an impersonation session the site
 * and customer permission its grant allows (each such call logged, allowed or refused).
 */
export function authPlugin(deps: AuthDeps): CallAuth {
  /** The caller's session or token, refused (and recorded) when the staff allowlist leaves its address out. */
  async function principalOf(def: EndpointRoute, request: FastifyRequest): Promise<StaffSession> {
    const bearer = bearerOf(request);
    if (bearer) return tokenCall(deps, recordRefusal, def, request, bearer);
    const found = await sessionOf(deps, request);
    if (!found) throw await endedSessionRefusal(def, request);
    if (!addressAllowed(found.allowlist, request.ip)) {
      const refusal = new AppError('addressNotAllowed');
      await recordRefusal(found.session, def, 'an allowed address', refusal, request.ip);
      throw refusal;
    }
    return found.session;
  }

  async function recordRefusal(
    actor: { uid: string; email: string; apiToken?: { id: number; name: string } | undefined },
    def: EndpointRoute,
    missing: string,
    refusal: { status: number; code: number },
    clientAddress: string,
  ): Promise<void> {
    try {
      await deps.recordRefusal({
        actorUid: actor.uid,
        actorEmail: actor.email,
        endpoint: `${def.method} ${def.path}`,
        missing,
        status: refusal.status,
        errorCode: refusal.code,
        clientAddress,
        apiToken: actor.apiToken,
      });
    } catch (err) {
      // The caller still gets the refusal it earned, not a 500.
      deps.log.error({ err }, 'a refused staff call could not be written to the trail');
    }
  }

  /**
   * The refusal of a pair without a live session. One that names a real session that ended is its
   * owner's refusal, written to the trail, and says why it ended when someone ended it; a call
   * without a pair, or with one nobody was given, names nobody and is not recorded.
   */
  async function endedSessionRefusal(def: EndpointRoute, request: FastifyRequest): Promise<AppError> {
    const xtoken = header(request, HEADERS.token);
    const xsign = header(request, HEADERS.sign);
    if (!xtoken || !xsign) return new AppError('unauthenticated');
    let owner: Awaited<ReturnType<AuthDeps['endedSessionOwner']>>;
    try {
      owner = await deps.endedSessionOwner(xtoken, xsign);
    } catch (err) {
      deps.log.error({ err }, 'a refused staff call could not be written to the trail');
      return new AppError('unauthenticated');
    }
    const refusal = new AppError('unauthenticated', whyEnded(owner?.reason));
    if (owner) await recordRefusal(owner, def, 'a live session', refusal, request.ip);
    return refusal;
  }

  return {
    recordRefusal,

    async authenticate(def: EndpointRoute, request: FastifyRequest) {
      if (def.access === 'public') return undefined;
      const session = await principalOf(def, request);
      // An impersonation session acts as the approved customer roles on one site, nothing else.
      if (!session.impersonation && def.access !== 'session' && !session.permissions.has(def.access)) {
        const refusal = new AppError('forbidden');
        await recordRefusal(session, def, def.access, refusal, request.ip);
        throw refusal;
      }
      // The sites this call reaches: its permission's scope (role-scopes.ts), kept to by the route's rule.
      const scope = session.impersonation ? undefined : scopeFor(session.scopes, def.access);
      if (scope) session.scope = scope;
      // Not a refusal for the trail: the console asks the user to confirm it is them, then retries.
      if (def.stepUp && !deps.recentlyVerified(session)) throw new AppError('stepUpRequired');
      return session;
    },

    async authorizeImpersonation(def, session, query, request) {
      if (!session?.impersonation || IMPERSONATION_OPEN.has(def.id)) return;
      const appId = (query as { appId?: number } | undefined)?.appId;
      const allowed =
        def.impersonation !== undefined &&
        appId === session.impersonation.appId &&
        session.impersonation.permissions.has(def.impersonation);
      await deps.logImpersonatedCall(session, {
        method: def.method,
        path: def.path,
        allowed,
        clientAddress: request.ip,
      });
      if (!allowed) throw new AppError('impersonationForbidden', IMPERSONATION_SESSION_MESSAGES.outOfScope);
    },
  };
}
