/**
 * Fuzzing of every endpoint of the contract: generated valid and invalid requests
 * (requests.ts), sent in process to the app on a fresh database with realistic fixtures, as a
 * SuperAdmin, a Support user, anonymously and as an impersonation session. Every answer is
 * checked (checks.ts): no 5xx, a declared status with a body of its schema, no stack trace, the
 * security headers; a sample of the refused writes is checked to have stored nothing.
 *
 * FUZZ_SEED fixes the seed (a constant by default, so CI runs the same requests); FUZZ_RUNS is
 * the number of generated requests over all endpoints; FUZZ_SNAPSHOT_EVERY how many writes go
 * between two stored-state checks; FUZZ_ONLY=id,id fuzzes only those endpoints. A failing
 * property's shrunk counterexample is appended to regressions.json, which every run replays
 * first: commit it with the fix.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENDPOINT_LIST, type EndpointDef } from '@sac/contract/endpoints';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../harness.ts';
import { changedTables, checkResponse, type Fingerprint, fingerprinter } from './checks.ts';
import { createFixtures, type Fixtures } from './fixtures.ts';
import { type FuzzRequest, makeHints, requestArbitrary } from './requests.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 7_2026);
const TOTAL = Number(process.env.FUZZ_RUNS ?? 101_000);
/** Every how many-th write call is checked to store nothing when refused. */
const SNAPSHOT_EVERY = Number(process.env.FUZZ_SNAPSHOT_EVERY ?? 40);
const REGRESSIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'regressions.json');

/** Calls that cost a password hash (or mail, or a DNS look-up) when valid get fewer runs. */
const WEIGHTS: Record<string, number> = {
  login: 0.1,
  changePassword: 0.15,
  resetPassword: 0.5,
  setCustomerPassword: 0.15,
  teamCreate: 0.25,
  forgotPassword: 0.25,
  encryptionPreview: 0.3,
  saveEncryptionSettings: 0.6,
  customDomainVerify: 0.3,
  createCustomer: 0.6,
  addSite: 0.6,
  // second factors: a valid call checks the current password (argon2id) or mails
  totpEnrolStart: 0.15,
  totpRemove: 0.15,
  passkeyOptions: 0.15,
  passkeyRemove: 0.15,
  recoveryCodesRenew: 0.15,
  staffFactorsReset: 0.25,
  // a valid notice for now starts sending mail to the fixtures' owners
  noticeCreate: 0.3,
};
const weightOf = (d: EndpointDef) => WEIGHTS[d.id] ?? 1;
const totalWeight = ENDPOINT_LIST.reduce((s, d) => s + weightOf(d), 0);
// rounded up, so the endpoints together send at least FUZZ_RUNS
const runsOf = (d: EndpointDef) => Math.max(20, Math.ceil((TOTAL * weightOf(d)) / totalWeight));

/** After a success of these the principals may be signed out, demoted or deleted: put them back. */
const RESTORE_AFTER = new Set(['logout', 'changePassword', 'resetPassword', 'teamUpdateRoles', 'teamDelete']);

/** Answers given before the service: validation, no session, no permission, the request guard. */
const NOT_REACHED = new Set([900, 901, 902, 908, 909]);
const ONLY = process.env.FUZZ_ONLY?.split(',');

interface Regression {
  endpoint: string;
  failure: string;
  seed: number;
  request: FuzzRequest;
}

interface Stats {
  requests: number;
  /** Answers that got past authentication and validation into the service (or were refused by it). */
  reached: number;
  statuses: Record<number, number>;
  snapshots: number;
  ms: number;
}

describe('fuzz: every endpoint of the contract', () => {
  let t: TestApp;
  let fx: Fixtures;
  let fingerprint: () => Promise<Fingerprint>;
  let writes = 0;
  const stats = new Map<string, Stats>();
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();

  beforeAll(async () => {
    t = await createTestApp();
    fx = await createFixtures(t);
    const read = await fingerprinter(t.db);
    // Mail queued by an earlier call (forgot password writes after its answer) and its sending are
    // done before a snapshot, so a snapshot shows only what the call between two of them changed.
    fingerprint = async () => {
      await t.ctx.mailer.flush();
      return read();
    };
    console.log(
      `fuzz on ${t.db.kind}: seed ${SEED} (FUZZ_SEED), ${TOTAL} generated requests (FUZZ_RUNS), ` +
        `refused-write snapshot every ${SNAPSHOT_EVERY} writes`,
    );
  });

  afterAll(async () => {
    const all = [...stats.values()];
    const requests = all.reduce((s, x) => s + x.requests, 0);
    const seconds = (performance.now() - started) / 1000;
    // CPU time of this process (the app, PGlite and the generators; not a PostgreSQL server's):
    // on a shared machine the wall time says more about the neighbours than about the fuzz.
    const cpu = process.cpuUsage(cpuAtStart);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const lines = [...stats].map(
      ([id, s]) =>
        `${id.padEnd(28)} ${String(s.requests).padStart(6)} req, ${String(s.reached).padStart(5)} reached the service, ` +
        `${String(s.snapshots).padStart(4)} refused writes checked, ${(s.ms / 1000).toFixed(1)} s; ` +
        Object.entries(s.statuses)
          .map(([k, v]) => `${k}:${v}`)
          .join(' '),
    );
    console.log(
      `${lines.join('\n')}\nfuzz on ${t.db.kind}: ${requests} requests in ${seconds.toFixed(1)} s ` +
        `(${Math.round(requests / seconds)}/s), ${cpuSeconds.toFixed(1)} s CPU in this process, seed ${SEED}`,
    );
    await t?.close();
  });

  const send = async (req: FuzzRequest, def: EndpointDef): Promise<LightMyRequestResponse> => {
    const s = req.principal === 'anonymous' ? undefined : fx.session(req.principal);
    const opts = {
      method: req.method as 'GET',
      url: req.url,
      headers: { ...(s ? { xtoken: s.xtoken, xsign: s.xsign } : {}), ...req.headers },
      ...(req.payload !== undefined ? { payload: req.payload } : {}),
    };
    if (!def.produces?.includes('text/event-stream')) return t.app.inject(opts);
    // A live stream stays open: its answer is taken once the headers are written, and a 200 is
    // then closed as a browser tab would be (an error answer is read whole).
    const res = await t.app.inject({ ...opts, payloadAsStream: true });
    let body = '';
    if (res.statusCode === 200) res.raw.res.destroy();
    else for await (const chunk of res.stream()) body += String(chunk);
    return Object.assign(res, { body, payload: body, json: () => JSON.parse(body) as unknown });
  };

  /** Sends one request and answers what is wrong with it, or undefined. */
  async function runOne(def: EndpointDef, req: FuzzRequest, snapshot = false): Promise<string | undefined> {
    const st = stats.get(def.id) ?? { requests: 0, reached: 0, statuses: {}, snapshots: 0, ms: 0 };
    stats.set(def.id, st);
    const t0 = performance.now();
    const isWrite = req.method !== 'GET';
    const before = isWrite && (snapshot || writes++ % SNAPSHOT_EVERY === 0) ? await fingerprint() : undefined;
    const res = await send(req, def);
    st.requests++;
    st.statuses[res.statusCode] = (st.statuses[res.statusCode] ?? 0) + 1;
    let failure = checkResponse(def, req, res);
    const code = res.statusCode >= 400 ? (JSON.parse(res.body) as { ErrorCode?: number }).ErrorCode : 0;
    if (!NOT_REACHED.has(code ?? 0)) st.reached++;
    if (!failure && before && res.statusCode >= 400) {
      st.snapshots++;
      const changed = changedTables(def, req.principal, res.statusCode, before, await fingerprint());
      if (changed.length > 0) failure = `refused with ${res.statusCode} but changed ${changed.join(', ')}`;
    }
    const ownSession = req.principal !== 'anonymous' && !('xtoken' in req.headers);
    if ((res.statusCode === 401 && ownSession) || (res.statusCode === 200 && RESTORE_AFTER.has(def.id))) {
      await fx.restorePrincipals();
    }
    st.ms += performance.now() - t0;
    return failure;
  }

  it('replays the kept regression cases first', async () => {
    const cases = JSON.parse(fs.readFileSync(REGRESSIONS, 'utf8')) as Regression[];
    const byId = new Map(ENDPOINT_LIST.map((d) => [d.id, d]));
    const failures: string[] = [];
    for (const c of cases) {
      const def = byId.get(c.endpoint);
      if (!def) continue;
      const failure = await runOne(def, c.request, true);
      if (failure)
        failures.push(`${c.endpoint} ${c.request.method} ${c.request.url.slice(0, 200)}: ${failure}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  for (const [index, def] of ENDPOINT_LIST.entries()) {
    if (ONLY && !ONLY.includes(def.id)) continue;
    it(`${def.id}: ${def.method} ${def.path}`, async () => {
      const arb = requestArbitrary(def, { pools: fx.pools, hints: makeHints(fx.pools) });
      const property = fc.asyncProperty(arb, async (req) => {
        const failure = await runOne(def, req);
        if (failure) throw new Error(failure);
      });
      const seed = SEED + index;
      const out = await fc.check(property, { seed, numRuns: runsOf(def) });
      if (out.failed && out.counterexample) {
        const request = out.counterexample[0];
        const failure = String((out.errorInstance as Error | undefined)?.message ?? out.errorInstance);
        const cases = JSON.parse(fs.readFileSync(REGRESSIONS, 'utf8')) as Regression[];
        if (!cases.some((c) => JSON.stringify(c.request) === JSON.stringify(request))) {
          cases.push({ endpoint: def.id, failure: failure.slice(0, 500), seed, request });
          fs.writeFileSync(REGRESSIONS, `${JSON.stringify(cases, null, 2)}\n`);
        }
        throw new Error(
          `${def.id} failed (kept in test/fuzz/regressions.json): ${failure}\n${fc.defaultReportMessage(out)?.slice(0, 2000)}`,
        );
      }
    }, 900_000);
  }

  it('reached every endpoint past validation, and sent the number of requests asked for', () => {
    const unreached = ENDPOINT_LIST.filter((d) => !ONLY || ONLY.includes(d.id))
      .filter((d) => (stats.get(d.id)?.reached ?? 0) === 0)
      .map((d) => d.id);
    expect(unreached).toEqual([]);
    const requests = [...stats.values()].reduce((s, x) => s + x.requests, 0);
    if (!ONLY) expect(requests).toBeGreaterThanOrEqual(TOTAL);
  });
});
