import { EXPORT_SELECTION_MAX } from '@sac/contract/bulk';
import { HEADERS } from '@sac/contract/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { insertRequest } from '../../../test/impersonation-fixtures.ts';

type S = { xtoken: string; xsign: string };
let t: TestApp;
let boss: S;
let agent: S;
const ids: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('agent@example.com', ['Admin']);
  boss = await t.login('boss@example.com');
  agent = await t.login('agent@example.com');
  const owner = await insertCustomer(t.db, { first: 'Ow', last: 'Ner', email: 'owner@example.com' });
  const { appId } = await insertSite(t.db, { owner, name: 'export-site' });
  for (const initiator of [
    'agent@example.com',
    'agent@example.com',
    'agent@example.com',
    'other@example.com',
  ])
    ids.push((await insertRequest(t.db, { appId, initiator, assignees: ['boss@example.com'] })).id);
});
afterAll(() => t.close());

const exportOf = (session: S, query: Record<string, string>) =>
  t.callLoose('impersonationRequestsExport', { session, query });
const lines = (body: string) => body.split('\r\n').filter((l) => l !== '');

describe('export of a selection of the impersonation requests', () => {
  it('is the list’s own export of the rows picked: same columns and lines, its trail row naming the selection', async () => {
    const whole = await exportOf(boss, {});
    expect(whole.status, whole.raw.body).toBe(200);
    const [header, ...all] = lines(whole.raw.body);
    const picked = await exportOf(boss, { ids: `${ids[2]},${ids[0]},${ids[0]}` });
    expect(picked.status, picked.raw.body).toBe(200);
    expect(picked.headers[HEADERS.exportRows]).toBe('2');
    const [pickedHeader, ...rows] = lines(picked.raw.body);
    expect(pickedHeader).toBe(header);
    // in the list's order, as the whole export has them
    expect(rows).toEqual(all.filter((l) => [ids[0], ids[2]].some((id) => l.startsWith(`${id},`))));
    const trail = await t.db.query<{ details: Record<string, unknown> }>(
      "SELECT details FROM activity_log WHERE action = 'impersonation-requests.export' ORDER BY id DESC LIMIT 1",
    );
    expect(trail.rows[0]!.details).toEqual({ filters: {}, rows: 2, selection: 2 });
  });

  it('keeps to the list’s filter and to what the viewer may list', async () => {
    const approved = await exportOf(boss, { ids: ids.join(','), status: 'Approved' });
    expect(approved.headers[HEADERS.exportRows]).toBe('0');
    // the agent lists their own requests only: the other's is not exported to them
    const theirs = await exportOf(agent, { ids: `${ids[0]},${ids[3]}` });
    expect(theirs.headers[HEADERS.exportRows]).toBe('1');
    expect(
      lines(theirs.raw.body)
        .slice(1)
        .map((l) => l.split(',')[0]),
    ).toEqual([String(ids[0])]);
  });

  it(`is bounded at ${EXPORT_SELECTION_MAX} rows, and refuses ids that are not ids`, async () => {
    const many = Array.from({ length: EXPORT_SELECTION_MAX + 1 }, (_, i) => i + 1).join(',');
    const big = await exportOf(boss, { ids: many });
    expect(big.status).toBe(400);
    expect(big.error.FieldErrors![0]).toMatchObject({ Field: 'ids' });
    expect(big.error.FieldErrors![0]!.Message).toContain(`at most ${EXPORT_SELECTION_MAX} rows`);
    const bad = await exportOf(boss, { ids: '1,x' });
    expect([bad.status, bad.error.FieldErrors![0]!.Field]).toEqual([400, 'ids']);
  });
});
