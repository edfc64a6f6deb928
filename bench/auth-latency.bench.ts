import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openPostgres } from '../apps/api/src/db/db.ts';
import { base32Decode, totpCodeAt, totpStepOf } from '../apps/api/src/lib/totp.ts';
import { startOidcProvider } from '../apps/api/test/oidc-provider.ts';
import { softPasskey } from '../apps/api/test/soft-authenticator.ts';
import {
  cpuMsOf,
  freshDatabase,
  freshDir,
  ms,
  percentile,
  ROOT,
  runModuleForJson,
  type Server,
  startServer,
} from './support.ts';

const HEADERS = { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' };

async function timed(n: number, fn: () => Promise<Response>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await fn();
    await r.arrayBuffer();
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}

const CORES = os.availableParallelism();
const THROUGHPUT_S = Number(process.env.BENCH_DURATION ?? 10);

/** The PostgreSQL server processes serving the bench's database (the API's pooled connections). */
async function backendsOf(databaseUrl: string | undefined): Promise<number[]> {
  if (!databaseUrl) return [];
  const db = openPostgres(databaseUrl, 1);
  try {
    const r = await db.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return r.rows.map((x) => x.pid);
  } finally {
    await db.close();
  }
}

/**
 * The floor of a sign-in, in a process of its own: argon2id verifications of a right password
 * with the API's own library, parameters and hashing slots (lib/password-hash.ts, one slot per
 * core as the API's default), as many at once as the cores, no HTTP and no database, for
 * `seconds`. Per second per core of wall time, and per core-second of that process's CPU.
 */
async function bareVerifies(seconds: number): Promise<{ wall: number; cpu: number }> {
  const code = `
    const { hashPassword, verifyPassword } = await import(${JSON.stringify(path.join(ROOT, 'apps/api/src/lib/password-hash.ts'))});
    const stored = await hashPassword(${JSON.stringify(PASSWORD)});
    const cpu0 = process.cpuUsage();
    const until = performance.now() + ${seconds * 1000};
    let done = 0;
    await Promise.all(Array.from({ length: ${CORES} }, async () => {
      while (performance.now() < until) {
        if (!(await verifyPassword(stored, ${JSON.stringify(PASSWORD)}))) throw new Error('the bare verify failed');
        done++;
      }
    }));
    const used = process.cpuUsage(cpu0);
    console.log(JSON.stringify({ done, cpuS: (used.user + used.system) / 1e6 }));`;
  const { done, cpuS } = await runModuleForJson<{ done: number; cpuS: number }>(code, 'the bare verify');
  return { wall: done / seconds / CORES, cpu: done / cpuS };
}

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/**
 * Right-password sign-ins of one account through HTTP in a closed loop (two connections per
 * core, as the load bench: as many as the server takes), beside the bare verify measured in its
 * own process just before and just after in the same run. Two ratios: per second per core of
 * wall time (the target's; moved by whatever else runs on the machine), and per core-second of
 * CPU: the API process's, plus on PostgreSQL its connections' server processes, over the loop,
 * beside the bare process's CPU (what a sign-in costs beside its hash, whatever the load).
 */
async function signInThroughput(
  name: string,
  server: Server,
  databaseUrl: string | undefined,
): Promise<void> {
  const load0 = load();
  const before = await bareVerifies(THROUGHPUT_S);
  const pids = [server.proc.pid!, ...(await backendsOf(databaseUrl))];
  const cpu0 = pids.map(cpuMsOf);
  const latencies: number[] = [];
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${server.url}/admin/login`,
        connections: CORES * 2,
        duration: THROUGHPUT_S,
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ email: 'superadmin@example.com', password: PASSWORD }),
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  const cpuMs = pids.map(cpuMsOf).reduce((sum, ms, i) => sum + Math.max(0, ms - cpu0[i]!), 0);
  const after = await bareVerifies(THROUGHPUT_S);
  latencies.sort((a, b) => a - b);
  const perCore = r.requests.total / THROUGHPUT_S / CORES;
  const perCpuSecond = r.requests.total / (cpuMs / 1000);
  const floor = { wall: (before.wall + after.wall) / 2, cpu: (before.cpu + after.cpu) / 2 };
  console.log(
    `${name}: sign-ins through HTTP, closed loop, ${CORES * 2} connections, ${THROUGHPUT_S} s, ${r.non2xx} non-2xx, ` +
      `${CORES} cores, load average ${load0} → ${load()}`,
  );
  console.log(
    `${name}:   ${perCore.toFixed(1)}/s per core, p50 ${ms(percentile(latencies, 50))} p95 ${ms(percentile(latencies, 95))}; ` +
      `bare argon2id verify (own process) ${before.wall.toFixed(1)} before, ${after.wall.toFixed(1)} after: ` +
      `ratio per core ${(perCore / floor.wall).toFixed(2)} (target 0.8)`,
  );
  console.log(
    `${name}:   ${perCpuSecond.toFixed(1)} per core-second of CPU (${(cpuMs / r.requests.total).toFixed(1)} ms each); ` +
      `bare verify ${before.cpu.toFixed(1)} before, ${after.cpu.toFixed(1)} after (${(1000 / floor.cpu).toFixed(1)} ms each): ` +
      `ratio ${(perCpuSecond / floor.cpu).toFixed(2)}`,
  );
}

/** Sign-in (argon2id) and authenticated-call latency, sequential, on PGlite and on PostgreSQL if set. */
export async function benchAuthLatency(): Promise<void> {
  const legs: Array<[string, Record<string, string>]> = [['PGlite', {}]];
  // the second factors are set up on the demo staff: a database of its own on that server
  if (process.env.BENCH_DATABASE_URL)
    legs.push([
      'PostgreSQL',
      { DATABASE_URL: await freshDatabase(process.env.BENCH_DATABASE_URL, 'sac_bench_auth') },
    ]);
  for (const [name, env] of legs) {
    const port = Number(process.env.BENCH_AUTH_PORT ?? 3943);
    const server = await startServer({
      port,
      dataDir: freshDir('latency'),
      // the SSO leg starts and finishes 31 sign-ins from one address within a minute
      // and its provider is a local one on plain http (test/oidc-provider.ts), as in the tests
      env: {
        DEMO_PASSWORD: 'Bench#Pass1',
        SSO_CALLS_PER_MINUTE: '10000',
        SSO_ALLOW_HTTP_ISSUER: '1',
        ...env,
      },
    });
    try {
      const login = () =>
        fetch(`${server.url}/admin/login`, {
          method: 'POST',
          headers: HEADERS,
          body: JSON.stringify({ email: 'superadmin@example.com', password: 'Bench#Pass1' }),
        });
      const logins = await timed(30, login);
      const { xtoken, xsign } = (await (await login()).json()) as { xtoken: string; xsign: string };
      const calls = await timed(500, () =>
        fetch(`${server.url}/admin/session`, { headers: { ...HEADERS, xtoken, xsign } }),
      );
      console.log(
        `${name}: POST /admin/login p50 ${ms(percentile(logins, 50))} p95 ${ms(percentile(logins, 95))} (30 calls)`,
      );
      console.log(
        `${name}: GET /admin/session p50 ${ms(percentile(calls, 50))} p95 ${ms(percentile(calls, 95))} (500 calls)`,
      );
      await benchSsoSignIns(name, server.url, `http://localhost:${port}`, { xtoken, xsign });
      // before the second factors: afterwards a right password answers a ticket, not a session
      await signInThroughput(name, server, env.DATABASE_URL);
      // BENCH_AUTH_PARTS=throughput leaves out the second factors (they wait for TOTP steps)
      if (process.env.BENCH_AUTH_PARTS !== 'throughput')
        await benchSecondFactors(name, server.url, `http://localhost:${port}`);
    } finally {
      await server.stop();
    }
  }
}

/**
 * Sign-in through single sign-on against the in-process OpenID provider of the tests, beside the
 * password sign-in above (same server, same run): whole (start, the provider's pages, finish; the
 * provider runs in this process) and the finish alone (code exchange, ID token verified, session).
 * The provider's amr counts as the second factor, so each ends in a session.
 */
async function benchSsoSignIns(name: string, url: string, origin: string, admin: Record<string, string>) {
  const op = await startOidcProvider({
    redirectUris: [`${origin}/sso/callback`],
    users: { admin: { email: 'superadmin@example.com', amr: ['pwd', 'mfa'] } },
  });
  const settings = (Enabled: boolean) => ({
    Enabled,
    Name: 'Bench IdP',
    Issuer: op.issuer,
    ClientId: op.clientId,
    ClientSecret: op.clientSecret,
    GroupsClaim: 'groups',
    CreateOnFirstSignIn: false,
    SecondFactorValues: ['mfa'],
    PasswordSignIn: true,
    BreakGlassEmail: null,
    GroupRoles: [],
  });
  try {
    const saved = await put(`${url}/admin/sso-settings`, settings(true), admin);
    if (!saved.ok) throw new Error(`SSO settings: ${saved.status} ${await saved.text()}`);
    const whole: number[] = [];
    const finishes: number[] = [];
    for (let i = 0; i < 31; i++) {
      const t0 = performance.now();
      const { Url, Binder } = (await (await post(`${url}/admin/login/sso/start`, {})).json()) as Record<
        string,
        string
      >;
      const back = await op.signIn(Url!, 'admin');
      const t1 = performance.now();
      const r = await post(`${url}/admin/login/sso/finish`, {
        Code: back.get('code'),
        State: back.get('state'),
        Binder,
      });
      const answer = (await r.json()) as { xtoken?: string };
      if (!answer.xtoken) throw new Error(`SSO sign-in: ${r.status} ${JSON.stringify(answer)}`);
      // the first fetches the discovery document and the keys: left out
      if (i > 0) {
        whole.push(performance.now() - t0);
        finishes.push(performance.now() - t1);
      }
    }
    line(
      name,
      'SSO sign-in whole (start, provider, finish)',
      whole.sort((a, b) => a - b),
    );
    line(
      name,
      'POST /admin/login/sso/finish',
      finishes.sort((a, b) => a - b),
    );
    await put(`${url}/admin/sso-settings`, settings(false), admin);
  } finally {
    await op.close();
  }
}

const PASSWORD = 'Bench#Pass1';
const post = (url: string, body: unknown, extra: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { ...HEADERS, ...extra }, body: JSON.stringify(body) });
const put = (url: string, body: unknown, extra: Record<string, string> = {}) =>
  fetch(url, { method: 'PUT', headers: { ...HEADERS, ...extra }, body: JSON.stringify(body) });

/** The second step's ticket after a right password (the account has a factor). */
async function ticket(url: string, email: string): Promise<string> {
  const r = (await (await post(`${url}/admin/login`, { email, password: PASSWORD })).json()) as {
    SecondStep?: { Ticket: string };
  };
  if (!r.SecondStep) throw new Error(`${email}: no second step`);
  return r.SecondStep.Ticket;
}

const line = (name: string, what: string, xs: number[]) =>
  console.log(
    `${name}: ${what} p50 ${ms(percentile(xs, 50))} p95 ${ms(percentile(xs, 95))} (${xs.length} sign-ins)`,
  );

/**
 * Sign-in with a second factor, whole (password, then the second step) and the second step alone:
 * password + passkey (a software P-256 authenticator, as a browser's answer) on the SuperAdmin,
 * and password + one-time code on the three demo accounts. A code is good once per 30 s step
 * (replays are refused), so each account signs in once per step: the TOTP leg takes a few steps.
 */
async function benchSecondFactors(name: string, url: string, origin: string): Promise<void> {
  const pair = await benchPasskeySignIns(name, url, origin);
  const secrets = await setUpTotp(url, pair);
  await benchTotpSignIns(name, url, secrets);
}

/** The session pair and who signed in, of a password sign-in without a second factor. */
const signIn = async (url: string, email: string) =>
  (await (await post(`${url}/admin/login`, { email, password: PASSWORD })).json()) as Record<string, string>;

/** Password + passkey on the SuperAdmin, whole and the step alone; answers the SuperAdmin's session pair. */
async function benchPasskeySignIns(
  name: string,
  url: string,
  origin: string,
): Promise<{ xtoken: string; xsign: string }> {
  const ORIGIN = { Origin: origin };
  const key = softPasskey();
  const admin = await signIn(url, 'superadmin@example.com');
  const pair = { xtoken: admin.xtoken!, xsign: admin.xsign! };
  const reg = (await (
    await post(`${url}/admin/account/mfa/passkey-options`, { password: PASSWORD }, { ...pair, ...ORIGIN })
  ).json()) as { Options: { challenge: string; rp: { id?: string } } };
  const added = await post(
    `${url}/admin/account/mfa/passkeys`,
    { Name: 'Bench key', Response: key.register(reg.Options, origin) },
    { ...pair, ...ORIGIN },
  );
  if (!added.ok) throw new Error(`passkey: ${added.status} ${await added.text()}`);
  const whole: number[] = [];
  const step: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    const Ticket = await ticket(url, 'superadmin@example.com');
    const t1 = performance.now();
    const o = (await (await post(`${url}/admin/login/passkey-options`, { Ticket }, ORIGIN)).json()) as {
      Options: { challenge: string; rpId?: string };
    };
    const r = await post(`${url}/admin/login/second-step`, {
      Ticket,
      Method: 'passkey',
      Response: key.assert(o.Options, origin),
    });
    if (!r.ok) throw new Error(`passkey sign-in: ${r.status} ${await r.text()}`);
    await r.arrayBuffer();
    const t2 = performance.now();
    whole.push(t2 - t0);
    step.push(t2 - t1);
  }
  line(
    name,
    'password + passkey, whole sign-in',
    whole.sort((a, b) => a - b),
  );
  line(
    name,
    'passkey step alone (options + assertion)',
    step.sort((a, b) => a - b),
  );
  return pair;
}

/**
 * An authenticator app set up on the three demo accounts (the SuperAdmin's in the session it
 * already holds: it has a passkey now); answers each account's secret and the step its set-up used.
 */
async function setUpTotp(url: string, superAdmin: { xtoken: string; xsign: string }) {
  const accounts = ['admin@example.com', 'support@example.com', 'superadmin@example.com'];
  const secrets = new Map<string, { secret: Buffer; lastStep: number }>();
  for (const email of accounts) {
    const s = email === 'superadmin@example.com' ? superAdmin : await signIn(url, email);
    const p = { xtoken: s.xtoken!, xsign: s.xsign! };
    const { Secret } = (await (
      await post(`${url}/admin/account/mfa/totp`, { password: PASSWORD }, p)
    ).json()) as {
      Secret: string;
    };
    const secret = base32Decode(Secret);
    const now = totpStepOf(new Date());
    const ok = await put(`${url}/admin/account/mfa/totp`, { Code: totpCodeAt(secret, now) }, p);
    if (!ok.ok) throw new Error(`totp set-up: ${ok.status} ${await ok.text()}`);
    secrets.set(email, { secret, lastStep: now });
  }
  return secrets;
}

/**
 * Password + one-time code, whole and the step alone. A code is good once per 30 s step (replays
 * are refused), so each account signs in once per step: this takes a few steps.
 */
async function benchTotpSignIns(
  name: string,
  url: string,
  secrets: Map<string, { secret: Buffer; lastStep: number }>,
): Promise<void> {
  const totpWhole: number[] = [];
  const totpStep: number[] = [];
  const want = 12;
  while (totpWhole.length < want) {
    const now = totpStepOf(new Date());
    let used = false;
    for (const [email, account] of secrets) {
      if (totpWhole.length >= want || account.lastStep >= now) continue;
      const t0 = performance.now();
      const Ticket = await ticket(url, email);
      const t1 = performance.now();
      const r = await post(`${url}/admin/login/second-step`, {
        Ticket,
        Method: 'totp',
        Code: totpCodeAt(account.secret, now),
      });
      if (!r.ok) throw new Error(`totp sign-in: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
      const t2 = performance.now();
      totpWhole.push(t2 - t0);
      totpStep.push(t2 - t1);
      account.lastStep = now;
      used = true;
    }
    if (!used) await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 20));
  }
  line(
    name,
    'password + one-time code, whole sign-in',
    totpWhole.sort((a, b) => a - b),
  );
  line(
    name,
    'one-time code step alone',
    totpStep.sort((a, b) => a - b),
  );
}
