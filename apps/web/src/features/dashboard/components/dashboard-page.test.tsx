import type { Dashboard } from '@sac/contract/dashboard';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { announceChange } from '../../../lib/live-changes.ts';
import { errorAnswer, renderScreen, stubApi, viewer } from '../../../testing/api-stub.tsx';
import DashboardPage from './dashboard-page.tsx';

const renderPage = () => renderScreen('/dashboard', [{ path: '/dashboard', element: <DashboardPage /> }]);

const superAdmin = viewer('SuperAdmin', [
  'customers.read',
  'sites.read',
  'site-settings.read',
  'team.read',
  'impersonation.request',
  'impersonation.approve',
  'audit.read',
]);
const admin = viewer('Admin', [
  'customers.read',
  'sites.read',
  'site-settings.read',
  'impersonation.request',
]);
const support = viewer('Support', ['customers.read', 'sites.read', 'impersonation.request']);

const days = (last: number[]) =>
  Array.from({ length: 30 }, (_, i) => ({
    Day: `2026-01-${String(i + 1).padStart(2, '0')}`,
    Count: last[i - (30 - last.length)] ?? 0,
  }));
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

const platform = {
  Customers: { Total: 1_000_000, NewByDay: days([3, 0, 5]) },
  Sites: {
    Total: 1_200_000,
    NewByDay: days([4, 1, 6]),
    ByPlan: [
      { Plan: 'Free', Count: 700_000 },
      { Plan: 'Developer', Count: 400_000 },
      { Plan: 'Developer Premium', Count: 100_000 },
    ],
    ByDataCenter: [
      { Code: 'us-east', Name: 'US East (Virginia)', Count: 900_000 },
      { Code: '', Name: '', Count: 300_000 },
    ],
    TrialsEndingSoon: {
      Count: 12,
      Items: [{ AppId: 42, AppName: 'acme-shop', OwnerUid: 'c-1', TrialEndsAt: inAnHour() }],
    },
  },
  CustomDomains: { PendingVerification: 3, FailingRechecks: 1 },
  RecentCustomers: [
    { Uid: 'c-9', Name: 'Grace Hopper', Email: 'grace@customer.example', ViewedAt: new Date().toISOString() },
  ],
} satisfies Partial<Dashboard>;

const grant = (over: Partial<NonNullable<Dashboard['Impersonation']>['LiveGrants']['Items'][number]>) => ({
  Id: 9,
  AppName: 'acme-shop',
  Holder: 'support@example.com',
  Roles: ['Developer'],
  AdditionalPermissions: ['ViewData'],
  ExpiresAt: inAnHour(),
  CanRevoke: true,
  BreakGlass: false,
  ReasonCode: null,
  ReasonLabel: null,
  CaseReference: null,
  CaseUrl: null,
  ...over,
});

const superAdminAnswer: Dashboard = {
  GeneratedAt: new Date().toISOString(),
  Impersonation: {
    AwaitingMyDecision: {
      Count: 6,
      Items: [
        {
          Id: 7,
          AppName: 'beta-site',
          Priority: 'Critical',
          Initiator: 'support@example.com',
          RequestCreatedDate: new Date().toISOString(),
          Consent: false,
          AssignedToMe: true,
          ReasonCode: 'support-ticket',
          ReasonLabel: 'Support ticket',
          CaseReference: 'SUP-42',
          CaseUrl: 'https://tickets.example.com/browse/SUP-42',
        },
      ],
    },
    AwaitingCustomer: { Count: 3 },
    MineAwaitingOthers: { Count: 0 },
    LiveGrants: { Count: 1, Items: [grant({})] },
  },
  ...platform,
  StaffSignIns: { Failures: 4, PasswordFailures: 1, SecondFactorFailures: 3, Lockouts: 1 },
  StaffWithoutSecondFactor: { Count: 2 },
};

const href = (name: string | RegExp) => screen.getByRole('link', { name }).getAttribute('href');
const card = (name: string) => screen.getByRole('region', { name });

describe('the dashboard', () => {
  it('is headed Dashboard and shows a SuperAdmin every card, each linking to its list', async () => {
    stubApi(superAdmin, { dashboard: () => ({ body: superAdminAnswer }) });
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    await screen.findByRole('heading', { name: 'Awaiting my decision' });
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Awaiting my decision',
      'Live access',
      'My requests',
      'Customers',
      'Sites',
      'Staff sign-ins, last 24 hours',
      'Recently viewed customers',
    ]);
    const awaiting = card('Awaiting my decision');
    expect(within(awaiting).getByText('6')).toBeTruthy();
    // Beside it, those still waiting for the owner's consent.
    expect(within(awaiting).getByText('Awaiting the customer').textContent).toBe('Awaiting the customer 3');
    expect(within(awaiting).getByText(/assigned to you/).textContent).toContain('awaiting consent');
    expect(within(awaiting).getByText('Critical')).toBeTruthy();
    expect(href('Request 7, beta-site')).toBe('/manage-superuser/impersonation/assigned-requests?request=7');
    // what the approver decides on: the reason, and the case linked to the tracker in a new tab
    const entry = within(awaiting).getAllByRole('listitem')[0]!;
    expect(entry.textContent).toContain('Support ticket · SUP-42');
    const caseLink = within(entry).getByRole('link', {
      name: 'Open case SUP-42 (new tab)',
    }) as HTMLAnchorElement;
    expect(caseLink.href).toBe('https://tickets.example.com/browse/SUP-42');
    expect(caseLink.target).toBe('_blank');
    expect(caseLink.rel).toBe('noopener noreferrer');
    expect(href('All pending requests')).toBe(
      '/manage-superuser/impersonation/assigned-requests?status=Pending',
    );

    const live = card('Live access');
    expect(within(live).getByText(/support@example.com in acme-shop/)).toBeTruthy();
    expect(within(live).getByText(/Developer, ViewData/)).toBeTruthy();
    expect(within(live).getByText(/ends in (0:59:\d\d|1:00:00)/)).toBeTruthy();
    expect(href('Revoke request 9 (support@example.com in acme-shop)')).toBe(
      '/manage-superuser/impersonation/assigned-requests?request=9',
    );
    expect(href('All approved requests')).toBe(
      '/manage-superuser/impersonation/assigned-requests?status=Approved',
    );
    expect(within(live).queryByText('Emergency access')).toBeNull();

    // Every failed step counts; the password and the second factor apart, each its trail filter.
    const staff = card('Staff sign-ins, last 24 hours');
    expect(within(staff).getByText('Failed sign-ins').nextElementSibling!.textContent).toBe('4');
    expect(href('Wrong passwords: 1')).toBe('/manage-superuser/audit-trail?action=login.failed&range=24h');
    expect(href('Wrong second-factor codes: 3')).toBe(
      '/manage-superuser/audit-trail?action=mfa.failed&range=24h',
    );
    expect(href('Show lockouts: 1')).toBe('/manage-superuser/audit-trail?action=login.lockout&range=24h');
    expect(
      within(card('Staff sign-ins, last 24 hours')).getByText('Staff without a second factor'),
    ).toBeTruthy();
    expect(href('Open the team')).toBe('/manage-superuser/manage-superuser');

    const customers = card('Customers');
    expect(within(customers).getByText('1,000,000')).toBeTruthy();
    expect(within(customers).getByText('8')).toBeTruthy();
    expect(
      within(customers).getByRole('img', {
        name: 'New customers per day over the last 30 days: 8 in all, most on one day 5.',
      }),
    ).toBeTruthy();
    const sites = card('Sites');
    expect(within(sites).getByText('700,000')).toBeTruthy();
    expect(within(sites).getByText('US East (Virginia)')).toBeTruthy();
    expect(within(sites).getByText('Not set yet')).toBeTruthy();
    expect(within(sites).getByText('12')).toBeTruthy();
    expect(within(sites).getByText('and 11 more')).toBeTruthy();
    // the sample's heading and its "and N more" open the whole list
    expect(
      within(sites)
        .getByRole('link', { name: /^and \d+ more: show all \d+ trials ending within 7 days$/ })
        .getAttribute('href'),
    ).toBe('/manage-customer/trials-ending');
    expect(
      within(sites).getByRole('link', { name: 'Trials ending within 7 days' }).getAttribute('href'),
    ).toBe('/manage-customer/trials-ending');
    expect(within(sites).getByText('3')).toBeTruthy();
    expect(href('Show custom domains pending verification: 3')).toBe(
      '/manage-customer/custom-domains?status=pending',
    );
    expect(href('Show custom domains failing re-checks: 1')).toBe(
      '/manage-customer/custom-domains?status=failing',
    );
    expect(href('acme-shop')).toBe('/manage-customer/site-configuration?uid=c-1&appId=42');
    expect(href('Grace Hopper')).toBe('/manage-customer/view-customer?uid=c-9');
    expect(screen.getAllByRole('link', { name: 'Search customers' })[0]!.getAttribute('href')).toBe(
      '/manage-customer/search-customer',
    );
  });

  it('shows an Admin no decisions and no staff card, and no Revoke on grants they may not revoke', async () => {
    stubApi(admin, {
      dashboard: () => ({
        body: {
          GeneratedAt: new Date().toISOString(),
          Impersonation: {
            MineAwaitingOthers: { Count: 2 },
            LiveGrants: { Count: 1, Items: [grant({ Holder: 'admin@example.com', CanRevoke: false })] },
          },
          ...platform,
        },
      }),
    });
    renderPage();
    await screen.findByRole('heading', { name: 'My requests' });
    expect(screen.queryByRole('heading', { name: 'Awaiting my decision' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Staff sign-ins, last 24 hours' })).toBeNull();
    expect(screen.queryByRole('link', { name: /Revoke/ })).toBeNull();
    expect(within(card('My requests')).getByText('2 of my requests await others.')).toBeTruthy();
    expect(href('Open my pending requests')).toBe(
      '/manage-superuser/impersonation/assigned-requests?status=Pending',
    );
  });

  it('shows a SuperAdmin the access review: who is due and overdue, and whether removal is automatic', async () => {
    stubApi(superAdmin, {
      dashboard: () => ({
        body: {
          GeneratedAt: new Date().toISOString(),
          StaffWithoutSecondFactor: { Count: 0 },
          AccessReview: {
            Days: 90,
            AutoRevoke: true,
            Due: 1,
            Overdue: 1,
            Items: [
              {
                Uid: 'u-1',
                FullName: 'Olga Overdue',
                Email: 'olga@example.com',
                Roles: ['Support'],
                State: 'overdue',
                DueAt: '2026-01-10T10:00:00.000Z',
              },
              {
                Uid: 'u-2',
                FullName: 'Dan Due',
                Email: 'dan@example.com',
                Roles: ['Admin', 'Auditor'],
                State: 'due',
                DueAt: '2026-01-20T10:00:00.000Z',
              },
            ],
          },
        },
      }),
    });
    renderPage();
    const review = await screen.findByRole('region', { name: 'Access review' });
    expect(within(review).getByTestId('review-due').textContent).toBe('1');
    expect(within(review).getByTestId('review-overdue').textContent).toBe('1');
    const items = within(review)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual([
      'Olga Overdueoverdue' + 'Support · confirm by 01-10-2026',
      'Dan Duedue' + 'Admin, Auditor · confirm by 01-20-2026',
    ]);
    expect(href('Olga Overdue')).toBe('/manage-superuser/profile/u-1');
    expect(review.textContent).toContain(
      "Roles not confirmed within 90 days are removed automatically, except the last SuperAdmin's.",
    );
    expect(href('Review on the team screen')).toBe('/manage-superuser/manage-superuser');
  });

  it('shows Support their cards with empty states that say what to do next', async () => {
    stubApi(support, {
      dashboard: () => ({
        body: {
          GeneratedAt: new Date().toISOString(),
          Impersonation: { MineAwaitingOthers: { Count: 0 }, LiveGrants: { Count: 0, Items: [] } },
          Customers: { Total: 0, NewByDay: days([]) },
          Sites: { ...platform.Sites, TrialsEndingSoon: { Count: 0, Items: [] } },
          RecentCustomers: [],
        },
      }),
    });
    renderPage();
    await screen.findByRole('heading', { name: 'Live access' });
    expect(screen.getByText('No one is inside a customer’s site right now.')).toBeTruthy();
    expect(screen.getByText(/You have no pending requests/)).toBeTruthy();
    expect(screen.getByText(/No customers yet/)).toBeTruthy();
    // Support may not create customers: no such link.
    expect(screen.queryByRole('link', { name: 'Create customer' })).toBeNull();
    expect(screen.getByText('No trial ends in the next 7 days.')).toBeTruthy();
    expect(
      within(card('Recently viewed customers')).getByText(/Customers you open appear here/),
    ).toBeTruthy();
    expect(screen.queryByText('Custom domains pending verification')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Staff sign-ins, last 24 hours' })).toBeNull();
  });

  it("gives the Auditor the trail's figures, each a link into the trail with its filter", async () => {
    stubApi(viewer('Auditor', ['audit.read', 'activity.read']), {
      dashboard: () => ({
        body: {
          GeneratedAt: new Date().toISOString(),
          StaffSignIns: { Failures: 0, PasswordFailures: 0, SecondFactorFailures: 0, Lockouts: 0 },
          StaffActivity: {
            Recent: [
              { Id: '5', At: new Date().toISOString(), ActorEmail: 'ada@example.com', Action: 'team.create' },
            ],
            Refused: 2,
            Failed: [
              { Action: 'password.change.failed', Count: 1 },
              { Action: 'password.reset.failed', Count: 0 },
            ],
            Exports: [
              { Action: 'audit.export', Count: 4 },
              { Action: 'customers.export', Count: 0 },
              { Action: 'impersonation-requests.export', Count: 0 },
              { Action: 'impersonation-logs.export', Count: 0 },
            ],
          },
        },
      }),
    });
    renderPage();
    await screen.findByRole('heading', { name: 'Staff activity' });
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Staff sign-ins, last 24 hours',
      'Staff activity',
    ]);
    const activity = card('Staff activity');
    // the action in words, its code in the tooltip
    expect(within(activity).getByText('Added a staff member').getAttribute('title')).toContain('team.create');
    expect(within(activity).getByText(/ada@example.com/)).toBeTruthy();
    expect(href('Show refused actions: 2')).toBe('/manage-superuser/audit-trail?result=refused&range=24h');
    expect(href('Failed password changes 1')).toBe(
      '/manage-superuser/audit-trail?action=password.change.failed&range=24h',
    );
    expect(href('Audit trail exports 4')).toBe('/manage-superuser/audit-trail?action=audit.export&range=7d');
    expect(href('Open the audit trail (last 24 hours)')).toBe('/manage-superuser/audit-trail?range=24h');
  });

  it('tells those who read the trail how far the SIEM stream has got, sink by sink', async () => {
    stubApi(viewer('Auditor', ['audit.read', 'activity.read']), {
      dashboard: () => ({
        body: {
          GeneratedAt: new Date().toISOString(),
          StaffActivity: { Recent: [], Refused: 0, Failed: [], Exports: [] },
        },
      }),
      auditStream: () => ({
        body: {
          Sinks: [
            {
              Sink: 'syslog',
              Target: 'tls://siem.example:6514',
              SentRows: 9,
              LastSentAt: null,
              PendingRows: 0,
              PendingCapped: false,
              LagSeconds: 0,
              LastError: null,
              LastErrorAt: null,
            },
            {
              Sink: 'http',
              Target: 'https://hec.example/services/collector',
              SentRows: 9,
              LastSentAt: null,
              PendingRows: 40,
              PendingCapped: false,
              LagSeconds: 75,
              LastError: 'the collector answered 503',
              LastErrorAt: null,
            },
          ],
        },
      }),
    });
    renderPage();
    const activity = await screen.findByRole('heading', { name: 'Sent to the SIEM' });
    const lines = within(activity.parentElement!)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(lines).toEqual([
      'syslog (tls://siem.example:6514): up to date',
      'http (https://hec.example/services/collector): not sending (the collector answered 503), 40 rows waiting',
    ]);
  });

  it('reads again, without a reload, when the notification stream says requests changed', async () => {
    let count = 6;
    const { callsTo } = stubApi(superAdmin, {
      dashboard: () => ({
        body: {
          ...superAdminAnswer,
          Impersonation: {
            ...superAdminAnswer.Impersonation!,
            AwaitingMyDecision: { ...superAdminAnswer.Impersonation!.AwaitingMyDecision!, Count: count },
          },
        },
      }),
    });
    renderPage();
    const awaiting = await screen.findByRole('region', { name: 'Awaiting my decision' });
    expect(within(awaiting).getByText('6')).toBeTruthy();
    count = 7;
    act(() => announceChange('impersonation'));
    await waitFor(() => expect(within(awaiting).getByText('7')).toBeTruthy());
    expect(callsTo('dashboard')).toHaveLength(2);
  });

  it('shows placeholders while loading and the error when the call fails', async () => {
    stubApi(support, {
      dashboard: () => errorAnswer(403, 947, 'You do not have the permission for this call.'),
    });
    renderPage();
    expect(screen.getByRole('status').textContent).toBe('Loading the dashboard…');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You do not have the permission for this call.',
    );
  });
});

describe('a break-glass grant on the Live access card', () => {
  it('is marked Emergency access, with its reason and case', async () => {
    const bg = grant({
      Id: 12,
      BreakGlass: true,
      ReasonCode: 'production-incident',
      ReasonLabel: 'Production incident',
      CaseReference: 'INC-7',
      CaseUrl: 'https://tickets.example.com/browse/INC-7',
    });
    stubApi(superAdmin, {
      dashboard: () => ({
        body: {
          ...superAdminAnswer,
          Impersonation: {
            ...superAdminAnswer.Impersonation!,
            LiveGrants: { Count: 2, Items: [grant({}), bg] },
          },
        },
      }),
    });
    renderPage();
    await screen.findByRole('heading', { name: 'Live access' });
    const items = within(card('Live access')).getAllByRole('listitem');
    expect(items[0]!.textContent).not.toContain('Emergency access');
    expect(within(items[1]!).getByText('Emergency access')).toBeTruthy();
    expect(items[1]!.textContent).toContain('break-glass, without consent: Production incident · INC-7');
    expect(
      within(items[1]!).getByRole('link', { name: 'Open case INC-7 (new tab)' }).getAttribute('href'),
    ).toBe('https://tickets.example.com/browse/INC-7');
  });
});
