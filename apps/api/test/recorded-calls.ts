/**
 * Each endpoint's valid call (MATRIX) made as a principal it answers 2xx, with the statements the
 * call ran recorded (db/statement-log.ts): what reads-never-write and statement-budgets hold
 * every endpoint to. The arrangement (staff, sign-in, the row's own rows) runs before the
 * recording starts, so only the call is counted, authentication included.
 */
import { randomUUID } from 'node:crypto';
import { ENDPOINT_LIST, type EndpointId } from '@sac/contract/endpoints';
import { recordStatements, type StatementCounts } from '../src/db/statement-log.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import {
  type Actor,
  type Fixture,
  impersonate,
  MATRIX,
  MATRIX_APPROVER,
  type Principal,
  send,
  sleep,
  type Target,
} from './endpoint-matrix.ts';
import type { TestApp } from './harness.ts';

type Session = { xtoken: string; xsign: string };

/** The principals tried, in this order, each on its own object first. */
const ORDER: Principal[] = ['SuperAdmin', 'Admin', 'Support', 'Auditor', 'Impersonating', 'anonymous'];

/**
 * Who a call is made as: the first principal of ORDER, and target, that MATRIX answers 2xx; for
 * the few calls MATRIX has no valid one of, the first it does not refuse (401, 403), and for a
 * second factor's step (a bogus ticket, 401 to all) the anonymous call; with the answer MATRIX expects.
 */
function grantedPrincipal(id: EndpointId): { principal: Principal; target: Target; status: number } {
  const row = MATRIX[id];
  const cells = ORDER.flatMap((principal) =>
    (['own', 'other'] as const).map((target) => {
      const want = row.expect[principal];
      return { principal, target, status: typeof want === 'number' ? want : want[target] };
    }),
  );
  const found =
    cells.find((c) => c.status >= 200 && c.status < 300) ??
    cells.find((c) => c.status !== 401 && c.status !== 403) ??
    cells.find((c) => c.principal === 'anonymous');
  if (!found) throw new Error(`${id}: no call in MATRIX`);
  return found;
}

export interface RecordedCalls {
  t: TestApp;
  /** The endpoint's call as its granted principal: the status MATRIX expects, the answer's, and the statements. */
  call(id: EndpointId): Promise<{ expected: number; status: number; body: string; counts: StatementCounts }>;
}

/** The matrix's fixture on `t`: its approver and a customer with one site. */
export async function recordedCalls(t: TestApp): Promise<RecordedCalls> {
  await t.addStaff(MATRIX_APPROVER, ['SuperAdmin']);
  // named as the matrix's customer: its search calls look for 'matrix'
  const uid = await insertCustomer(t.db, {
    first: 'Matrix',
    last: 'Customer',
    email: 'matrix@customer.example',
  });
  const customer = { uid, appId: (await insertSite(t.db, { owner: uid, name: 'matrix-site' })).appId };

  const newStaff = async (roles: string[]): Promise<Actor> => {
    const email = `c-${randomUUID()}@example.com`;
    return { uid: await t.addStaff(email, roles), email };
  };
  return {
    t,
    async call(id) {
      const e = ENDPOINT_LIST.find((x) => x.id === id)!;
      const row = MATRIX[id];
      const { principal, target, status: expected } = grantedPrincipal(id);
      const actor = await newStaff(
        principal === 'Impersonating' ? ['Admin'] : principal === 'anonymous' ? ['Support'] : [principal],
      );
      let session: Session | undefined;
      if (principal !== 'anonymous') session = await t.login(actor.email);
      if (principal === 'Impersonating') session = await impersonate(t, customer, actor, session!);
      const f: Fixture = {
        t,
        customer,
        actor,
        target: target === 'own' ? actor : await newStaff(['Support']),
      };
      const arranged = await row.request(f);
      let opened: StatementCounts | undefined;
      const { out: r, counts } = await recordStatements(async (sofar) => {
        const answer = send(t, e, session, arranged);
        if (row.stream && session) {
          // An open stream answers when its session ends (as in the authorization matrix); what
          // it ran is counted until it is open, the sign-out that ends it being another call.
          const settled = await Promise.race([answer.then(() => true), sleep(300).then(() => false)]);
          if (!settled) {
            opened = structuredClone(sofar);
            await t.call('logout', { session });
          }
        }
        return answer;
      });
      // Each call starts from the same staff: its actor keeps no role (a customer request, for
      // one, tells every SuperAdmin, and the count of those must not grow call by call).
      await t.db.query('DELETE FROM staff_roles WHERE uid = $1', [actor.uid]);
      return { expected, status: r.statusCode, body: r.body, counts: opened ?? counts };
    },
  };
}
