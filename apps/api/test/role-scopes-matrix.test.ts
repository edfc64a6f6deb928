/**
 * The authorization matrix with generated custom roles (issue 33, role scopes): fast-check makes
 * principals out of random custom roles (random subsets of PERMISSIONS; a random data-center and
 * plan scope, over SCOPABLE_PERMISSIONS only, on some) and sometimes a built-in role, inserted by
 * SQL as the role editor stores them. Each principal calls every endpoint of the contract with
 * its row of MATRIX (endpoint-matrix.ts) and checks:
 * - a call needing a permission the principal lacks is 403 forbidden (902);
 * - a 'site' or 'customer' route on a site or customer outside the permission's scope is 403
 *   outOfScope (1113), and on one inside it is not 403;
 * - no 200 answer of a scoped permission holds what a fixture outside its scope holds (its
 *   owner's address, its sites' names).
 * Calls with a permission the principal holds unscoped are the authorization matrix's.
 *
 * Three fixture customers, each with its sites in one data center and plan (every site of the
 * customer is put back there before each call: rows make fresh sites, and some calls change the
 * plan or data center). FUZZ_SEED fixes the seed; SCOPE_MATRIX_PRINCIPALS is how many principals
 * (4 by default, each about 80 calls; not FUZZ_RUNS, which the suite sets to tens of thousands).
 */
import { randomUUID } from 'node:crypto';
import { ENDPOINT_LIST, type EndpointDef, type EndpointId } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import { BUILT_IN_ROLES, PERMISSIONS } from '@sac/contract/permissions';
import { SCOPABLE_PERMISSIONS, type SiteScope } from '@sac/contract/role-scopes';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { type Actor, MATRIX, MATRIX_APPROVER, send } from './endpoint-matrix.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { insertRequest } from './impersonation-fixtures.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 33_2026);
const PRINCIPALS = Math.max(1, Number(process.env.SCOPE_MATRIX_PRINCIPALS ?? 4));

/** Calls that end or change the principal's own sign-in: never made here. */
const NOT_CALLED = new Set<EndpointId>(['logout', 'changePassword', 'staffNotificationStream']);

interface Place {
  dataCenter: string;
  plan: string;
}
interface CustomerFixture extends Place {
  uid: string;
  appId: number;
  email: string;
}
const PLACES: Place[] = [
  { dataCenter: 'eu-central', plan: 'Developer' },
  { dataCenter: 'us-east', plan: 'Free' },
  { dataCenter: 'eu-west', plan: 'Developer Premium' },
];
const DATA_CENTERS = [...new Set([...PLACES.map((p) => p.dataCenter), 'ap-south'])];
const PLANS = [...new Set(PLACES.map((p) => p.plan))];

interface GeneratedRole {
  permissions: string[];
  dataCenters: string[] | null;
  plans: string[] | null;
}
interface GeneratedPrincipal {
  roles: GeneratedRole[];
  builtIn: string | null;
}

const subset = <T>(values: readonly T[]) => fc.subarray([...values], { minLength: 1 });
const scopedRole: fc.Arbitrary<GeneratedRole> = fc
  .record({
    permissions: subset(SCOPABLE_PERMISSIONS),
    dataCenters: fc.option(subset(DATA_CENTERS), { nil: null }),
    plans: fc.option(subset(PLANS), { nil: null }),
  })
  // a scope sets at least one axis (both unset is an unscoped role)
  .map((r) => (r.dataCenters || r.plans ? r : { ...r, dataCenters: [DATA_CENTERS[0]!] }));
const unscopedRole: fc.Arbitrary<GeneratedRole> = fc.record({
  permissions: subset(PERMISSIONS),
  dataCenters: fc.constant(null),
  plans: fc.constant(null),
});
const principalArb: fc.Arbitrary<GeneratedPrincipal> = fc.record({
  roles: fc
    .tuple(scopedRole, fc.array(fc.oneof(scopedRole, unscopedRole), { maxLength: 2 }))
    .map(([first, rest]) => [first, ...rest]),
  builtIn: fc.option(fc.constantFrom('Support', 'Auditor', 'Admin', 'SuperAdmin'), {
    nil: null,
    freq: 3,
  }),
});

/** The principal's permissions and, per permission, its scope (undefined: every site), as role-scopes.ts states. */
function effective(p: GeneratedPrincipal) {
  const grants: Array<{ permissions: readonly string[]; scope: SiteScope | null }> = p.roles.map((r) => ({
    permissions: r.permissions,
    scope: r.dataCenters || r.plans ? { dataCenters: r.dataCenters, plans: r.plans } : null,
  }));
  if (p.builtIn) grants.push({ permissions: BUILT_IN_ROLES[p.builtIn]!.permissions, scope: null });
  const held = new Set(grants.flatMap((g) => g.permissions));
  const scopeOf = (permission: string): SiteScope[] | undefined => {
    const granting = grants.filter((g) => g.permissions.includes(permission));
    if (granting.some((g) => g.scope === null)) return undefined;
    return granting.map((g) => g.scope!);
  };
  return { held, scopeOf };
}

const inScope = (place: Place, scope: readonly SiteScope[]) =>
  scope.some(
    (e) =>
      (e.dataCenters === null || e.dataCenters.includes(place.dataCenter)) &&
      (e.plans === null || e.plans.includes(place.plan)),
  );

let t: TestApp;
let fixtures: CustomerFixture[];
/** Calls made, by what they checked (reported at the end). */
const calls = { forbidden: 0, scoped: 0 };

/**
 * Every site of each fixture customer back in its data center and plan; answers, per fixture,
 * what an answer outside its scope must not hold: the owner's address and every site's name.
 */
async function resetFixtures(): Promise<string[][]> {
  const out: string[][] = [];
  for (const f of fixtures) {
    const r = await t.db.query<{ app_name: string }>(
      'UPDATE sites SET data_center = $2, plan = $3 WHERE owner_uid = $1 RETURNING app_name',
      [f.uid, f.dataCenter, f.plan],
    );
    out.push([f.email, ...r.rows.map((x) => x.app_name)]);
  }
  return out;
}

async function addPrincipal(p: GeneratedPrincipal): Promise<Actor> {
  const names: string[] = [];
  for (const r of p.roles) {
    const name = `gen-${randomUUID().slice(0, 8)}`;
    await t.db.query(
      'INSERT INTO roles (name, permissions, scope_data_centers, scope_plans) VALUES ($1, $2, $3, $4)',
      [name, r.permissions, r.dataCenters, r.plans],
    );
    names.push(name);
  }
  if (p.builtIn) names.push(p.builtIn);
  const email = `gen-${randomUUID()}@example.com`;
  return { uid: await t.addStaff(email, names), email };
}

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff(MATRIX_APPROVER, ['SuperAdmin']);
  fixtures = [];
  for (const [i, place] of PLACES.entries()) {
    // every fixture matches the rows' searches ('matrix'), so a leak would be found
    const email = `matrix-scope-${i}@customer${i}.example`;
    const uid = await insertCustomer(t.db, { first: 'Matrix', last: `Scope${i}`, email });
    const { appId } = await insertSite(t.db, { owner: uid, name: `matrix-scope-site-${i}` });
    fixtures.push({ ...place, uid, appId, email });
  }
  await resetFixtures();
});
afterAll(() => t.close(), 180_000);

interface Failure {
  endpoint: string;
  fixture: number;
  what: string;
}

/** Calls one endpoint as the principal on fixture `on`; answers what went wrong, if anything. */
async function check(
  e: EndpointDef,
  session: { xtoken: string; xsign: string },
  actor: Actor,
  on: number,
  expectation: { kind: 'forbidden' } | { kind: 'scoped'; scope: readonly SiteScope[] },
): Promise<string | undefined> {
  const f = fixtures[on]!;
  const row = MATRIX[e.id as EndpointId];
  const arranged = await row.request({ t, customer: { uid: f.uid, appId: f.appId }, actor, target: actor });
  await resetFixtures();
  const r = await send(t, e, session, arranged);
  calls[expectation.kind]++;
  // read after the call: a site it made for a customer outside the scope is one it must not name
  const held = await resetFixtures();
  const body = r.body;
  const code = r.statusCode === 403 ? (JSON.parse(body) as { ErrorCode?: number }).ErrorCode : undefined;
  if (expectation.kind === 'forbidden') {
    return r.statusCode === 403 && code === ERRORS.forbidden.code
      ? undefined
      : `lacks ${e.access}: expected 403 (902), got ${r.statusCode} ${body.slice(0, 200)}`;
  }
  const inside = inScope(f, expectation.scope);
  // each fixture customer has one site: in scope wholly or not at all
  if (e.scope === 'site' || e.scope === 'customer' || e.scope === 'customer-account') {
    if (!inside && !(r.statusCode === 403 && code === ERRORS.outOfScope.code))
      return `outside the scope: expected 403 (1113), got ${r.statusCode} ${body.slice(0, 200)}`;
    if (inside && r.statusCode === 403) return `inside the scope: got 403 ${body.slice(0, 200)}`;
  }
  if (r.statusCode === 200) {
    for (const [i, strings] of held.entries()) {
      if (inScope(fixtures[i]!, expectation.scope)) continue;
      const leaked = strings.find((s) => body.includes(s));
      if (leaked) return `answered ${leaked} of fixture ${i}, outside the scope`;
    }
  }
  return undefined;
}

/** Every endpoint as one generated principal. */
async function runPrincipal(p: GeneratedPrincipal): Promise<Failure[]> {
  const actor = await addPrincipal(p);
  const session = await t.login(actor.email);
  // On each fixture's site a request (a customer's own) the principal made, with its log entry: what
  // the impersonation lists, exports and log would show them but for the scope.
  for (const f of fixtures) {
    const { id } = await insertRequest(t.db, {
      appId: f.appId,
      initiator: actor.email,
      assignees: [MATRIX_APPROVER],
    });
    await t.db.query('UPDATE impersonation_requests SET is_customer_request = true WHERE id = $1', [id]);
    await t.db.query(
      `INSERT INTO impersonation_log (request_id, at, actor, event, status, details)
       VALUES ($1, $2, $3, 'request', 'Pending', '{}')`,
      [id, t.clock.now(), actor.email],
    );
  }
  const { held, scopeOf } = effective(p);
  const failures: Failure[] = [];
  for (const e of ENDPOINT_LIST) {
    if (e.access === 'public' || e.access === 'session' || NOT_CALLED.has(e.id as EndpointId)) continue;
    if (!held.has(e.access)) {
      const what = await check(e, session, actor, 0, { kind: 'forbidden' });
      if (what) failures.push({ endpoint: e.id, fixture: 0, what });
      continue;
    }
    const scope = scopeOf(e.access);
    if (!scope) continue;
    // once on a fixture inside the scope and once on one outside, when there are such
    const inside = fixtures.findIndex((f) => inScope(f, scope));
    const outside = fixtures.findIndex((f) => !inScope(f, scope));
    for (const on of [inside, outside]) {
      if (on < 0) continue;
      const what = await check(e, session, actor, on, { kind: 'scoped', scope });
      if (what) failures.push({ endpoint: e.id, fixture: on, what });
    }
  }
  return failures;
}

describe('authorization matrix with generated custom roles and scopes', () => {
  it('refuses what a principal lacks, keeps every call to its scope, and leaks nothing outside it', async () => {
    console.log(`role scopes matrix on ${t.db.kind}: seed ${SEED} (FUZZ_SEED), ${PRINCIPALS} principals`);
    await fc.assert(
      fc.asyncProperty(principalArb, async (p) => {
        const failures = await runPrincipal(p);
        expect(failures, JSON.stringify(p)).toEqual([]);
      }),
      { seed: SEED, numRuns: PRINCIPALS, endOnFailure: true },
    );
    console.log(
      `role scopes matrix: ${calls.forbidden} calls lacking the permission, ${calls.scoped} scoped calls`,
    );
  }, 600_000);
});
