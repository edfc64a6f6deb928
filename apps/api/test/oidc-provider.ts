import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider in process (the certified `oidc-provider` package), for the single
 * sign-on tests of the API and the browser: one confidential client, users with emails, groups and
 * the amr/acr of their sign-in, a sign-in page (type the user's id, Continue), key rotation, and
 * faults a provider or a man in the middle could put in the token answer (a tampered token, a
 * token for another audience), counted key-set fetches.
 */

export interface OidcUser {
  email: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
  amr?: string[];
  acr?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  users: Record<string, OidcUser>;
  /** What the token endpoint's answer gets: untouched, its ID token altered, or re-signed for another audience. */
  fault: 'none' | 'tamper' | Fault;
  /** GETs of the key set so far. */
  jwksFetches: number;
  /** A new signing key (the old one dropped): tokens carry a kid the relying party has not seen. */
  rotateKeys(): Promise<void>;
  /** Follows a sign-in from the authorization address to the redirect, signing in as `login`; answers the redirect's query. */
  signIn(authorizationUrl: string, login: string): Promise<URLSearchParams>;
  close(): Promise<void>;
}

async function newKey(): Promise<{ jwk: JWK; key: CryptoKey }> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = {
    ...(await exportJWK(privateKey)),
    kid: `k${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    alg: 'RS256',
    use: 'sig',
  };
  return { jwk, key: privateKey };
}

function interactionPage(uid: string): string {
  return `<!doctype html><html><head><title>Test provider</title></head><body>
<h1>Test OpenID provider</h1>
<form method="post" action="/interaction/${uid}"><label>User <input name="login" autofocus></label>
<button type="submit">Continue</button></form></body></html>`;
}

export async function startOidcProvider(o: {
  redirectUris: string[];
  users: Record<string, OidcUser>;
  port?: number;
}): Promise<TestOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'console';
  const clientSecret = 'console-secret-of-the-tests-0123456789';
  let signing = await newKey();
  const build = (jwk: JWK) =>
    new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: o.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      jwks: { keys: [jwk] },
      cookies: { keys: ['test-provider-cookie-key'] },
      conformIdTokenClaims: false,
      claims: {
        acr: null,
        amr: null,
        auth_time: null,
        sid: null,
        openid: ['sub', 'amr', 'acr'],
        email: ['email', 'email_verified'],
        profile: ['name', 'groups'],
      },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      async findAccount(_ctx, id) {
        const u = t.users[id];
        if (!u) return undefined;
        return {
          accountId: id,
          claims: async () => ({
            sub: id,
            email: u.email,
            email_verified: u.email_verified ?? true,
            name: u.name ?? id,
            ...(u.groups ? { groups: u.groups } : {}),
          }),
        };
      },
      // consent is given by the test: every sign-in is granted the scopes and claims asked
      async loadExistingGrant(ctx) {
        const grantId =
          ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
        if (grantId) return ctx.oidc.provider.Grant.find(grantId);
        const grant = new ctx.oidc.provider.Grant({
          clientId: ctx.oidc.client!.clientId,
          accountId: ctx.oidc.session!.accountId!,
        });
        grant.addOIDCScope('openid email profile');
        grant.addOIDCClaims(['email', 'email_verified', 'name', 'groups', 'amr', 'acr']);
        await grant.save();
        return grant;
      },
    });
  let provider = build(signing.jwk);

  const t: TestOidcProvider = {
    issuer,
    clientId,
    clientSecret,
    users: o.users,
    fault: 'none',
    jwksFetches: 0,
    async rotateKeys() {
      signing = await newKey();
      provider = build(signing.jwk);
    },
    async signIn(authorizationUrl, login) {
      const jar = new Map<string, string>();
      const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const keep = (res: Response) => {
        for (const c of res.headers.getSetCookie()) {
          const [pair] = c.split(';');
          const i = pair!.indexOf('=');
          jar.set(pair!.slice(0, i), pair!.slice(i + 1));
        }
      };
      let url = authorizationUrl;
      let body: URLSearchParams | undefined;
      for (let hop = 0; hop < 10; hop++) {
        if (url.startsWith(issuer) === false) return new URL(url).searchParams;
        const res = await fetch(url, {
          method: body ? 'POST' : 'GET',
          headers: {
            cookie: cookieHeader(),
            ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          body,
          redirect: 'manual',
        });
        keep(res);
        body = undefined;
        const next = res.headers.get('location');
        if (next) {
          url = new URL(next, url).toString();
          continue;
        }
        const text = await res.text();
        if (res.status === 200 && url.includes('/interaction/')) {
          body = new URLSearchParams({ login });
          continue;
        }
        throw new Error(`the provider answered ${res.status} at ${url}: ${text.slice(0, 300)}`);
      }
      throw new Error('too many redirects');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  server.on('request', (req, res) => void handle(req, res));
  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const path = (req.url ?? '').split('?')[0]!;
    const m = /^\/interaction\/([\w-]+)$/.exec(path);
    if (m && req.method === 'GET') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(interactionPage(m[1]!));
      return;
    }
    if (m && req.method === 'POST') {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const login = new URLSearchParams(raw).get('login') ?? '';
      const u = t.users[login];
      const result = u
        ? { login: { accountId: login, ...(u.amr ? { amr: u.amr } : {}), ...(u.acr ? { acr: u.acr } : {}) } }
        : { error: 'access_denied', error_description: 'no such user' };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      return;
    }
    if (path.endsWith('/jwks')) t.jwksFetches++;
    if (path === '/token' && t.fault !== 'none')
      faultTokenAnswer(res, t.fault, signing.key, signing.jwk.kid!);
    provider.callback()(req, res);
  }
  return t;
}

/** Claims a token re-signed with the provider's own key gets wrong. */
const RESIGNED = {
  audience: { aud: 'another-client' },
  issuer: { iss: 'https://impostor.example.com' },
  nonce: { nonce: 'not-the-one-sent' },
  expired: { iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 },
} as const;
type Fault = keyof typeof RESIGNED;

/** Alters the ID token of the token endpoint's answer on its way out. */
function faultTokenAnswer(res: http.ServerResponse, fault: 'tamper' | Fault, key: CryptoKey, kid: string) {
  const end = res.end.bind(res);
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name, value) => (name.toLowerCase() === 'content-length' ? res : setHeader(name, value));
  res.end = ((chunk: unknown) => {
    void (async () => {
      const body = JSON.parse(String(chunk)) as { id_token?: string };
      if (body.id_token) {
        const claims = decodeJwt(body.id_token);
        if (fault === 'tamper') {
          const [h, , s] = body.id_token.split('.');
          const forged = Buffer.from(JSON.stringify({ ...claims, email: 'mallory@example.com' })).toString(
            'base64url',
          );
          body.id_token = `${h}.${forged}.${s}`;
        } else {
          body.id_token = await new SignJWT({ ...claims, ...RESIGNED[fault] })
            .setProtectedHeader({ alg: 'RS256', kid })
            .sign(key);
        }
      }
      end(JSON.stringify(body));
    })();
    return res;
  }) as typeof res.end;
}
