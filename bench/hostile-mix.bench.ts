import { freshDir, ms, percentile, startServer } from './support.ts';

// Sign-in latency alone, then under a hostile mix from callers who need no privilege or only the
// read-only Support role: 40 anonymous reset calls a second with bogus tokens, 4 hashing previews
// at the PBKDF2 cap kept in flight, and 2 catastrophic-pattern checks a second. Target: sign-in
// p95 within the sign-in target of the load bench (250 ms), whatever the mix.

const HEADERS = { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' };
const PASSWORD = 'Bench#Pass1';
const SIGN_INS = 60;
const SIGN_IN_GAP_MS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function signInTimes(url: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < SIGN_INS; i++) {
    const t = performance.now();
    const r = await fetch(`${url}/admin/login`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }),
    });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`sign-in answered ${r.status}`);
    out.push(performance.now() - t);
    await sleep(SIGN_IN_GAP_MS);
  }
  return out.sort((a, b) => a - b);
}

/** Runs `fire` every `everyMs` until stopped; counts the answers by status. */
function steady(everyMs: number, fire: () => Promise<Response>) {
  const statuses = new Map<number, number>();
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const p = fire()
      .then(async (r) => {
        await r.arrayBuffer();
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      })
      .catch(() => {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  }, everyMs);
  return {
    statuses,
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
    },
  };
}

/** Keeps `n` calls in flight until stopped. */
function inFlight(n: number, fire: () => Promise<Response>) {
  const statuses = new Map<number, number>();
  let stopped = false;
  const loops = Array.from({ length: n }, async () => {
    while (!stopped) {
      try {
        const r = await fire();
        await r.arrayBuffer();
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        // a refused preview comes back at once: its caller tries again a little later, as a person would
        if (r.status !== 200) await sleep(50);
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
    }
  });
  return {
    statuses,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

const show = (m: Map<number, number>) =>
  [...m.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${n}×${s}`)
    .join(', ');

export async function benchHostileMix(): Promise<void> {
  const legs: Array<[string, Record<string, string>]> = [['PGlite', {}]];
  if (process.env.BENCH_DATABASE_URL)
    legs.push(['PostgreSQL', { DATABASE_URL: process.env.BENCH_DATABASE_URL }]);
  for (const [name, env] of legs) {
    const server = await startServer({
      port: 3944,
      dataDir: freshDir('hostile'),
      env: { DEMO_PASSWORD: PASSWORD, ...env },
      built: true,
    });
    try {
      // a first start puts the demo data in after it listens: measure once that is done
      while ((await fetch(`${server.url}/readyz`)).status !== 200) await sleep(100);
      const session = (await (
        await fetch(`${server.url}/admin/login`, {
          method: 'POST',
          headers: HEADERS,
          body: JSON.stringify({ email: 'support@example.com', password: PASSWORD }),
        })
      ).json()) as { xtoken: string; xsign: string };
      const auth = { ...HEADERS, xtoken: session.xtoken, xsign: session.xsign };
      const found = (await (
        await fetch(`${server.url}/admin/searchcustomer?emailid=ada.lovelace%40analytical.example`, {
          headers: auth,
        })
      ).json()) as { Data: Array<{ Uid: string }> };
      const uid = found.Data[0]!.Uid;
      const sites = (await (
        await fetch(`${server.url}/admin/apps?uid=${uid}`, { headers: auth })
      ).json()) as {
        Data: Array<{ appId: number }>;
      };
      const site = `uid=${uid}&appId=${sites.Data[0]!.appId}`;

      // warm the path once, then sign-ins alone
      await signInTimes(server.url);
      const alone = await signInTimes(server.url);

      const resets = steady(25, () =>
        fetch(`${server.url}/admin/resetpassword`, {
          method: 'PUT',
          headers: HEADERS,
          body: JSON.stringify({ password: 'Brand#New1', resettoken: `bogus-${Math.random()}` }),
        }),
      );
      const previews = inFlight(4, () =>
        fetch(`${server.url}/admin/encryption-settings/preview?${site}`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            data: {
              EncryptionType: 'PBKDF2-SHA512',
              HashEncoding: 'hex',
              SaltEncoding: 'utf8',
              Salt: 'pepper',
              Iterations: 210_000,
            },
            Sample: 'Secret#1',
          }),
        }),
      );
      const patterns = steady(500, () =>
        fetch(`${server.url}/admin/customobject/validate?${site}`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            Schema: JSON.stringify({ type: 'string', pattern: '^(a+)+$' }),
            Sample: JSON.stringify(`${'a'.repeat(30_000)}!`),
          }),
        }),
      );
      const mixed = await signInTimes(server.url);
      await Promise.all([resets.stop(), previews.stop(), patterns.stop()]);

      const p95Alone = percentile(alone, 95);
      const p95Mixed = percentile(mixed, 95);
      console.log(
        `${name}: sign-in alone p50 ${ms(percentile(alone, 50))} p95 ${ms(p95Alone)}; ` +
          `under the hostile mix p50 ${ms(percentile(mixed, 50))} p95 ${ms(p95Mixed)} ` +
          `(×${(p95Mixed / p95Alone).toFixed(2)}; target p95 ≤ 250 ms; ${SIGN_INS} sign-ins each)`,
      );
      console.log(
        `${name}: the mix answered: resets ${show(resets.statuses)}; previews ${show(previews.statuses)}; ` +
          `pattern checks ${show(patterns.statuses)}`,
      );
    } finally {
      await server.stop();
    }
  }
}
