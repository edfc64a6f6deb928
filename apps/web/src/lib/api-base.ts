/** The runtime configuration the server publishes at /runtime-config.json. */
export interface RuntimeConfig {
  /** Overrides the derived API address when not null; '' means the console's own origin. */
  apiBaseUrl: string | null;
  /** Hosts that reach the API at http://<host>:3002 (spec section 7: the fixed IP hosts). */
  fixedIpHosts: string[];
  /** The provider's name for the console; null: the console's own. */
  productName: string | null;
  /** The footer's Terms, Privacy and System Status addresses; null: the built-in placeholders. */
  links: { terms: string; privacy: string; systemStatus: string } | null;
}

const LOCAL_API_BASE = 'http://localhost:3001';
const FIXED_IP_API_PORT = 3002;

/**
 * The API base address derived from the console's host name (spec section 7): `localhost` uses
 * port 3001 locally; a fixed IP host uses port 3002; otherwise the first host label gets `-api`
 * appended over https (`console.example.com` -> `https://console-api.example.com`).
 */
export function deriveApiBase(hostname: string, fixedIpHosts: readonly string[]): string {
  const host = hostname.toLowerCase();
  if (host === 'localhost') return LOCAL_API_BASE;
  if (fixedIpHosts.includes(host)) return `http://${host}:${FIXED_IP_API_PORT}`;
  const [first, ...rest] = host.split('.');
  return `https://${[`${first}-api`, ...rest].join('.')}`;
}

/** The runtime config's `apiBaseUrl` wins when not null; otherwise the address is derived. */
export function resolveApiBase(
  config: Pick<RuntimeConfig, 'apiBaseUrl' | 'fixedIpHosts'>,
  hostname: string,
): string {
  if (config.apiBaseUrl !== null) return config.apiBaseUrl.replace(/\/+$/, '');
  return deriveApiBase(hostname, config.fixedIpHosts);
}

/** Reads an unknown JSON value as a runtime config; throws when it has the wrong shape. */
export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  if (!value || typeof value !== 'object') throw new Error('runtime config is not an object');
  const v = value as Record<string, unknown>;
  const apiBaseUrl = v.apiBaseUrl ?? null;
  if (apiBaseUrl !== null && typeof apiBaseUrl !== 'string') throw new Error('apiBaseUrl must be a string');
  const hosts = v.fixedIpHosts ?? [];
  if (!Array.isArray(hosts) || !hosts.every((h) => typeof h === 'string')) {
    throw new Error('fixedIpHosts must be a list of strings');
  }
  const productName = typeof v.productName === 'string' && v.productName.trim() ? v.productName.trim() : null;
  const l = v.links as Record<string, unknown> | undefined;
  const httpUrl = (x: unknown): x is string => typeof x === 'string' && /^https?:\/\//i.test(x);
  const links =
    l && httpUrl(l.terms) && httpUrl(l.privacy) && httpUrl(l.systemStatus)
      ? { terms: l.terms, privacy: l.privacy, systemStatus: l.systemStatus }
      : null;
  return { apiBaseUrl, fixedIpHosts: hosts.map((h) => h.toLowerCase()), productName, links };
}

let apiBase = '';

export function setApiBase(base: string): void {
  apiBase = base;
}

export function getApiBase(): string {
  return apiBase;
}

/** Fetches /runtime-config.json from the console's origin; throws on network error or non-2xx. */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const res = await fetchImpl('/runtime-config.json', {
    cache: 'no-store',
    headers: { Accept: 'application/json' },
  });
  if (!res.ok) throw new Error(`runtime config answered ${res.status}`);
  return parseRuntimeConfig(await res.json());
}
