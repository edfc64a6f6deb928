import { LEGACY_STORAGE_KEYS, STORAGE_KEYS } from '@sac/contract/constants';
import { clearImpersonation } from './impersonation-mode.ts';

/** The console's own preference key (not part of the spec's list): the chosen sign-in language. */
export const LANGUAGE_STORAGE_KEY = 'lr-admin-language';

export interface LoginState {
  Email: string;
  Name: string;
  Role: string[];
}

export interface AuthPair {
  token: string;
  sign: string;
}

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const store = (): Store => globalThis.localStorage;

/** A stored value counts only when present and not the string 'undefined' (spec section 6). */
const usable = (v: string | null): v is string => v !== null && v !== '' && v !== 'undefined';

/**
 * The second step of a sign-in in progress (its single-use ticket, SECOND_STEP_TTL_MINUTES long,
 * which opens only the second step or the set-up of a first factor), kept for this tab alone so
 * that a reload of its screen does not send the user back to type the password. Gone once the
 * sign-in completes or the session storage is cleared.
 */
const SECOND_STEP_KEY = 'lr-admin-second-step';
const tabStore = (): Store | undefined => {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined; // storage refused (private mode): a reload then starts again
  }
};

/**
 * The binder of a single sign-on in progress (POST /admin/login/sso/start): kept for this tab
 * while the browser is at the provider, given back with the code, then dropped. A sign-in started
 * in another browser has none here, so a code forced on this one is refused.
 */
const SSO_BINDER_KEY = 'lr-admin-sso-binder';

export function keepSsoBinder(binder: string): void {
  try {
    tabStore()?.setItem(SSO_BINDER_KEY, binder);
  } catch {
    // refused: the sign-in is then refused at its finish, and the user starts again
  }
}

/** The binder kept by keepSsoBinder, taken (it serves one finish). */
export function takeSsoBinder(): string | undefined {
  try {
    const b = tabStore()?.getItem(SSO_BINDER_KEY) ?? undefined;
    tabStore()?.removeItem(SSO_BINDER_KEY);
    return b ?? undefined;
  } catch {
    return undefined;
  }
}

export function keepSecondStep(step: unknown): void {
  try {
    tabStore()?.setItem(SECOND_STEP_KEY, JSON.stringify(step));
  } catch {
    // full or refused: only the reload loses it
  }
}

export function readSecondStep(): unknown {
  try {
    const v = tabStore()?.getItem(SECOND_STEP_KEY);
    return v ? JSON.parse(v) : undefined;
  } catch {
    return undefined;
  }
}

function forgetSecondStep(): void {
  tabStore()?.removeItem(SECOND_STEP_KEY);
}

/**
 * Moves the legacy token and signature keys to the admin keys and removes the legacy ones. An
 * admin key that already holds a usable value is kept.
 */
export function migrateLegacyStorage(s: Store = store()): void {
  for (const name of ['token', 'sign'] as const) {
    const legacy = s.getItem(LEGACY_STORAGE_KEYS[name]);
    if (legacy !== null) {
      if (!usable(s.getItem(STORAGE_KEYS[name])) && usable(legacy)) s.setItem(STORAGE_KEYS[name], legacy);
      s.removeItem(LEGACY_STORAGE_KEYS[name]);
    }
  }
}

/**
 * Clears what the console keeps about a session: token, sign, login state and site name, and the
 * tab's impersonation (it lives only inside the admin's sign-in).
 */
export function clearAuthStorage(s: Store = store()): void {
  s.removeItem(STORAGE_KEYS.token);
  s.removeItem(STORAGE_KEYS.sign);
  s.removeItem(STORAGE_KEYS.loginState);
  s.removeItem(STORAGE_KEYS.siteName);
  forgetSecondStep();
  clearImpersonation();
}

/**
 * The stored token and sign. When either is missing or the string 'undefined', both are dropped:
 * local storage is cleared and undefined is returned (spec section 6).
 */
export function readAuth(s: Store = store()): AuthPair | undefined {
  const token = s.getItem(STORAGE_KEYS.token);
  const sign = s.getItem(STORAGE_KEYS.sign);
  if (usable(token) && usable(sign)) return { token, sign };
  if (token !== null || sign !== null || s.getItem(STORAGE_KEYS.loginState) !== null) clearAuthStorage(s);
  return undefined;
}

export const hasToken = (s: Store = store()): boolean => readAuth(s) !== undefined;

/**
 * Stores a successful sign-in. The login state (Email, Name, Role) is written only when a token
 * exists; returns whether the sign-in counts as successful (a token is present).
 */
export function saveLogin(
  answer: { xtoken?: string; xsign?: string; Email: string; Name: string; Role: string[] },
  s: Store = store(),
): boolean {
  if (!usable(answer.xtoken ?? null) || !usable(answer.xsign ?? null)) {
    clearAuthStorage(s);
    return false;
  }
  s.setItem(STORAGE_KEYS.token, answer.xtoken!);
  s.setItem(STORAGE_KEYS.sign, answer.xsign!);
  forgetSecondStep();
  const state: LoginState = { Email: answer.Email, Name: answer.Name, Role: answer.Role };
  s.setItem(STORAGE_KEYS.loginState, JSON.stringify(state));
  return true;
}

/** The saved login state, only while a token exists. */
export function readLoginState(s: Store = store()): LoginState | undefined {
  if (!readAuth(s)) return undefined;
  const raw = s.getItem(STORAGE_KEYS.loginState);
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<LoginState>;
    if (typeof v.Email !== 'string') return undefined;
    return {
      Email: v.Email,
      Name: typeof v.Name === 'string' ? v.Name : '',
      Role: Array.isArray(v.Role) ? v.Role : [],
    };
  } catch {
    return undefined;
  }
}
