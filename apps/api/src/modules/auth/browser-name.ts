/**
 * A session's browser and system as a person reads them ('Chrome 142 on Linux'), from its
 * User-Agent (kept at most 500 characters). Plain substring checks, no pattern: the header is the
 * client's to write.
 */
const BROWSERS: readonly [token: string, name: string][] = [
  ['Edg/', 'Edge'],
  ['OPR/', 'Opera'],
  ['Firefox/', 'Firefox'],
  ['HeadlessChrome/', 'Chrome (headless)'],
  ['Chrome/', 'Chrome'],
  ['Version/', 'Safari'],
  ['curl/', 'curl'],
  ['node', 'Node.js'],
];
const SYSTEMS: readonly [token: string, name: string][] = [
  ['Android', 'Android'],
  ['iPhone', 'iOS'],
  ['iPad', 'iPadOS'],
  ['CrOS', 'ChromeOS'],
  ['Windows', 'Windows'],
  ['Mac OS X', 'macOS'],
  ['Linux', 'Linux'],
];

/** The digits right after `token` in `ua` (its major version), or ''. */
function majorAfter(ua: string, token: string): string {
  let i = ua.indexOf(token) + token.length;
  let out = '';
  while (i < ua.length && out.length < 6 && ua[i]! >= '0' && ua[i]! <= '9') out += ua[i++];
  return out;
}

export function browserName(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const ua = userAgent.slice(0, 500);
  const browser = BROWSERS.find(([token]) => ua.includes(token));
  const system = SYSTEMS.find(([token]) => ua.includes(token));
  const name = browser
    ? `${browser[1]}${majorAfter(ua, browser[0]) ? ` ${majorAfter(ua, browser[0])}` : ''}`
    : 'Unknown browser';
  return system ? `${name} on ${system[1]}` : name;
}
