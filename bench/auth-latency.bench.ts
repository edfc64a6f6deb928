import { freshDir, ms, percentile, startServer } from './support.ts';

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

/** Sign-in (argon2id) and authenticated-call latency, sequential, on PGlite and on PostgreSQL if set. */
export async function benchAuthLatency(): Promise<void> {
  const legs: Array<[string, Record<string, string>]> = [['PGlite', {}]];
  if (process.env.BENCH_DATABASE_URL)
    legs.push(['PostgreSQL', { DATABASE_URL: process.env.BENCH_DATABASE_URL }]);
  for (const [name, env] of legs) {
    const server = await startServer({
      port: 3943,
      dataDir: freshDir('latency'),
      env: { DEMO_PASSWORD: 'Bench#Pass1', ...env },
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
    } finally {
      await server.stop();
    }
  }
}
