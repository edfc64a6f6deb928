import { SESSION_ENDED_MESSAGES } from '@sac/contract/auth';
import { HEADERS } from '@sac/contract/constants';
import type { EndpointRoute } from '@sac/contract/endpoint-routes';
import { IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session';
import type { FastifyRequest } from 'fastify';
import type { CallAuth, Refusal, StaffSession } from '../app-context.ts';
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
  impersonation_request_id: number | null;
}

/** What authentication needs from the modules that own sessions and grants; app.ts passes them in. */
export interface AuthDeps {
  /** The live session of a token and sign pair (renewed), or undefined. */
  findSession(xtoken: string, xsign: string): Promise<FoundSession | undefined>;
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

/** Calls an impersonation session may always make: who am I, and ending the session. */
const IMPERSONATION_OPEN = new Set(['session', 'logout']);

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name.toLowerCase()];
  return typeof v === 'string' && v !== '' && v !== 'undefined' ? v : undefined;
};

/**
 * Authentication and authorization of every endpoint call: the xtoken/xsign pair to a staff
 * session, the staff permission the endpoint needs, and for an impersonation session the site
 * and customer permission its grant allows (each such call logged, allowed or refused).
 */
export function authPlugin(deps: AuthDeps): CallAuth {
  async function sessionOf(request: FastifyRequest): Promise<StaffSession | undefined> {
    const xtoken = header(request, HEADERS.token);
    const xsign = header(request, HEADERS.sign);
    if (!xtoken || !xsign) return undefined;
    const s = await deps.findSession(xtoken, xsign);
    if (!s) return undefined;
    const impersonation = s.impersonation_request_id
      ? await deps.impersonationScope(Number(s.impersonation_request_id), { uid: s.uid, email: s.email })
      : undefined;
    return {
      ...(impersonation ? { impersonation } : {}),
      sessionId: s.id,
      uid: s.uid,
      email: s.email,
      name: s.full_name,
      roles: s.roles,
      permissions: new Set(s.permissions),
      verifiedAt: new Date(s.verified_at),
    };
  }

  async function recordRefusal(
    actor: { uid: string; email: string },
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
      const session = await sessionOf(request);
      if (!session) throw await endedSessionRefusal(def, request);
      // An impersonation session acts as the approved customer roles on one site, nothing else.
      if (!session.impersonation && def.access !== 'session' && !session.permissions.has(def.access)) {
        const refusal = new AppError('forbidden');
        await recordRefusal(session, def, def.access, refusal, request.ip);
        throw refusal;
      }
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
