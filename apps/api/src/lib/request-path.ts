import path from 'node:path';

/** Segments of lower-case letters, digits, `-` and `_` (each begins with `/`: matched in one pass). */
const PLAIN_PATH = /^(?:\/[a-z0-9_-]+)+/;

/**
 * The path of a request URL as the checks must see it: without query or fragment, percent-escapes
 * decoded (again while that changes it, so `%2561` is seen as `a` too), backslashes read as slashes,
 * repeated slashes collapsed, `.` and `..` segments resolved, lower case, no trailing slash.
 * The router decodes escapes before matching (`/%61dmin/session` runs `/admin/session`), so a check
 * on the raw URL is a check a client can step around.
 */
export function normalisedPath(url: string): string {
  // Most URLs are already normal (lower-case segments, no escapes, no dot segments): no work.
  const plain = PLAIN_PATH.exec(url)?.[0];
  if (plain !== undefined) {
    const next = url.charCodeAt(plain.length);
    if (Number.isNaN(next) || next === 63 /* ? */ || next === 35 /* # */) return plain;
  }
  let p = url.split(/[?#]/, 1)[0] ?? '';
  for (let i = 0; i < 3 && p.includes('%'); i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(p);
    } catch {
      break; // a broken escape: keep what decoded so far (the router answers 400 for it anyway)
    }
    if (decoded === p) break;
    p = decoded;
  }
  p = path.posix.normalize(`/${p.replace(/\\/g, '/')}`).toLowerCase();
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

/** True when `p` (a normalised path) is `prefix` or lies under it. */
export const isUnder = (p: string, prefix: string): boolean => p === prefix || p.startsWith(`${prefix}/`);

/**
 * API calls that carry the ajax marker and must never be cached: everything under /admin, and
 * /account/switchapp, the one API call outside /admin (spec section 7; /account/* else is the
 * console's, such as /account/change-password).
 */
export const isApiCallPath = (p: string): boolean => isUnder(p, '/admin') || isUnder(p, '/account/switchapp');

/** Paths whose answers carry sessions, customer data or secrets: /admin and /account. */
export const isPrivatePath = (p: string): boolean => isUnder(p, '/admin') || isUnder(p, '/account');

/** A segment starting with a dot (`/.git/config`, `/.env`, `/.well-known/…`): never a console page. */
export const hasDotSegment = (p: string): boolean => p.split('/').some((s) => s.startsWith('.'));

/**
 * First path segments the console shares with the API: the console has pages under /account
 * (/account/change-password), so there only the API's own routes are reserved, not the segment.
 */
const SHARED_WITH_CONSOLE = new Set(['account']);

/**
 * The path prefixes the API owns, from the routes registered on it: the first segment of every
 * route of two or more segments (/admin/…, /docs/…, /assets/… of the console's files), except a
 * segment shared with the console, where the route itself is the prefix; single-segment routes
 * (/docs, /livez, /csp-report, …) own themselves and everything under them. Wildcards are skipped.
 */
export function apiPrefixes(routes: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const route of routes) {
    const segments = route.toLowerCase().split('/').filter(Boolean);
    const first = segments[0];
    if (!first || first.includes('*') || first.startsWith(':')) continue;
    if (segments.length >= 2 && !SHARED_WITH_CONSOLE.has(first)) {
      out.add(`/${first}`);
    } else {
      const cut = segments.findIndex((s) => s.includes('*') || s.startsWith(':'));
      out.add(`/${(cut === -1 ? segments : segments.slice(0, cut)).join('/')}`);
    }
  }
  return [...out];
}
