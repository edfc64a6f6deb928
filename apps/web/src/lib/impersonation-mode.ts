import type { grant } from '@sac/contract/impersonation-session';
import { useSyncExternalStore } from 'react';
import type { z } from 'zod';

/** The tab's impersonation session, in session storage (per tab; not part of the spec's keys). */
export const IMPERSONATION_STORAGE_KEY = 'lr-admin-impersonation';

export type Grant = z.output<typeof grant>;

/** An explicit token pair for one call (the impersonation pair), as account/switchapp answers it. */
export interface TokenPair {
  xtoken: string;
  xsign: string;
}

/** The active impersonation of this tab: the pair, the grant it acts under and the site's owner. */
export interface ImpersonationSession extends TokenPair {
  grant: Grant;
  /** The uid of the customer whose site this is (the customer view to go back to). */
  ownerUid: string;
  /** When the session was opened (ISO); names its cached data. */
  startedAt: string;
}

/** What is left of an impersonation that ended by itself (revoked, expired): for the ended notice. */
export interface EndedImpersonation {
  message: string;
  ownerUid: string;
  appId: number;
  appName: string;
}

export interface ImpersonationState {
  session: ImpersonationSession | undefined;
  ended: EndedImpersonation | undefined;
}

const sessionStore = (): Storage | undefined => {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
};

const isString = (v: unknown): v is string => typeof v === 'string' && v !== '' && v !== 'undefined';
/** A grant's reason or case as stored: its text, else null (a session stored before grants had them). */
const text = (v: unknown): string | null => (isString(v) ? v : null);

function parse(raw: string | null): ImpersonationSession | undefined {
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<ImpersonationSession>;
    const g = v.grant as Partial<Grant> | undefined;
    if (!isString(v.xtoken) || !isString(v.xsign) || !isString(v.ownerUid) || !g) return undefined;
    if (typeof g.AppId !== 'number' || typeof g.ExpiresAt !== 'string' || typeof g.AppName !== 'string') {
      return undefined;
    }
    return {
      xtoken: v.xtoken,
      xsign: v.xsign,
      ownerUid: v.ownerUid,
      startedAt: typeof v.startedAt === 'string' ? v.startedAt : '',
      grant: {
        RequestId: typeof g.RequestId === 'number' ? g.RequestId : 0,
        AppId: g.AppId,
        AppName: g.AppName,
        Roles: Array.isArray(g.Roles) ? g.Roles : [],
        Permissions: Array.isArray(g.Permissions) ? g.Permissions : [],
        ExpiresAt: g.ExpiresAt,
        // break-glass access: the banner is red and says why
        ...(g.BreakGlass === true ? { BreakGlass: true } : {}),
        ReasonCode: text(g.ReasonCode),
        ReasonLabel: text(g.ReasonLabel),
        CaseReference: text(g.CaseReference),
        CaseUrl: text(g.CaseUrl),
      },
    };
  } catch {
    return undefined;
  }
}

const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cachedSession: ImpersonationSession | undefined;
let ended: EndedImpersonation | undefined;
let snapshot: ImpersonationState = { session: undefined, ended: undefined };

const notify = () => {
  for (const l of [...listeners]) l();
};

/** The stored session, re-read when session storage changed underneath (sign-out, tests). */
export function readImpersonation(): ImpersonationSession | undefined {
  const raw = sessionStore()?.getItem(IMPERSONATION_STORAGE_KEY) ?? null;
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedSession = parse(raw);
    if (raw !== null && !cachedSession) sessionStore()?.removeItem(IMPERSONATION_STORAGE_KEY);
  }
  return cachedSession;
}

/** The state for React: a stable object while nothing changed. */
export function getImpersonationState(): ImpersonationState {
  const session = readImpersonation();
  if (snapshot.session !== session || snapshot.ended !== ended) snapshot = { session, ended };
  return snapshot;
}

/** Stores a newly opened impersonation session (forgets an earlier ended one). */
export function startImpersonation(session: ImpersonationSession): void {
  ended = undefined;
  sessionStore()?.setItem(IMPERSONATION_STORAGE_KEY, JSON.stringify(session));
  notify();
}

/** Forgets the impersonation without a notice: ended by the user, or the admin signed out. */
export function clearImpersonation(): void {
  const store = sessionStore();
  const had = store?.getItem(IMPERSONATION_STORAGE_KEY) != null || ended !== undefined;
  store?.removeItem(IMPERSONATION_STORAGE_KEY);
  ended = undefined;
  if (had) notify();
}

/**
 * The impersonation ended by itself (the grant expired or was revoked; a 401 answered its pair, or
 * the countdown reached zero): the stored pair is cleared and the ended notice kept, in memory, for
 * this tab. `pair` names the session that ended; an older pair's answer ends nothing.
 */
export function endImpersonation(message: string, pair?: TokenPair): void {
  const current = readImpersonation();
  if (!current) return;
  if (pair && pair.xtoken !== current.xtoken) return;
  ended = {
    message,
    ownerUid: current.ownerUid,
    appId: current.grant.AppId,
    appName: current.grant.AppName,
  };
  sessionStore()?.removeItem(IMPERSONATION_STORAGE_KEY);
  notify();
}

function subscribeImpersonation(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The tab's impersonation: the active session, or the notice of one that ended. */
export function useImpersonation(): ImpersonationState {
  return useSyncExternalStore(subscribeImpersonation, getImpersonationState, getImpersonationState);
}
