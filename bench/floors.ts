import http from 'node:http';
import { ENDPOINTS, type EndpointDef, type EndpointId } from '@sac/contract/endpoints';
import { permissionsOf } from '@sac/contract/permissions';
import type { AppContext, StaffSession } from '../apps/api/src/app-context.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import type { Queryable } from '../apps/api/src/db/db.ts';
import { ms, percentile } from './support.ts';

/*
 * The floors an HTTP figure is read against, measured in the same run (issue 31): the SQL of the
 * call, by its own service function in this process through the same engine (no HTTP, no
 * authentication), and an authenticated GET of the same server that reads nothing else
 * (GET /admin/session: the session check alone).
 */

/** The cheapest authenticated GET of the contract: two statements, the session check. */
const SESSION_PATH = ENDPOINTS.session.path;

/**
 * What a service function needs of the app's context to read: the database, the clock and the
 * configuration (the default one: the lists' reasons and case links, for one, come from it).
 */
export const readingContext = (db: Queryable): AppContext =>
  ({ db, clock: { now: () => new Date() }, config: loadConfig({}) }) as unknown as AppContext;

/** A demo staff member as their session carries them: uid, roles and the roles' permissions. */
export async function staffSession(db: Queryable, email: string): Promise<StaffSession> {
  const r = await db.query<{ uid: string; roles: string[] }>(
    `SELECT s.uid::text AS uid, coalesce(array_agg(r.role) FILTER (WHERE r.role IS NOT NULL), '{}') AS roles
       FROM staff s LEFT JOIN staff_roles r ON r.uid = s.uid WHERE s.email = $1 GROUP BY s.uid`,
    [email],
  );
  const { uid, roles } = r.rows[0]!;
  return {
    sessionId: 0,
    uid,
    email,
    name: email,
    roles,
    permissions: permissionsOf(roles),
    verifiedAt: new Date(),
  };
}

/** A path's query as the route hands it to its service (of type T): parsed by the endpoint's schema. */
export function queryOf<T>(id: EndpointId, path: string): T {
  const def: EndpointDef = ENDPOINTS[id];
  const raw = Object.fromEntries(new URL(path, 'http://x').searchParams);
  return (def.query?.parse(raw) ?? {}) as T;
}

/** `n` timings of `run` after `warm` untimed ones, sorted. */
export async function timings(run: () => Promise<unknown>, n: number, warm = 5): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n + warm; i++) {
    const t = performance.now();
    await run();
    if (i >= warm) out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}

/**
 * The authenticated GET's timings, taken between a figure's calls (one after every fourth) so
 * that the floor sees the same moments of a busy machine as the figures it is read against.
 */
export interface Floor {
  auth: Record<string, string>;
  times: number[];
}

/**
 * The timed calls' client: node's own HTTP with one kept-alive connection, as a browser keeps
 * one. undici's fetch allocates enough per call that this process's own collections showed in
 * the figures: a sequential loop of one page saw three times the calls over 10 ms through fetch
 * (57 against 19 in 10 s) while the server's own responseTime was over 10 ms for 1–3 of them.
 */
const KEEP_ALIVE = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** A GET through the timed calls' client: its status, its body as text, and the milliseconds it took. */
export function timedGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    http
      .get(url, { headers, agent: KEEP_ALIVE }, (res) => {
        const body: Buffer[] = [];
        res.on('data', (d: Buffer) => body.push(d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(body).toString(),
            ms: performance.now() - t,
          }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** `n` timed GETs of `path` after 5 untimed, sorted; throws on an answer that is not 200. */
export async function httpTimings(
  url: string,
  auth: Record<string, string>,
  path: string,
  n: number,
  floor?: Floor,
): Promise<number[]> {
  const get = async (a: Record<string, string>, p: string) => {
    const r = await timedGet(`${url}${p}`, a);
    if (r.status !== 200) throw new Error(`${p}: ${r.status} ${r.body}`);
    return r.ms;
  };
  const out: number[] = [];
  for (let i = 0; i < n + 5; i++) {
    const took = await get(auth, path);
    if (i < 5) continue;
    out.push(took);
    if (floor && i % 4 === 0) floor.times.push(await get(floor.auth, SESSION_PATH));
  }
  return out.sort((a, b) => a - b);
}

/** The p95 of timings, sorted or not. */
export const p95 = (t: number[]) =>
  percentile(
    [...t].sort((a, b) => a - b),
    95,
  );

/**
 * One figure beside its floors: `GET … p50 x p95 y; its SQL p95 z (×r); an authenticated GET p95 w
 * (+d ms)`, where r is the call's p95 over its SQL's and d what the call adds to the bare
 * authenticated GET; then, when measured, the same call beside the hostile mix and its ratio to
 * the call alone.
 */
export function floorLine(f: {
  what: string;
  http: number[];
  sql: number[];
  session: number[];
  mixed?: number[];
}): string {
  const p = p95(f.http);
  const line =
    `${f.what} p50 ${ms(
      percentile(
        [...f.http].sort((a, b) => a - b),
        50,
      ),
    )} p95 ${ms(p)}; its SQL p95 ${ms(p95(f.sql))} ` +
    `(×${(p / p95(f.sql)).toFixed(1)}); an authenticated GET p95 ${ms(p95(f.session))} ` +
    `(${p >= p95(f.session) ? '+' : '-'}${Math.abs(p - p95(f.session)).toFixed(1)} ms)`;
  return f.mixed
    ? `${line}; beside the hostile mix p95 ${ms(p95(f.mixed))} (×${(p95(f.mixed) / p).toFixed(2)})`
    : line;
}

/** The verdict of a p95 target, alone and beside the mix. */
export const verdict = (what: string, alone: number, mixed: number, target: number) =>
  `${what}: worst p95 alone ${ms(alone)}, beside the hostile mix ${ms(mixed)} (target ≤ ${target} ms: ` +
  `${alone <= target ? 'met' : 'missed'} alone, ${mixed <= target ? 'met' : 'missed'} beside the mix)`;

/**
 * The median over many figures of their p95, of the ratio to their SQL and of the ratio beside the
 * mix: on a busy machine one figure's tail is noise, the middle of fifty is not.
 */
export function medianLine(
  what: string,
  figures: Array<{ http: number[]; sql: number[]; mixed: number[] }>,
): string {
  const mid = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  return (
    `${what}: median over ${figures.length} of p95 ${ms(mid(figures.map((f) => p95(f.http))))}, ` +
    `of ×SQL ${mid(figures.map((f) => p95(f.http) / p95(f.sql))).toFixed(1)}, ` +
    `of p95 beside the mix ${ms(mid(figures.map((f) => p95(f.mixed))))} ` +
    `(×${mid(figures.map((f) => p95(f.mixed) / p95(f.http))).toFixed(2)} of alone)`
  );
}
