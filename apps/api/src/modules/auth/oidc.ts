import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { createRemoteJWKSet, customFetch, type JWTPayload, jwtVerify } from 'jose';
import {
  bareHost,
  isLoopbackHost,
  isPrivateAddress,
  OutboundAddressError,
  outboundRequest,
} from '../../lib/outbound-address.ts';

/**
 * The OpenID Connect relying party (docs/decisions.md, "Single sign-on"): the provider's discovery
 * document, the code exchange with PKCE, and the ID token verified with the provider's published
 * keys by `jose` (no hand-made crypto). A token signed with a key we have not seen (the provider
 * rotated) makes jose fetch the keys again, at most once per cooldown: bounded.
 */

const DISCOVERY_TTL_MS = 10 * 60_000;
const FETCH_TIMEOUT_MS = 5_000;
/** A discovery document, key set or token answer larger than this is refused. */
const MAX_BODY_BYTES = 256 * 1024;
/** Signing algorithms an ID token may use: asymmetric only (never none, never HS*). */
const ID_TOKEN_ALGS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

export class OidcError extends Error {
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.reason = reason;
  }
}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  token_endpoint_auth_methods_supported?: string[];
}

/**
 * Where the relying party may fetch from (SSO_ALLOW_HTTP_ISSUER): off, https only and never a
 * loopback, private or link-local address (the issuer is typed by a SuperAdmin, the other
 * addresses come from the issuer's document: neither may point the server at its own network).
 */
export interface FetchPolicy {
  allowLocal: boolean;
}

const HTTPS_ONLY = 'The issuer must be an https address.';

/**
 * What is wrong with a provider address, or undefined: a URL without userinfo or fragment (and,
 * for the issuer, without a query: OIDC Discovery 1.0 §2), https (http to loopback with the policy's leave),
 * and not an address literal of a private network unless the policy allows it.
 */
export function providerUrlProblem(text: string, policy: FetchPolicy, issuer = false): string | undefined {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return HTTPS_ONLY;
  }
  const what = issuer ? 'The issuer' : 'A provider address';
  if (u.username || u.password) return `${what} must not carry a user name or password.`;
  if (u.hash || text.includes('#')) return `${what} must not have a fragment.`;
  if (issuer && (u.search || text.includes('?'))) return 'The issuer must not have a query string.';
  const host = bareHost(u);
  const loopback = isLoopbackHost(host);
  // plain http only to this machine, and only with the operator's leave (a provider run locally)
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && policy.allowLocal && loopback))
    return HTTPS_ONLY;
  if (!policy.allowLocal && isIP(host) !== 0 && isPrivateAddress(host))
    return `${what} is on a loopback, private or link-local address (${host}).`;
  return undefined;
}

const tooLarge = (url: string) => new OidcError('too-large', `${url} answered more than 256 KB.`);

/**
 * One exchange with a provider address: its host checked as it is connected to (the address
 * checked is the address used, so a name whose answer changes meanwhile cannot reach inside), no
 * redirect, a timeout, the body bounded. The key set's fetches by jose go the same way.
 */
async function providerRequest(
  url: string,
  policy: FetchPolicy,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; text: string }> {
  let a: Awaited<ReturnType<typeof outboundRequest>>;
  try {
    a = await outboundRequest(new URL(url), {
      method: init.method ?? 'GET',
      headers: init.headers ?? {},
      ...(init.body !== undefined ? { body: init.body } : {}),
      allowPrivate: policy.allowLocal,
      maxBytes: MAX_BODY_BYTES,
      timeoutMs: FETCH_TIMEOUT_MS,
    });
  } catch (e) {
    if (e instanceof OutboundAddressError)
      throw e.reason === 'private-address'
        ? new OidcError(
            'private-address',
            `${e.host} resolves to a loopback, private or link-local address (${e.address}).`,
          )
        : new OidcError('unreachable', e.message);
    throw new OidcError('unreachable', `Could not reach ${url}: ${(e as Error).message}`);
  }
  if (a.truncated) throw tooLarge(url);
  if (a.status >= 300 && a.status < 400)
    throw new OidcError('redirect', `${url} answered a redirect (${a.status}); redirects are not followed.`);
  return { status: a.status, text: a.body.toString('utf8') };
}

/** jose's fetch of the key set, through providerRequest: pinned, bounded, no redirect. */
const keySetFetch = (policy: FetchPolicy) => async (url: string) => {
  const r = await providerRequest(url, policy, { headers: { accept: 'application/json' } });
  return new Response(r.text, { status: r.status, headers: { 'content-type': 'application/json' } });
};

/** A JSON object from a provider address (providerRequest), refused unless it is one. */
async function getJson(
  url: string,
  policy: FetchPolicy,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
): Promise<Record<string, unknown>> {
  const problem = providerUrlProblem(url, policy);
  if (problem) throw new OidcError('provider-url', problem);
  const res = await providerRequest(url, policy, init);
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    throw new OidcError('not-json', `${url} answered ${res.status}, not JSON.`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new OidcError('not-json', `${url} answered ${res.status}, not a JSON object.`);
  const o = body as Record<string, unknown>;
  if (res.status < 200 || res.status >= 300) {
    const err = o.error;
    throw new OidcError(
      'http',
      `${url} answered ${res.status}${typeof err === 'string' ? ` (${err.slice(0, 100)})` : ''}.`,
    );
  }
  return o;
}

type Provider = { at: number; discovery: Discovery; keys: ReturnType<typeof createRemoteJWKSet> };
/** Per issuer and cooldown: the discovery document and its key set, fetched once per DISCOVERY_TTL_MS. */
const providers = new Map<string, Provider>();

/** The issuer's discovery document, checked (OIDC Discovery 1.0, section 4.3: the issuer it names is ours). */
export async function fetchDiscovery(issuer: string, policy: FetchPolicy): Promise<Discovery> {
  const problem = providerUrlProblem(issuer, policy, true);
  if (problem) throw new OidcError('issuer-url', problem);
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const d = (await getJson(url, policy)) as Partial<Discovery>;
  if (d.issuer !== issuer)
    throw new OidcError(
      'issuer-mismatch',
      `The discovery document names the issuer ${String(d.issuer).slice(0, 200)}, not ${issuer}.`,
    );
  for (const k of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const)
    if (typeof d[k] !== 'string' || providerUrlProblem(d[k], policy))
      throw new OidcError('discovery', `The discovery document has no usable ${k}.`);
  return d as Discovery;
}

export async function providerOf(
  issuer: string,
  keyCooldownMs: number,
  policy: FetchPolicy,
  now = Date.now(),
): Promise<Provider> {
  const key = `${issuer} ${keyCooldownMs} ${policy.allowLocal}`;
  const cached = providers.get(key);
  if (cached && now - cached.at < DISCOVERY_TTL_MS) return cached;
  const discovery = await fetchDiscovery(issuer, policy);
  // jose fetches the keys through providerRequest: pinned to a checked address, bounded
  const keys = createRemoteJWKSet(new URL(discovery.jwks_uri), {
    cooldownDuration: keyCooldownMs,
    timeoutDuration: FETCH_TIMEOUT_MS,
    [customFetch]: keySetFetch(policy),
  });
  const p = { at: now, discovery, keys };
  providers.set(key, p);
  return p;
}

/** The published key set's size (for the settings' connection test). */
export async function countKeys(discovery: Discovery, policy: FetchPolicy): Promise<number> {
  const jwks = (await getJson(discovery.jwks_uri, policy)) as { keys?: unknown };
  if (!Array.isArray(jwks.keys) || jwks.keys.length === 0)
    throw new OidcError('jwks', 'The provider publishes no signing keys (jwks_uri).');
  return jwks.keys.length;
}

/** PKCE S256 (RFC 7636): the challenge of a verifier. */
const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export function authorizationUrl(
  d: Discovery,
  a: { clientId: string; redirectUri: string; state: string; nonce: string; verifier: string },
): string {
  const u = new URL(d.authorization_endpoint);
  u.searchParams.set('response_type', 'code');
  u.searchParams.set('client_id', a.clientId);
  u.searchParams.set('redirect_uri', a.redirectUri);
  u.searchParams.set('scope', 'openid email profile');
  u.searchParams.set('state', a.state);
  u.searchParams.set('nonce', a.nonce);
  u.searchParams.set('code_challenge', pkceChallenge(a.verifier));
  u.searchParams.set('code_challenge_method', 'S256');
  return u.toString();
}

/** The code exchanged at the token endpoint (client_secret_basic, or _post when that is all it takes). */
export async function exchangeCode(
  d: Discovery,
  a: { clientId: string; clientSecret: string; redirectUri: string; code: string; verifier: string },
  policy: FetchPolicy,
): Promise<string> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: a.code,
    redirect_uri: a.redirectUri,
    code_verifier: a.verifier,
  });
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const methods = d.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (methods.includes('client_secret_basic') || !methods.includes('client_secret_post')) {
    const pair = `${encodeURIComponent(a.clientId)}:${encodeURIComponent(a.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else {
    form.set('client_id', a.clientId);
    form.set('client_secret', a.clientSecret);
  }
  const body = (await getJson(d.token_endpoint, policy, {
    method: 'POST',
    headers,
    body: form.toString(),
  })) as {
    id_token?: unknown;
  };
  if (typeof body.id_token !== 'string' || body.id_token.length > 16_384)
    throw new OidcError('no-id-token', 'The token endpoint answered no ID token.');
  return body.id_token;
}

/**
 * The ID token verified: signature by the provider's published keys, issuer, audience (our client),
 * azp when there are several audiences or it is given, exp and iat (a minute of skew), the nonce of
 * the state, and a verified email. Throws OidcError with the reason the trail records.
 */
export async function verifyIdToken(
  p: Provider,
  idToken: string,
  expect: { issuer: string; clientId: string; nonce: string },
): Promise<JWTPayload & { email: string }> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, p.keys, {
      issuer: expect.issuer,
      audience: expect.clientId,
      algorithms: ID_TOKEN_ALGS,
      requiredClaims: ['iat', 'exp', 'sub'],
      clockTolerance: 60,
      maxTokenAge: '1 hour',
    }));
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'invalid';
    const reason =
      code === 'ERR_JWT_CLAIM_VALIDATION_FAILED'
        ? `claim-${(e as { claim?: string }).claim ?? 'invalid'}`
        : code === 'ERR_JWKS_NO_MATCHING_KEY'
          ? 'unknown-key'
          : code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
            ? 'signature'
            : code === 'ERR_JWT_EXPIRED'
              ? 'expired'
              : 'token';
    throw new OidcError(reason, (e as Error).message);
  }
  const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if ((aud.length > 1 || payload.azp !== undefined) && payload.azp !== expect.clientId)
    throw new OidcError('claim-azp', 'The ID token was issued to another client (azp).');
  if (payload.nonce !== expect.nonce)
    throw new OidcError('nonce', 'The ID token does not carry this sign-in’s nonce.');
  const email = payload.email;
  if (typeof email !== 'string' || email.length > 254 || !email.includes('@'))
    throw new OidcError('no-email', 'The ID token carries no email.');
  if (payload.email_verified !== true)
    throw new OidcError('email-unverified', 'The provider has not verified this email.');
  return { ...payload, email };
}

/** The groups of a claim (an array of strings, or one string), bounded. */
export function groupsOf(payload: JWTPayload, claim: string): string[] {
  const v = payload[claim];
  const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  return list.filter((g): g is string => typeof g === 'string' && g.length <= 200).slice(0, 500);
}

/** Whether the provider's amr (array) or acr (string) names one of the values that count as a second factor. */
export function providerSecondFactor(payload: JWTPayload, values: readonly string[]): string | undefined {
  const amr = Array.isArray(payload.amr) ? payload.amr.filter((v): v is string => typeof v === 'string') : [];
  const acr = typeof payload.acr === 'string' ? payload.acr : undefined;
  return values.find((v) => amr.includes(v) || acr === v);
}
