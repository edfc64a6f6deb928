import { ERRORS } from '@sac/contract/errors';
import { IMPERSONATION_MESSAGES } from '@sac/contract/impersonation-api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen, stubApi } from '../../../testing/api-stub.tsx';
import { request } from './impersonation-fixtures.ts';
import SiteAccessPage from './site-access-page.tsx';

const PATH = '/impersonation/site-access';
const CALL = 'siteAccess';
const renderPage = (search: string) =>
  renderScreen(`${PATH}${search}`, [{ path: PATH, element: <SiteAccessPage /> }]);

const approved = request(12, {
  Action: {
    Status: 'Approved',
    ActionTakenBy: 'superadmin@example.com',
    ActionTakenAt: '2025-01-02T04:00:00.000Z',
    ExpiresAt: '2025-01-02T05:30:00.000Z',
    ApprovedProxyRoles: ['Analyst'],
    ApprovedAdditionalPermissions: [],
  },
});
const customerAsked = {
  ...request(13, {
    Initiator: 'cora@client.example',
    Request: {
      Description: 'Our export fails.',
      ReasonCode: 'customer-request',
      ReasonLabel: 'Customer asked for help',
      CaseReference: null,
      CaseUrl: null,
    },
  }),
  IsCustomerRequest: true,
};
const step = (
  RequestId: number,
  Event: string,
  Actor: string | null,
  at: string,
  ClientAddress: string | null,
  older = false,
) => ({
  RequestId,
  Event,
  Actor,
  Date: at,
  ClientAddress,
  // the request's reason and case; none on a step of a request made before reasons had codes
  ReasonCode: older ? null : 'support-ticket',
  ReasonLabel: older ? null : 'Support ticket',
  CaseReference: older ? null : 'SUP-42',
  CaseUrl: older ? null : 'https://tickets.example.com/browse/SUP-42',
});
const answer = {
  Data: {
    AppName: 'analytical-engine',
    Requests: [customerAsked, approved],
    Log: [
      step(12, 'call-refused', 'admin@example.com', '2025-01-02T04:20:00.000Z', '203.0.113.7'),
      step(12, 'call', 'admin@example.com', '2025-01-02T04:15:00.000Z', '203.0.113.7'),
      step(12, 'session-start', 'admin@example.com', '2025-01-02T04:10:00.000Z', '203.0.113.7'),
      step(12, 'approve', 'superadmin@example.com', '2025-01-02T04:00:00.000Z', '198.51.100.2'),
      step(12, 'consent-granted', null, '2025-01-02T03:30:00.000Z', '192.0.2.9'),
      step(12, 'request', 'admin@example.com', '2025-01-02T03:04:05.000Z', null),
      step(12, 'something-new', 'system', '2025-01-02T03:00:00.000Z', null, true),
    ],
  },
};

const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('site access page', () => {
  it('lists every request and every step of the site, in plain words', async () => {
    const { calls } = stubApi(undefined, { [CALL]: () => ({ body: answer }) });
    renderPage('?token=abc%2B1');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Access to analytical-engine' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(calls[0]!.url.searchParams.get('token')).toBe('abc+1');
    expect(document.body.textContent).toContain('every time our support staff asked to access your site');

    expect(screen.getByRole('heading', { level: 2, name: 'Access requests' })).toBeTruthy();
    const requests = screen.getByRole('table', { name: 'Access requests' });
    const [head, ...rows] = within(requests).getAllByRole('row');
    expect(
      within(head!)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Request', 'Requested by', 'Why', 'Roles', 'Status', 'Approved until']);
    expect(rows).toHaveLength(2);
    expect(cells(rows[0]!)).toEqual([
      '13',
      'cora@client.exampleAsked by your team',
      'Our export fails.Customer asked for help',
      'AdministratorAnalystAlso: ManageSite',
      'Pending',
      '—',
    ]);
    expect(cells(rows[1]!)).toEqual([
      '12',
      'admin@example.com',
      'Customer cannot save settings.Support ticket · SUP-42',
      'Analyst',
      'Approved',
      '01-02-2025 05:30 UTC',
    ]);

    expect(screen.getByRole('heading', { level: 2, name: 'Every step' })).toBeTruthy();
    const steps = screen.getByRole('table', { name: 'Every step' });
    const [stepHead, ...stepRows] = within(steps).getAllByRole('row');
    expect(
      within(stepHead!)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Date (UTC)', 'Request', 'Step', 'By', 'From (IP)']);
    const sup = '12Support ticket · SUP-42';
    expect(stepRows.map(cells)).toEqual([
      [
        '01-02-2025 04:20',
        sup,
        'A call outside the allowed access was refused',
        'admin@example.com',
        '203.0.113.7',
      ],
      ['01-02-2025 04:15', sup, 'Support viewed or changed the site', 'admin@example.com', '203.0.113.7'],
      ['01-02-2025 04:10', sup, 'Support opened a session', 'admin@example.com', '203.0.113.7'],
      ['01-02-2025 04:00', sup, 'Approved', 'superadmin@example.com', '198.51.100.2'],
      ['01-02-2025 03:30', sup, 'You allowed it', '—', '192.0.2.9'],
      ['01-02-2025 03:04', sup, 'Requested', 'admin@example.com', '—'],
      ['01-02-2025 03:00', '12', 'something-new', 'system', '—'],
    ]);
    // the case links to the tracker, in a new tab that is not given this page
    const link = within(requests).getByRole('link', {
      name: 'Open case SUP-42 (new tab)',
    }) as HTMLAnchorElement;
    expect(link.href).toBe('https://tickets.example.com/browse/SUP-42');
    expect(link.rel).toBe('noopener noreferrer');
  });

  it('shows a break-glass access marked, with its reason and case, and its steps in plain words', async () => {
    const glass = {
      ...request(14, {
        Request: {
          Description: 'Checkout is down',
          ReasonCode: 'production-incident',
          ReasonLabel: 'Production incident',
          CaseReference: 'INC-2041',
          // the owner's page never links into the provider's tracker (the server answers null)
          CaseUrl: null,
        },
        Action: {
          Status: 'Approved',
          ActionTakenBy: 'superadmin@example.com',
          ActionTakenAt: '2025-01-02T04:00:00.000Z',
          ExpiresAt: '2025-01-02T04:45:00.000Z',
          ApprovedProxyRoles: ['Developer'],
          ApprovedAdditionalPermissions: [],
        },
      }),
      BreakGlass: true,
    };
    const glassStep = (Event: string, Actor: string | null, at: string) => ({
      ...step(14, Event, Actor, at, null),
      ReasonCode: 'production-incident',
      ReasonLabel: 'Production incident',
      CaseReference: 'INC-2041',
      CaseUrl: null,
    });
    stubApi(undefined, {
      [CALL]: () => ({
        body: {
          Data: {
            AppName: 'analytical-engine',
            Requests: [glass],
            Log: [
              glassStep('break-glass-review', 'oncall@example.com', '2025-01-02T06:00:00.000Z'),
              glassStep('break-glass-told', 'superadmin@example.com', '2025-01-02T04:00:00.000Z'),
              glassStep('break-glass', 'superadmin@example.com', '2025-01-02T04:00:00.000Z'),
            ],
          },
        },
      }),
    });
    renderPage('?token=abc');
    const requests = await screen.findByRole('table', { name: 'Access requests' });
    const [, row] = within(requests).getAllByRole('row');
    const why = within(row!).getAllByRole('cell')[2]!;
    expect(within(why).getByText('Emergency access').className).toContain('status-rejected');
    expect(why.textContent).toContain('Production incident · INC-2041');
    expect(why.textContent).toContain('Opened without asking you first (break-glass)');
    expect(within(why).queryByRole('link')).toBeNull();
    const steps = screen.getByRole('table', { name: 'Every step' });
    expect(
      within(steps)
        .getAllByRole('row')
        .slice(1)
        .map((r) => cells(r)[2]),
    ).toEqual([
      'Another administrator reviewed the emergency access',
      'You and our administrators were told',
      'Emergency access opened without asking you (break-glass)',
    ]);
  });

  it.each([
    ['customer-request', 'Requested'],
    ['consent-denied', 'You denied it'],
    ['reject', 'Rejected'],
    ['revoke', 'Revoked'],
    ['edit', 'Changed'],
    ['delete', 'Withdrawn'],
  ])('names the %s step %s', async (event, label) => {
    stubApi(undefined, {
      [CALL]: () => ({
        body: {
          Data: { ...answer.Data, Log: [step(12, event, 'x@example.com', '2025-01-02T03:00:00.000Z', null)] },
        },
      }),
    });
    renderPage('?token=t');
    const steps = await screen.findByRole('table', { name: 'Every step' });
    expect(cells(within(steps).getAllByRole('row')[1]!)[2]).toBe(label);
  });

  it('offers the owner every step as CSV and JSON, and the feed address to copy, behind the same link', async () => {
    stubApi(undefined, { [CALL]: () => ({ body: answer }) });
    renderPage('?token=abc%2B1');
    await screen.findByRole('heading', { level: 2, name: 'Keep your own record' });
    // the API's own address (the stub's), not the page's: the console may be served elsewhere
    const origin = 'http://api.test';
    const href = (name: string) => screen.getByRole('link', { name }).getAttribute('href');
    expect(href('Download CSV')).toBe(
      `${origin}/admin/impersonation/site-access/export?token=abc%2B1&format=csv`,
    );
    expect(href('Download JSON')).toBe(
      `${origin}/admin/impersonation/site-access/export?token=abc%2B1&format=json`,
    );
    const feed = screen.getByRole('textbox', { name: 'Feed address (Atom)' }) as HTMLInputElement;
    expect(feed.value).toBe(`${origin}/admin/impersonation/site-access/feed?token=abc%2B1`);
    expect(screen.getByRole('button', { name: 'Copy the feed address' })).toBeTruthy();
  });

  it('shows the approved-until time of an expired access, not of a revoked one', async () => {
    const expiry = { ExpiresAt: '2025-01-03T00:00:00.000Z', ApprovedProxyRoles: ['Analyst'] };
    stubApi(undefined, {
      [CALL]: () => ({
        body: {
          Data: {
            ...answer.Data,
            Requests: [
              request(20, { Action: { Status: 'Expired', ...expiry } }),
              request(21, { Action: { Status: 'Revoked', ...expiry } }),
            ],
          },
        },
      }),
    });
    renderPage('?token=t');
    const table = await screen.findByRole('table', { name: 'Access requests' });
    const [, expired, revoked] = within(table).getAllByRole('row');
    expect(cells(expired!).slice(4)).toEqual(['Expired', '01-03-2025 00:00 UTC']);
    expect(cells(revoked!).slice(4)).toEqual(['Revoked', '—']);
  });

  it("says so when there is nothing yet, with the spec's empty text", async () => {
    stubApi(undefined, {
      [CALL]: () => ({ body: { Data: { AppName: 'quiet-site', Requests: [], Log: [] } } }),
    });
    renderPage('?token=t');
    expect(await screen.findByRole('heading', { level: 1, name: 'Access to quiet-site' })).toBeTruthy();
    for (const name of ['Access requests', 'Every step']) {
      expect(
        within(screen.getByRole('table', { name })).getByText('No data available to display.'),
      ).toBeTruthy();
    }
  });

  it('pages long lists', async () => {
    const many = Array.from({ length: 12 }, (_, i) =>
      step(12, 'call', 'admin@example.com', `2025-01-02T04:${String(59 - i).padStart(2, '0')}:00.000Z`, null),
    );
    stubApi(undefined, { [CALL]: () => ({ body: { Data: { ...answer.Data, Log: many } } }) });
    renderPage('?token=t');
    const steps = await screen.findByRole('table', { name: 'Every step' });
    expect(within(steps).getAllByRole('row')).toHaveLength(11);
    const pagers = screen.getAllByRole('button', { name: /next/i });
    fireEvent.click(pagers[pagers.length - 1]!);
    await waitFor(() => expect(within(steps).getAllByRole('row')).toHaveLength(3));
  });

  it('shows a loading state until the answer comes', async () => {
    let release: (v: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((r) => (release = r))),
    );
    renderPage('?token=t');
    expect(await screen.findByRole('heading', { level: 1, name: 'Access to your site' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading the record of access to your site…');
    release(Response.json(answer));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Access to analytical-engine' }),
    ).toBeTruthy();
  });

  it("shows the server's error for an invalid or expired link", async () => {
    stubApi(undefined, {
      [CALL]: () => ({
        status: 400,
        body: {
          ErrorCode: ERRORS.siteAccessLinkInvalid.code,
          Description: IMPERSONATION_MESSAGES.siteAccessLinkInvalid,
        },
      }),
    });
    renderPage('?token=old');
    expect((await screen.findByRole('alert')).textContent).toBe('This link is invalid or has expired.');
    expect(screen.getByRole('heading', { level: 1, name: 'This link does not work' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says so when the link has no token, without calling the server', async () => {
    const { calls } = stubApi(undefined, {});
    renderPage('');
    expect((await screen.findByRole('alert')).textContent).toBe('The link is not complete.');
    expect(calls).toHaveLength(0);
  });
});
