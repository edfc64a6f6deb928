import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, stubApi, type Viewer } from '../../../testing/api-stub.tsx';
import AuditTrailPage from './audit-trail-page.tsx';

const PATH = '/manage-superuser/audit-trail';
const auditor: Viewer = {
  Uid: 'u-aud',
  Email: 'audrey@example.com',
  Role: ['Auditor'],
  Permissions: ['audit.read'],
};
const CUSTOMER = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

const event = (n: number, over: Record<string, unknown> = {}) => ({
  Id: String(n),
  At: new Date(Date.UTC(2026, 10, 26, 8, 0, 0) - n * 60_000).toISOString(),
  ActorUid: 'u-boss',
  ActorEmail: 'boss@example.com',
  Action: 'site.security',
  TargetType: 'customer',
  TargetId: CUSTOMER,
  CustomerUid: CUSTOMER,
  AppId: 42,
  ClientAddress: '203.0.113.9',
  RequestId: `req-${n}`,
  ImpersonationRequestId: null,
  Details: { appId: 42, n },
  Result: 'done' as 'done' | 'refused' | 'failed',
  CustomerName: 'Ada Lovelace',
  SiteName: 'ada-site',
  StaffName: null,
  TargetGone: false,
  ...over,
});
const page = (from: number, count: number, next: string | null) => ({
  body: { Data: Array.from({ length: count }, (_, i) => event(from + i)), NextCursor: next },
});
const render = (path = PATH) => renderScreen(path, [{ path: PATH, element: <AuditTrailPage /> }]);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-26T09:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('audit trail', () => {
  it('shows results, and a deleted staff member by the address the event recorded', async () => {
    stubApi(auditor, {
      auditEvents: () => ({
        body: {
          Data: [
            event(1, {
              Action: 'mfa.failed',
              Result: 'failed',
              CustomerUid: null,
              AppId: null,
              TargetType: null,
            }),
            event(2, {
              Action: 'team.delete',
              TargetType: 'staff',
              TargetId: 'u-gone',
              CustomerUid: null,
              AppId: null,
              StaffName: 'gone@example.com',
              TargetGone: true,
            }),
          ],
          NextCursor: null,
        },
      }),
    });
    render();
    const table = await screen.findByRole('table', { name: 'Audit trail events' });
    await within(table).findByText('Second factor failed (wrong code)');
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText('Second factor failed (wrong code)')).toBeTruthy();
    expect(within(first!).getByText('Failed')).toBeTruthy();
    const staff = within(second!).getByTitle('Staff member id u-gone');
    expect(staff.textContent).toBe('gone@example.com (deleted)');
  });

  it('groups the Action filter by area, narrows it by a search, and filters by result through the address', async () => {
    const { callsTo } = stubApi(auditor, { auditEvents: () => page(1, 1, null) });
    const router = render();
    await screen.findByRole('table', { name: 'Audit trail events' });
    const select = screen.getByLabelText('Action') as HTMLSelectElement;
    const groups = [...select.querySelectorAll('optgroup')].map((g) => g.label);
    expect(groups).toEqual(
      expect.arrayContaining(['Sign-in', 'Staff', 'Customers', 'Sites', 'Impersonation', 'Notices']),
    );
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search actions' }), {
      target: { value: 'approve' },
    });
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Any action',
      'Approved an impersonation request',
      'Approved a bulk action',
    ]);
    fireEvent.change(select, { target: { value: 'impersonation.approve' } });
    fireEvent.change(screen.getByLabelText('Result'), { target: { value: 'refused' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe('?action=impersonation.approve&result=refused'),
    );
    await waitFor(() =>
      expect(Object.fromEntries(callsTo('auditEvents').at(-1)!.url.searchParams)).toMatchObject({
        action: 'impersonation.approve',
        result: 'refused',
      }),
    );
  });

  it('lists events with times in the viewer’s zone, actor, action, target and address', async () => {
    stubApi(auditor, {
      auditEvents: () => ({
        body: {
          Data: [event(1), event(2, { ImpersonationRequestId: 12, ActorEmail: null })],
          NextCursor: null,
        },
      }),
    });
    render();
    const table = await screen.findByRole('table', { name: 'Audit trail events' });
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(within(table).getByRole('columnheader', { name: `Time (${zone})` })).toBeTruthy();
    await within(table).findAllByText('203.0.113.9');
    const first = within(table).getAllByRole('row')[1]!;
    expect(within(first).getByText('boss@example.com')).toBeTruthy();
    // The action in words, its code in the tooltip; targets by name, their ids on hover.
    const action = within(first).getByText('Changed a site’s security settings');
    expect(action.getAttribute('title')).toBe('Code: site.security');
    const customerLink = within(first).getByRole('link', { name: `Customer Ada Lovelace (${CUSTOMER})` });
    expect(customerLink.textContent).toBe('Ada Lovelace');
    expect(customerLink.getAttribute('title')).toBe(`Customer id ${CUSTOMER}`);
    expect(within(first).getByRole('link', { name: 'Site ada-site (42)' }).getAttribute('title')).toBe(
      'Site id 42',
    );
    expect(within(first).getByText('Done')).toBeTruthy();
    expect(within(first).getByText('203.0.113.9')).toBeTruthy();
    const second = within(table).getAllByRole('row')[2]!;
    expect(within(second).getByText('through impersonation request 12')).toBeTruthy();
    expect(within(second).getByText('System')).toBeTruthy();
    fireEvent.click(within(first).getByRole('button', { name: 'Details of event 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Event 1' });
    expect(within(dialog).getByText('req-1')).toBeTruthy();
  });

  it('applies filters through the address and sends them to the API, a preset as a start time', async () => {
    const { callsTo } = stubApi(auditor, { auditEvents: () => page(1, 1, null) });
    const router = render();
    await screen.findByRole('table', { name: 'Audit trail events' });
    fireEvent.change(screen.getByLabelText('Actor email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'team.create' } });
    fireEvent.change(screen.getByLabelText('Customer id'), { target: { value: CUSTOMER } });
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '24h' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(callsTo('auditEvents')).toHaveLength(2));
    const sent = callsTo('auditEvents')[1]!.url.searchParams;
    expect(sent.get('actor')).toBe('ada@example.com');
    expect(sent.get('action')).toBe('team.create');
    expect(sent.get('customer')).toBe(CUSTOMER);
    expect(sent.get('from')).toBe('2026-11-25T09:00:00.000Z');
    expect(router.state.location.search).toBe(
      `?actor=ada%40example.com&action=team.create&customer=${CUSTOMER}&range=24h`,
    );
    // The form shows the filters of the address it was opened at.
    expect((screen.getByLabelText('Actor email') as HTMLInputElement).value).toBe('ada@example.com');
  });

  it('explains a filter the API would refuse, without calling it', async () => {
    const { callsTo } = stubApi(auditor, { auditEvents: () => page(1, 1, null) });
    render();
    await screen.findByRole('table', { name: 'Audit trail events' });
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'ab' } });
    fireEvent.change(screen.getByLabelText('Site id'), { target: { value: 'shop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('Type at least 3 characters to search the trail.')).toBeTruthy();
    expect(screen.getByText('appId must be a number.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: 'custom' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('Choose a start and an end, the start not after the end.')).toBeTruthy();
    expect(callsTo('auditEvents')).toHaveLength(1);
  });

  it('pages deeper with the cursor the API answered', async () => {
    const { callsTo } = stubApi(auditor, {
      auditEvents: ({ url }) =>
        url.searchParams.get('cursor') === 'c1' ? page(51, 10, null) : page(1, 50, 'c1'),
    });
    render();
    expect(await screen.findByText('Showing 1–25 of more than 50')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /page 2/i }));
    expect(await screen.findByText('Showing 26–50 of more than 50')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /next/i }));
    expect(await screen.findByText('Showing 51–60 of 60')).toBeTruthy();
    expect(callsTo('auditEvents').map((c) => c.url.searchParams.get('cursor'))).toEqual([null, 'c1']);
  });

  it('exports the filtered trail with its progress and hands the file to the browser', async () => {
    const file = ['{"Type":"header"}', '{"Id":"1"}', '{"Id":"2"}', '{"Type":"seal"}', ''].join('\n');
    const { callsTo } = stubApi(auditor, {
      auditEvents: () => page(1, 2, null),
      auditExport: () => ({
        status: 200,
        body: file,
        headers: {
          'x-export-rows': '2',
          'content-disposition': 'attachment; filename="audit-trail-x.jsonl"',
        },
      }),
    });
    const created = vi.fn(() => 'blob:audit');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    render(`${PATH}?action=team.create`);
    await screen.findByRole('table', { name: 'Audit trail events' });
    fireEvent.click(screen.getByRole('button', { name: 'Export JSON lines' }));
    expect(await screen.findByText('Exported 2 rows to audit-trail-x.jsonl.')).toBeTruthy();
    expect(callsTo('auditExport')[0]!.url.searchParams.get('format')).toBe('jsonl');
    expect(callsTo('auditExport')[0]!.url.searchParams.get('action')).toBe('team.create');
    expect(created).toHaveBeenCalledTimes(1);
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('exports the access review for an auditor, who cannot open the team screen', async () => {
    const csv = 'Uid,Name\r\nu-1,Olga\r\n';
    const { callsTo } = stubApi(auditor, {
      auditEvents: () => page(1, 1, null),
      teamReviewExport: () => ({
        status: 200,
        body: csv,
        headers: {
          'x-export-rows': '1',
          'content-disposition': 'attachment; filename="access-review-x.csv"',
        },
      }),
    });
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:r'), revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    render();
    await screen.findByRole('table', { name: 'Audit trail events' });
    expect(screen.getByRole('heading', { name: 'Access review' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV of Access review' }));
    expect(await screen.findByText(/^Exported .* to access-review-x\.csv\.$/)).toBeTruthy();
    expect(callsTo('teamReviewExport')).toHaveLength(1);
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('says why an export was turned away', async () => {
    stubApi(auditor, {
      auditEvents: () => page(1, 1, null),
      auditExport: () => ({
        status: 429,
        body: {
          ErrorCode: 979,
          Description:
            'Two exports of the audit trail are already running. Please try again when one has finished.',
        },
      }),
    });
    render();
    await screen.findByRole('table', { name: 'Audit trail events' });
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(
      await screen.findByText(
        'Two exports of the audit trail are already running. Please try again when one has finished.',
      ),
    ).toBeTruthy();
  });
});
