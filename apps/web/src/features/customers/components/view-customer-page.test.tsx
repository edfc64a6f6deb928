import { ERRORS } from '@sac/contract/errors';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubApi, type Viewer } from '../../../testing/api-stub.tsx';
import { site, support, UID } from './customers-fixtures.ts';
import ViewCustomerPage from './view-customer-page.tsx';

const PATH = '/manage-customer/view-customer';
const renderView = (uid = UID) =>
  renderScreen(`${PATH}?uid=${uid}`, [{ path: PATH, element: <ViewCustomerPage /> }]);

const profile = {
  Uid: UID,
  FirstName: 'Ada',
  LastName: 'Lovelace',
  Email: 'ada@example.com',
  Organization: 'Analytical Engines',
  PhoneNumber: '5551234567',
  AuthEmail: 'ada.auth@example.com',
  ContactEmail: 'ada.contact@example.com',
  TimeZone: 'Europe/London',
  Status: 'Active',
  Role: 'Owner',
  EmailVerified: true,
  CreatedDate: '2024-03-07T10:20:30.000Z',
  ModifiedDate: '2024-03-08T10:20:30.000Z',
};
const account = {
  Uid: UID,
  Email: 'ada@example.com',
  AuthEmail: 'ada.auth@example.com',
  Status: 'Active',
  Role: 'Owner',
  EmailVerified: false,
  TimeZone: 'Europe/London',
  CreatedDate: '2024-03-07T10:20:30.000Z',
  LastLoginDate: null,
  OwnedSites: 2,
  SharedSites: 1,
};
const logins = [
  {
    AccessType: 'Password',
    Browser: 'Firefox 128',
    ClientAddress: '203.0.113.7',
    Location: 'London, GB',
    LoginDate: '2025-01-02T03:04:05.000Z',
  },
];
const entry = (id: number) => ({
  Id: id,
  Action: `action-${id}`,
  ActorEmail: 'support@example.com',
  ClientAddress: '198.51.100.1',
  Date: '2025-01-02T03:04:05.000Z',
  Details: { field: 'value' },
});
const siteInfo = {
  ...site(11, { AppName: 'shop' }),
  PlanStatus: 'Trial' as const,
  TrialEndsAt: '2099-12-31T00:00:00.000Z',
  Billing: 'Monthly',
  DataCenter: 'eu-west',
  DataCenterName: 'EU West (Ireland)',
  GlobalServer: null,
  Database: { Name: 'shop_db', Custom: true, ConnectionString: 'postgres://****@db.example.com/shop' },
  Features: ['sso', 'mfa'],
  ProductionUrl: 'https://shop.example.com',
  StagingUrl: '',
  ModifiedDate: '2024-04-01T00:00:00.000Z',
  OwnerEmail: 'ada@example.com',
};

function stubCustomer(viewer: Viewer = support) {
  return stubApi(viewer, {
    customerProfile: () => ({ body: { Data: profile } }),
    userProfile: () => ({ body: { Data: account } }),
    loginSessions: () => ({ body: { Data: logins } }),
    customerApps: () => ({
      body: { Data: [site(11, { AppName: 'shop' }), site(12, { AppName: 'blog', Status: 'inactive' })] },
    }),
    sharedApps: () => ({
      body: { Data: [site(30, { AppName: 'partner', uid: 'owner-uid', Role: 'Editor', Plan: 'Free' })] },
    }),
    appInfoById: () => ({ body: { Data: siteInfo } }),
    activityLogs: ({ url }) =>
      url.searchParams.get('cursor') === '0'
        ? { body: { Data: [entry(40), entry(39)], NextCursor: 39 } }
        : { body: { Data: [entry(38)], NextCursor: 0 } },
  });
}

const section = (name: string) => screen.getByRole('heading', { level: 2, name }).closest('section')!;
const detail = (root: HTMLElement, term: string) =>
  within(root).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

describe('customer view', () => {
  it('shows contact info, account info and last login info', async () => {
    const { calls } = stubCustomer();
    renderView();
    expect(await screen.findByRole('heading', { level: 1, name: 'View Customer' })).toBeTruthy();
    await screen.findByText('Analytical Engines');
    const contact = section('Contact Info');
    expect(detail(contact, 'First Name')).toBe('Ada');
    expect(detail(contact, 'Last Name')).toBe('Lovelace');
    expect(detail(contact, 'Email')).toBe('ada@example.com');
    expect(detail(contact, 'Phone Number')).toBe('5551234567');
    expect(detail(contact, 'Contact Email')).toBe('ada.contact@example.com');

    await screen.findByText(UID);
    const acc = section('Account Info');
    expect(detail(acc, 'UID')).toBe(`${UID}Copy`);
    expect(within(acc).getByRole('button', { name: 'Copy the UID' })).toBeTruthy();
    expect(detail(acc, 'Authentication Email')).toBe('ada.auth@example.com');
    expect(detail(acc, 'Account Creation Date (UTC)')).toBe('03-07-2024 10:20:30');
    expect(detail(acc, 'Time Zone')).toBe('Europe/London');
    expect(detail(acc, 'Email Verified')).toBe('No');
    expect(detail(acc, 'Last Login (UTC)')).toBe('Never');
    expect(detail(acc, 'Owned Sites')).toBe('2');

    const table = await screen.findByRole('table', { name: 'Last logins' });
    await within(table).findByText('Firefox 128');
    expect(
      within(within(table).getAllByRole('row')[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Password', 'Firefox 128', 'London, GB (203.0.113.7)', '01-02-2025 03:04:05']);
    expect(
      calls.find((c) => c.url.pathname === '/admin/customerprofilebyuid')!.url.searchParams.get('uid'),
    ).toBe(UID);
  });

  it('lists owned and shared sites with the actions the viewer may use', async () => {
    stubCustomer();
    renderView();
    const owned = await screen.findByRole('table', { name: 'Owned sites' });
    await within(owned).findByText('shop');
    const shop = within(owned).getByText('shop').closest('tr')!;
    expect(within(shop).getByText('Developer')).toBeTruthy();
    expect(within(shop).getByText('Active')).toBeTruthy();
    expect(within(shop).getByRole('link', { name: 'Impersonate' }).getAttribute('href')).toBe(
      `/manage-customer/impersonate?uid=${UID}&appId=11`,
    );
    expect(within(shop).getByRole('link', { name: 'Configuration' }).getAttribute('href')).toBe(
      `/manage-customer/site-configuration?uid=${UID}&appId=11`,
    );
    // Support may not write sites: no Edit, no Add Site.
    expect(within(shop).queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add Site' })).toBeNull();
    expect(within(within(owned).getByText('blog').closest('tr')!).getByText('Inactive')).toBeTruthy();

    const shared = screen.getByRole('table', { name: 'Shared sites' });
    const partner = (await within(shared).findByText('partner')).closest('tr')!;
    expect(within(partner).getByText('Editor')).toBeTruthy();
  });

  it('offers Edit and Add Site to a viewer with sites.write', async () => {
    stubCustomer({ ...support, Permissions: [...support.Permissions, 'sites.write'] });
    renderView();
    const shared = await screen.findByRole('table', { name: 'Shared sites' });
    const partner = (await within(shared).findByText('partner')).closest('tr')!;
    await waitFor(() =>
      expect(within(partner).getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(
        '/manage-customer/edit-site?uid=owner-uid&appId=30',
      ),
    );
    expect(screen.getByRole('link', { name: 'Add Site' }).getAttribute('href')).toBe(
      `/manage-customer/add-site?uid=${UID}`,
    );
  });

  it('opens the site details with the plan text, masked connection string and features', async () => {
    const { calls } = stubCustomer();
    renderView();
    const owned = await screen.findByRole('table', { name: 'Owned sites' });
    const shop = (await within(owned).findByText('shop')).closest('tr')!;
    fireEvent.click(within(shop).getByRole('button', { name: 'Details' }));
    const dialog = screen.getByRole('dialog', { name: 'Site details: shop' });
    await within(dialog).findByText('shop_db');
    expect(detail(dialog, 'Plan Status')).toBe('Trial active till 12-31-2099');
    expect(detail(dialog, 'Connection String')).toBe('postgres://****@db.example.com/shop');
    // The data center by its name, its code on hover.
    expect(detail(dialog, 'Data Center')).toBe('EU West (Ireland)');
    expect(within(dialog).getByText('EU West (Ireland)').getAttribute('title')).toBe('Code: eu-west');
    expect(within(dialog).getByText('mfa')).toBeTruthy();
    const call = calls.find((c) => c.url.pathname === '/admin/appinfobyid')!.url;
    expect([call.searchParams.get('uId'), call.searchParams.get('appId')]).toEqual([UID, '11']);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('loads more activity with the cursor until it is 0', async () => {
    const { calls } = stubCustomer();
    renderView();
    const table = await screen.findByRole('table', { name: 'Activity logs' });
    await within(table).findByText('action-40');
    expect(within(table).getByText('action-39')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await within(table).findByText('action-38');
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.getByText('No older activity.')).toBeTruthy();
    expect(
      calls
        .filter((c) => c.url.pathname === '/admin/activitylogs')
        .map((c) => c.url)
        .map((u) => u.searchParams.get('cursor')),
    ).toEqual(['0', '39']);
  });

  it('leaves out sites and activity without sites.read and activity.read', async () => {
    const { calls } = stubCustomer({ ...support, Role: ['Reader'], Permissions: ['customers.read'] });
    renderView();
    await screen.findByText('Analytical Engines');
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Site Information' })).toBeNull());
    expect(screen.queryByRole('heading', { name: 'Activity Logs' })).toBeNull();
    expect(calls.some((c) => c.url.pathname === '/admin/activitylogs')).toBe(false);
  });

  it("shows a section's error on its own", async () => {
    stubApi(support, {
      customerProfile: () => ({
        status: 404,
        body: { ErrorCode: 927, Description: 'Not Found, Please try again with some other information!' },
      }),
      userProfile: () => ({ body: { Data: account } }),
    });
    renderView();
    const contact = await screen.findByRole('heading', { level: 2, name: 'Contact Info' });
    expect((await within(contact.closest('section')!).findByRole('alert')).textContent).toBe(
      'Not Found, Please try again with some other information!',
    );
    expect(await screen.findByText(UID)).toBeTruthy();
  });

  it("shows the server's text when the customer is outside the viewer's role scope (403)", async () => {
    const outOfScope = () => ({
      status: 403,
      body: { ErrorCode: ERRORS.outOfScope.code, Description: ERRORS.outOfScope.text },
    });
    stubApi(support, {
      customerProfile: outOfScope,
      userProfile: outOfScope,
      loginSessions: outOfScope,
      customerApps: outOfScope,
      sharedApps: outOfScope,
      activityLogs: outOfScope,
    });
    renderView();
    for (const name of ['Contact Info', 'Account Info']) {
      const heading = await screen.findByRole('heading', { level: 2, name });
      expect((await within(heading.closest('section')!).findByRole('alert')).textContent).toBe(
        ERRORS.outOfScope.text,
      );
    }
  });

  it('asks for a customer when the address names none', async () => {
    stubApi(support, {});
    renderScreen(PATH, [{ path: PATH, element: <ViewCustomerPage /> }]);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'No customer is selected. Search for a customer and choose View.',
    );
  });
});
