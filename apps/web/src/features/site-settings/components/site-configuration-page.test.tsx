import { previewIterationsMessage } from '@sac/contract/encryption-settings';
import type { ResponseOf } from '@sac/contract/endpoints';
import type { Permission } from '@sac/contract/permissions';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Toaster } from '../../../components/toaster.tsx';
import { I18nProvider } from '../../../lib/i18n.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { type StubRoutes, stubApi as stubKit, viewer } from '../../../testing/api-stub.tsx';
import SiteConfigurationPage from './site-configuration-page.tsx';

const UID = 'ada00000-0000-4000-8000-000000001815';
const PATH = '/manage-customer/site-configuration';
const admin: Permission[] = ['site-settings.read', 'site-settings.write'];
const support: Permission[] = ['site-settings.read'];

/** A staff member holding just these permissions. */
const stubApi = (permissions: Permission[], routes: StubRoutes) =>
  stubKit(viewer('X', permissions), routes).calls;

function renderPage(section: string) {
  const router = createMemoryRouter([{ path: PATH, element: <SiteConfigurationPage /> }], {
    initialEntries: [`${PATH}?uid=${UID}&appId=1&section=${section}`],
  });
  render(
    <I18nProvider initial="en">
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
        <Toaster />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

const appSettings = {
  AppName: 'analytical-engine',
  Plan: 'Developer' as const,
  PlanStatus: 'Trial' as const,
  TrialEndsAt: '2099-12-31T00:00:00.000Z',
  Billing: 'Monthly',
  ProductionUrl: 'https://ae.example.com',
  StagingUrl: '',
};
const notFound = (code: number, text: string) => () => ({
  status: 404,
  body: { ErrorCode: code, Description: text, Message: text },
});
const object = (Id: string) => ({
  Id,
  Name: `Object ${Id}`,
  SizeMB: 5,
  Schema: '{"type":"object"}',
  CreatedDate: '2025-01-02T00:00:00.000Z',
  ModifiedDate: '2025-01-03T00:00:00.000Z',
  Version: 1,
});
const pending = {
  Domain: 'login.example.com',
  Status: 'Pending Verification' as const,
  Records: [
    { Type: 'CNAME' as const, Name: 'login.example.com', Value: 'analytical-engine.hub.example' },
    { Type: 'TXT' as const, Name: '_sac-verification.login.example.com', Value: 'sac-verify-123' },
  ],
  LastCheckedAt: '2025-01-02T03:04:05.000Z',
  LastCheckResult: 'No CNAME record for login.example.com was found.',
  VerifiedAt: null,
};
const base: StubRoutes = {
  appSettings: () => ({ body: { Data: appSettings } }),
};

describe('site configuration', () => {
  it("says a shared site is not this customer's and links to its owner, instead of the tabs", async () => {
    const OWNER = 'bab00000-0000-4000-8000-000000001791';
    stubApi(['site-settings.read', 'site-settings.write', 'sites.read'], {
      ...base,
      customerAllApps: () => ({
        body: {
          Data: [
            {
              appId: 1,
              AppName: 'difference-engine',
              ApiKey: 'k',
              uid: OWNER,
              Status: 'active',
              Plan: 'Free',
              Role: 'Developer',
              CreatedDate: '2024-01-01T00:00:00.000Z',
            },
          ],
        },
      }),
    });
    renderPage('webapps');
    const alert = await screen.findByText(
      /^difference-engine is shared with this customer, not owned by them/,
    );
    expect(alert).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open it for its owner' }).getAttribute('href')).toBe(
      `/manage-customer/site-configuration?uid=${OWNER}&appId=1`,
    );
    expect(screen.queryByRole('tablist')).toBeNull();
  });

  it('shows the plan info and switches sections with the tabs', async () => {
    stubApi(support, base);
    renderPage('plan');
    expect(await screen.findByRole('heading', { level: 1, name: 'Site Configuration' })).toBeTruthy();
    expect(await screen.findByText(/^Trial active till 12-31-2099$/)).toBeTruthy();
    expect(screen.getByText('Monthly')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Plan info' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'Web apps' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Web apps' })).toBeTruthy();
    expect((screen.getByLabelText('Production URL (Optional)') as HTMLInputElement).value).toBe(
      'https://ae.example.com',
    );
    expect(screen.getByLabelText('Staging URL (Optional)')).toBeTruthy();
    // Support reads only.
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('saves the web apps with the URL rule and toasts the answer', async () => {
    const calls = stubApi(admin, {
      ...base,
      updateAppSettings: ({ url: _u, body }) => ({
        body: { Data: { ...appSettings, ...(body as { data: object }).data }, Message: 'Settings saved.' },
      }),
    });
    renderPage('web-apps');
    const staging = await screen.findByLabelText('Staging URL (Optional)');
    fireEvent.change(staging, { target: { value: 'not a url' } });
    fireEvent.blur(staging);
    expect(await screen.findByText('Please enter a valid URL.')).toBeTruthy();
    fireEvent.change(staging, { target: { value: 'staging.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings saved.')).toBeTruthy();
    const put = calls.find((c) => c.id === 'updateAppSettings');
    expect(put?.body).toEqual({
      data: { ProductionUrl: 'https://ae.example.com', StagingUrl: 'staging.example.com' },
    });
  });

  it('saves the web apps from the version read; after another save meanwhile, keeps the typing and offers both ways', async () => {
    let stored = { body: { Data: appSettings }, headers: { ETag: '"8"' } };
    let writes = 0;
    const calls = stubApi(admin, {
      appSettings: () => stored,
      updateAppSettings: ({ body }) => {
        writes += 1;
        if (writes === 1) {
          stored = {
            body: { Data: { ...appSettings, ProductionUrl: 'https://theirs.example.com' } },
            headers: { ETag: '"9"' },
          };
          return {
            status: 412,
            body: { ErrorCode: 930, Description: 'The record was changed by someone else. Please reload.' },
          };
        }
        return {
          body: { Data: { ...appSettings, ...(body as { data: object }).data }, Message: 'Settings saved.' },
          headers: { ETag: '"10"' },
        };
      },
    });
    renderPage('web-apps');
    const staging = await screen.findByLabelText('Staging URL (Optional)');
    fireEvent.change(staging, { target: { value: 'mine.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const notice = await screen.findByText(/someone else saved this/);
    expect(notice.closest('[role="alert"]')?.textContent).toContain('https://theirs.example.com');
    expect((screen.getByLabelText('Staging URL (Optional)') as HTMLInputElement).value).toBe(
      'mine.example.com',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save mine over theirs' }));
    expect(await screen.findByText('Settings saved.')).toBeTruthy();
    expect(calls.filter((c) => c.id === 'updateAppSettings').map((c) => c.headers['If-Match'])).toEqual([
      '"8"',
      '"9"',
    ]);
  });

  it('shows the defaults when security was never saved (927) and the 981 message on save', async () => {
    stubApi(admin, {
      applicationSecurity: notFound(927, 'Not Found, Please try again with some other information!'),
      updateApplicationSecurity: () => ({
        status: 400,
        body: {
          ErrorCode: 981,
          Description:
            'Account lockout needs a lockout time: set Lockout minutes, or set Failed sign-ins to 0.',
        },
      }),
    });
    renderPage('security');
    const optional = await screen.findByRole('radio', { name: 'Optional (preferred)' });
    expect((optional as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'Required (strict)' }) as HTMLInputElement).checked).toBe(
      false,
    );
    expect((screen.getByLabelText('Password minimum length') as HTMLInputElement).value).toBe('8');
    expect((screen.getByLabelText('Failed sign-ins before lockout') as HTMLInputElement).value).toBe('5');
    expect((screen.getByLabelText('Lockout minutes') as HTMLInputElement).value).toBe('15');
    expect((screen.getByLabelText('Session timeout minutes') as HTMLInputElement).value).toBe('1440');
    expect(
      screen.getByRole('button', { name: /^Daily security report time \(Optional\) Choose a time$/ }),
    ).toBeTruthy();
    // 927 is not an error.
    expect(screen.queryByRole('alert')).toBeNull();

    fireEvent.change(screen.getByLabelText('Lockout minutes'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByText(
      'Account lockout needs a lockout time: set Lockout minutes, or set Failed sign-ins to 0.',
    );
    expect(alert.getAttribute('role')).toBe('alert');
  });

  it('saves security never saved as version 0; after a save meanwhile, lists theirs and loads them on request', async () => {
    const defaults = {
      SignInMode: 'Optional',
      MfaMode: 'Optional',
      PasswordMinLength: 8,
      MaxFailedLogins: 5,
      LockoutMinutes: 15,
      SessionTimeoutMinutes: 1440,
      SecurityReportTime: '',
    };
    let stored: { body: object; headers?: Record<string, string>; status?: number } = {
      status: 404,
      body: { ErrorCode: 927, Description: 'Not found' },
    };
    const calls = stubApi(admin, {
      applicationSecurity: () => stored,
      updateApplicationSecurity: () => {
        stored = {
          body: { Data: { ...defaults, LockoutMinutes: 45 }, ModifiedDate: '2025-01-01T00:00:00.000Z' },
          headers: { ETag: '"1"' },
        };
        return {
          status: 412,
          body: { ErrorCode: 930, Description: 'The record was changed by someone else.' },
        };
      },
    });
    renderPage('security');
    const length = await screen.findByLabelText('Password minimum length');
    fireEvent.change(length, { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const notice = (await screen.findByText(/someone else saved this/)).closest('[role="alert"]')!;
    expect(notice.textContent).toContain('Lockout minutes: 45');
    expect(notice.textContent).not.toContain('Password minimum length');
    // what was typed stays until their values are loaded
    expect((screen.getByLabelText('Password minimum length') as HTMLInputElement).value).toBe('12');
    fireEvent.click(within(notice as HTMLElement).getByRole('button', { name: 'Load their values' }));
    expect((screen.getByLabelText('Lockout minutes') as HTMLInputElement).value).toBe('45');
    expect((screen.getByLabelText('Password minimum length') as HTMLInputElement).value).toBe('8');
    expect(screen.queryByText(/someone else saved this/)).toBeNull();
    expect(
      calls.filter((c) => c.id === 'updateApplicationSecurity').map((c) => c.headers['If-Match']),
    ).toEqual(['"0"']);
  });

  it('saves the default fields from the version read and says when someone saved them meanwhile', async () => {
    let rules = '';
    const calls = stubApi(admin, {
      activeCustomFields: () => ({
        body: { Data: [field({ Rules: rules })] },
        headers: { ETag: rules ? '"4"' : '"3"' },
      }),
      saveDefaultFields: () => {
        rules = 'required';
        return {
          status: 412,
          body: { ErrorCode: 930, Description: 'The record was changed by someone else.' },
        };
      },
    });
    renderPage('fields');
    const input = await screen.findByRole('textbox', { name: 'Rules of FirstName' });
    fireEvent.change(input, { target: { value: 'max_length[20]' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save default fields' }));
    const notice = (await screen.findByText(/someone else saved this/)).closest('[role="alert"]')!;
    expect(notice.textContent).toContain('FirstName: on, required');
    expect((screen.getByRole('textbox', { name: 'Rules of FirstName' }) as HTMLInputElement).value).toBe(
      'max_length[20]',
    );
    fireEvent.click(within(notice as HTMLElement).getByRole('button', { name: 'Save mine over theirs' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.id === 'saveDefaultFields').map((c) => c.headers['If-Match'])).toEqual([
        '"3"',
        '"4"',
      ]),
    );
  });

  it('sends the report time chosen with the time picker', async () => {
    const calls = stubApi(admin, {
      applicationSecurity: notFound(927, 'Not found'),
      updateApplicationSecurity: ({ url: _u, body }) => ({
        body: {
          Data: (body as { data: object }).data,
          ModifiedDate: '2025-01-01T00:00:00.000Z',
          Message: 'Settings saved.',
        },
      }),
    });
    renderPage('security');
    fireEvent.click(await screen.findByRole('button', { name: /^Daily security report time/ }));
    const dialog = screen.getByRole('dialog', { name: 'Daily security report time' });
    fireEvent.click(within(dialog).getByRole('button', { name: "6 o'clock" }));
    fireEvent.click(within(dialog).getByRole('button', { name: '30 minutes' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings saved.')).toBeTruthy();
    const put = calls.find((c) => c.id === 'updateApplicationSecurity');
    expect((put?.body as { data: { SecurityReportTime: string } } | undefined)?.data.SecurityReportTime).toBe(
      '06:30',
    );
  });

  it('shows an empty custom object list for 999 and the form messages of the spec', async () => {
    const calls = stubApi(admin, {
      customObjectList: notFound(999, 'This site has no custom objects yet.'),
      customObjectCreate: ({ url: _u, body }) => ({
        body: { Data: { ...object('loyalty'), ...(body as object) }, Message: 'Custom object saved.' },
      }),
    });
    renderPage('custom-objects');
    expect(await screen.findByText('No data available to display.')).toBeTruthy();
    expect(screen.queryByText('This site has no custom objects yet.')).toBeNull();

    const add = screen.getByRole('button', { name: 'Add custom object' });
    fireEvent.change(screen.getByLabelText('Id'), { target: { value: 'bad id!' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Loyalty' } });
    fireEvent.change(screen.getByLabelText('Size (in MB)'), { target: { value: 'ten' } });
    fireEvent.click(add);
    expect(
      await screen.findByText('Id can only contain alphanumeric characters, underscores and dashes'),
    ).toBeTruthy();
    expect(screen.getByText('Please enter valid custom object size (in numbers).')).toBeTruthy();
    expect(screen.getByText('Custom Object Schema is empty.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Size (in MB)'), { target: { value: '500' } });
    fireEvent.change(screen.getByLabelText('Schema'), { target: { value: '{not json' } });
    expect(await screen.findByText('Please enter custom object size between 1 and 200')).toBeTruthy();
    expect(screen.getByText('Invalid JSON input.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Id'), { target: { value: 'loyalty' } });
    fireEvent.change(screen.getByLabelText('Size (in MB)'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('Schema'), { target: { value: '{"type":"object"}' } });
    fireEvent.click(add);
    expect(await screen.findByText('Custom object saved.')).toBeTruthy();
    const row = await screen.findByRole('row', { name: /loyalty/ });
    expect(within(row).getByRole('button', { name: 'Edit schema' })).toBeTruthy();
    const post = calls.find((c) => c.id === 'customObjectCreate');
    expect(post?.body).toEqual({ Id: 'loyalty', Name: 'Loyalty', SizeMB: 5, Schema: '{"type":"object"}' });
  });

  it('validates a sample against the schema and lists the errors', async () => {
    const calls = stubApi(admin, {
      customObjectList: () => ({ body: { Data: [object('a1')] } }),
      customObjectValidate: ({ url: _u, body }) =>
        (body as { Sample: string }).Sample.includes('many')
          ? { body: { Valid: false, Errors: [{ Path: '/points', Message: 'must be integer' }] } }
          : { body: { Valid: true, Errors: [] } },
    });
    renderPage('custom-objects');
    await screen.findByRole('row', { name: /a1/ });
    fireEvent.change(screen.getByLabelText('Schema'), {
      target: { value: '{"type":"object","properties":{"points":{"type":"integer"}}}' },
    });
    fireEvent.change(screen.getByLabelText('Sample (JSON)'), { target: { value: '{"points":"many"}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validate sample' }));
    const list = await screen.findByRole('list', { name: 'Validation errors' });
    expect(within(list).getByText('/points: must be integer')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Sample (JSON)'), { target: { value: '{"points":3}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validate sample' }));
    expect(await screen.findByText('The sample is valid against the schema.')).toBeTruthy();
    expect(calls.filter((c) => c.id === 'customObjectValidate')).toHaveLength(2);
  });

  it('edits a schema and removes an object after confirmation', async () => {
    stubApi(admin, {
      customObjectList: () => ({ body: { Data: [object('a1'), object('b2')] } }),
      customObjectSchema: ({ url: _u, body }) => ({
        body: {
          Data: { ...object('a1'), Schema: (body as { Schema: string }).Schema },
          Message: 'Schema set.',
        },
      }),
      customObjectDelete: () => ({ body: { IsPosted: true, Message: 'Custom object removed.' } }),
    });
    renderPage('custom-objects');
    const row = await screen.findByRole('row', { name: /a1/ });
    fireEvent.click(within(row).getByRole('button', { name: 'Edit schema' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit schema of a1' });
    fireEvent.change(within(dialog).getByLabelText('Schema'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Custom Object Schema is empty.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Schema'), {
      target: { value: '{"type":"object","required":[]}' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Schema set.')).toBeTruthy();

    fireEvent.click(within(screen.getByRole('row', { name: /b2/ })).getByRole('button', { name: 'Remove' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove custom object b2?' });
    fireEvent.change(within(confirm).getByRole('textbox', { name: 'Type b2 to confirm' }), {
      target: { value: 'b2' },
    });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Custom object removed.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('row', { name: /b2/ })).toBeNull());
  });

  it("saves a schema from the row's Version; after a save meanwhile, shows their schema and saves over it when asked", async () => {
    let listed = [object('a1')];
    const calls = stubApi(admin, {
      customObjectList: () => ({ body: { Data: listed } }),
      customObjectSchema: ({ url: _u, body, headers }) => {
        if (headers['If-Match'] === '"1"') {
          listed = [{ ...object('a1'), Schema: '{"type":"array"}', Version: 2 }];
          return {
            status: 412,
            body: { ErrorCode: 930, Description: 'The record was changed by someone else.' },
          };
        }
        return {
          body: {
            Data: { ...object('a1'), Schema: (body as { Schema: string }).Schema, Version: 3 },
            Message: 'Schema set.',
          },
        };
      },
    });
    renderPage('custom-objects');
    fireEvent.click(
      within(await screen.findByRole('row', { name: /a1/ })).getByRole('button', { name: 'Edit schema' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit schema of a1' });
    fireEvent.change(within(dialog).getByLabelText('Schema'), { target: { value: '{"type":"string"}' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const notice = await within(dialog).findByRole('alert');
    expect(notice.textContent).toContain('"array"');
    expect(screen.queryByTestId('toast-error')).toBeNull();
    fireEvent.click(within(notice).getByRole('button', { name: 'Save mine over theirs' }));
    expect(await screen.findByText('Schema set.')).toBeTruthy();
    expect(calls.filter((c) => c.id === 'customObjectSchema').map((c) => c.headers['If-Match'])).toEqual([
      '"1"',
      '"2"',
    ]);
  });

  it('shows the hub domain, the DNS records of a pending domain, and verifies it', async () => {
    const calls = stubApi(admin, {
      hubDomain: () => ({ body: { Data: { HubDomain: 'hub.example' } } }),
      customDomainList: () => ({ body: { Data: [pending] } }),
      customDomainVerify: () => ({
        body: {
          Data: {
            ...pending,
            Status: 'Verified',
            VerifiedAt: '2025-01-03T00:00:00.000Z',
            LastCheckResult: null,
          },
          Message: 'Custom domain verified.',
        },
      }),
    });
    renderPage('custom-domains');
    expect(await screen.findByText('hub.example')).toBeTruthy();
    const domains = await screen.findByRole('table', { name: 'Custom domains' });
    const row = await within(domains).findByRole('row', { name: /login\.example\.com/ });
    expect(within(row).getByText('Pending Verification')).toBeTruthy();
    const records = screen.getByRole('table', { name: 'DNS records for login.example.com' });
    expect(within(records).getByText('CNAME')).toBeTruthy();
    expect(within(records).getByText('analytical-engine.hub.example')).toBeTruthy();
    expect(within(records).getByText('_sac-verification.login.example.com')).toBeTruthy();
    expect(within(records).getByText('sac-verify-123')).toBeTruthy();
    expect(
      within(records).getByRole('button', { name: 'Copy TXT value for login.example.com' }),
    ).toBeTruthy();
    expect(screen.getByText('No CNAME record for login.example.com was found.')).toBeTruthy();
    expect(screen.getByText('01-02-2025 03:04:05 UTC')).toBeTruthy();

    fireEvent.click(within(row).getByRole('button', { name: 'Verify now' }));
    expect(await screen.findByText('Custom domain verified.')).toBeTruthy();
    await waitFor(() =>
      expect(
        within(within(domains).getByRole('row', { name: /login\.example\.com/ })).getByText('Verified'),
      ).toBeTruthy(),
    );
    expect(screen.queryByRole('table', { name: 'DNS records for login.example.com' })).toBeNull();
    expect(calls.find((c) => c.id === 'customDomainVerify')?.body).toEqual({
      domain: 'login.example.com',
    });
  });

  it('a failed check keeps the domain pending and says why; add and delete domains', async () => {
    stubApi(admin, {
      hubDomain: () => ({ body: { Data: { HubDomain: 'hub.example' } } }),
      customDomainList: () => ({ body: { Data: [] } }),
      customDomainCreate: ({ url: _u, body }) => ({
        body: {
          Data: {
            ...pending,
            Domain: (body as { domain: string }).domain,
            LastCheckedAt: null,
            LastCheckResult: null,
          },
          Message: 'Custom domain saved.',
        },
      }),
      customDomainDelete: () => ({
        body: { IsPosted: true, Message: 'Custom domain deleted.' },
      }),
    });
    renderPage('custom-domains');
    expect(await screen.findByText('No data available to display.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add custom domain' }));
    expect(await screen.findByText('Domain name is required.')).toBeTruthy();
    expect(screen.getByText('Custom Domain cannot be an empty value')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Domain name'), { target: { value: 'Shop.Example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add custom domain' }));
    expect(await screen.findByText('Custom domain saved.')).toBeTruthy();
    const domains = screen.getByRole('table', { name: 'Custom domains' });
    const row = await within(domains).findByRole('row', { name: /shop\.example\.com/ });
    expect(screen.getByRole('table', { name: 'DNS records for shop.example.com' })).toBeTruthy();
    expect(screen.getAllByText('Not checked yet').length).toBeGreaterThan(0);
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete custom domain shop.example.com?' });
    fireEvent.change(within(confirm).getByRole('textbox', { name: 'Type shop.example.com to confirm' }), {
      target: { value: 'shop.example.com' },
    });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Custom domain deleted.')).toBeTruthy();
    await waitFor(() =>
      expect(within(domains).queryByRole('row', { name: /shop\.example\.com/ })).toBeNull(),
    );
  });
});

type EncryptionSettings = ResponseOf<'passwordSettings'>['Data'];
const hashing = (over: Partial<EncryptionSettings> = {}): EncryptionSettings => ({
  EncryptionType: 'Argon2id',
  HashEncoding: 'base64',
  SaltEncoding: 'utf8',
  Salt: '',
  PerPasswordSalt: true,
  Iterations: 600000,
  SaltAttach: 'None',
  HasEncryptionKey: false,
  ModifiedDate: '2025-01-02T00:00:00.000Z',
  ...over,
});
const encryptionReads: StubRoutes = {
  passwordSettings: () => ({
    body: { Data: hashing({ EncryptionType: 'HMAC-SHA256', HasEncryptionKey: true }) },
  }),
  previousPasswordSettings: notFound(1037, 'This site has no previous-password settings.'),
  securityQuestionSettings: notFound(1090, 'This site has no security-answer settings yet.'),
};

describe('encryption and hashing settings', () => {
  it('shows the three sets, 1037 and 1090 as the defaults, and hides the writes for support', async () => {
    stubApi(support, encryptionReads);
    renderPage('encryption');
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Encryption and Hashing Settings' }),
    ).toBeTruthy();
    const password = screen.getByRole('region', { name: 'Password' });
    await within(password).findByLabelText('Encryption key');
    expect((within(password).getByLabelText('Encryption type') as HTMLSelectElement).value).toBe(
      'HMAC-SHA256',
    );
    expect(within(password).getByText('A key is stored; leave empty to keep it')).toBeTruthy();
    expect((within(password).getByLabelText('Encryption key') as HTMLInputElement).value).toBe('');
    expect(within(password).getByText(/^Weak: A single fast keyed hash/)).toBeTruthy();
    const previous = screen.getByRole('region', { name: 'Previous password' });
    expect(await within(previous).findByText('Uses the password settings')).toBeTruthy();
    expect((within(previous).getByLabelText('Encryption type') as HTMLSelectElement).value).toBe('Argon2id');
    expect(within(previous).queryByLabelText('Number of iterations')).toBeNull();
    const answer = screen.getByRole('region', { name: 'Security answer' });
    expect(await within(answer).findByLabelText('Salt attach type')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Preview' })).toHaveLength(3);
  });

  it('ignores 1091 on the security-answer set as it does 1090: the defaults show', async () => {
    stubApi(support, {
      ...encryptionReads,
      securityQuestionSettings: notFound(1091, 'This site does not use security questions.'),
    });
    renderPage('encryption');
    const answer = await screen.findByRole('region', { name: 'Security answer' });
    expect(await within(answer).findByLabelText('Salt attach type')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('previews a sample, saves a set and shows 962 under the key', async () => {
    const calls = stubApi(admin, {
      ...encryptionReads,
      encryptionPreview: () => ({
        body: { Data: { Stored: 'c2FsdA==$aGFzaA==', SaltUsed: 'c2FsdA==', Weak: null } },
      }),
      saveEncryptionSettings: ({ body: b }) => {
        if (b.data.EncryptionType.startsWith('HMAC') && !b.data.EncryptionKey)
          return {
            status: 400,
            body: {
              ErrorCode: 962,
              Description: 'This encryption type needs an encryption key.',
              Message: 'This encryption type needs an encryption key.',
            },
          };
        return { body: { Data: hashing(b.data as Partial<EncryptionSettings>), Message: 'Settings saved.' } };
      },
    });
    renderPage('encryption');
    const answer = screen.getByRole('region', { name: 'Security answer' });
    const type = await within(answer).findByLabelText('Encryption type');
    fireEvent.change(type, { target: { value: 'PBKDF2-SHA256' } });
    const iterations = within(answer).getByLabelText('Number of iterations');
    fireEvent.change(iterations, { target: { value: '1000' } });
    fireEvent.click(within(answer).getByRole('button', { name: 'Preview' }));
    expect(await within(answer).findByText('Enter a sample password.')).toBeTruthy();
    fireEvent.change(within(answer).getByLabelText('Sample password'), { target: { value: 'hunter2' } });
    // more iterations than a preview computes: said under the field, nothing sent
    fireEvent.change(iterations, { target: { value: '700000' } });
    fireEvent.click(within(answer).getByRole('button', { name: 'Preview' }));
    expect(await within(answer).findByText(previewIterationsMessage('PBKDF2-SHA256'))).toBeTruthy();
    expect(calls.some((c) => c.id === 'encryptionPreview')).toBe(false);
    fireEvent.change(iterations, { target: { value: '1000' } });
    fireEvent.click(within(answer).getByRole('button', { name: 'Preview' }));
    expect(await within(answer).findByText('c2FsdA==$aGFzaA==')).toBeTruthy();
    expect(within(answer).getByRole('button', { name: 'Copy stored form (Security answer)' })).toBeTruthy();
    expect(calls.find((c) => c.id === 'encryptionPreview')?.body).toMatchObject({
      Sample: 'hunter2',
      data: { EncryptionType: 'PBKDF2-SHA256', Iterations: 1000 },
    });
    fireEvent.click(within(answer).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings saved.')).toBeTruthy();
    expect(calls.find((c) => c.id === 'saveEncryptionSettings')?.body).toMatchObject({
      Set: 'security-answer',
      data: { EncryptionType: 'PBKDF2-SHA256', Iterations: 1000 },
    });

    const password = screen.getByRole('region', { name: 'Password' });
    fireEvent.change(await within(password).findByLabelText('Encryption type'), {
      target: { value: 'HMAC-SHA512' },
    });
    fireEvent.click(within(password).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(within(password).getAllByText('This encryption type needs an encryption key.').length).toBe(1),
    );
    const saved = calls.filter((c) => c.id === 'saveEncryptionSettings');
    expect(saved.at(-1)?.body).toMatchObject({ Set: 'password', data: { EncryptionType: 'HMAC-SHA512' } });
    expect((saved.at(-1)?.body as { data?: object } | undefined)?.data).not.toHaveProperty('EncryptionKey');
  });
});

const field = (over: object) => ({
  Name: 'FirstName',
  Display: 'First name',
  Type: 'string',
  Rules: '',
  DataSource: '',
  Custom: false,
  Enabled: true,
  ...over,
});
const countries = {
  Name: 'Country',
  ParentName: '',
  Rules: '',
  Items: [
    { Value: 'FR', Text: 'France' },
    { Value: 'GB', Text: 'United Kingdom' },
  ],
};

describe('registration fields', () => {
  it('lists the fields read-only for support', async () => {
    stubApi(support, {
      activeCustomFields: () => ({
        body: {
          Data: [field({}), field({ Name: 'Nickname', Display: 'Nickname', Custom: true, Enabled: false })],
        },
      }),
    });
    renderPage('fields');
    const table = await screen.findByRole('table', { name: 'Registration fields' });
    const row = await within(table).findByRole('row', { name: /Nickname/ });
    expect(within(row).getByText('Custom')).toBeTruthy();
    expect(within(row).getByText('Disabled')).toBeTruthy();
    expect(within(table).getByRole('row', { name: /FirstName/ })).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save default fields' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add custom field' })).toBeNull();
  });

  it('saves the default fields and adds a dropdown custom field', async () => {
    let fields = [field({}), field({ Name: 'Company', Display: 'Company', Enabled: false })];
    const calls = stubApi(admin, {
      activeCustomFields: () => ({ body: { Data: fields } }),
      customRegistrationDataList: () => ({ body: { Data: [countries] } }),
      saveDefaultFields: () => ({ body: { Data: fields, Message: 'Settings saved.' } }),
      addCustomField: ({ url: _u, body }) => {
        const b = body as { Name: string };
        if (b.Name === 'FirstName')
          return {
            status: 409,
            body: { ErrorCode: 963, Description: 'A field or data source with this name already exists.' },
          };
        fields = [...fields, field({ ...b, Custom: true })];
        return { body: { Data: fields, Message: 'Custom field saved.' } };
      },
    });
    renderPage('fields');
    const company = await screen.findByRole('checkbox', { name: 'Enabled: Company' });
    fireEvent.click(company);
    const rules = screen.getByRole('textbox', { name: 'Rules of FirstName' });
    fireEvent.change(rules, { target: { value: 'required|min_length[x]' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save default fields' }));
    expect(
      await screen.findByText('The rule min_length needs a whole number, like min_length[2].'),
    ).toBeTruthy();
    fireEvent.change(rules, { target: { value: 'required|min_length[2]' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save default fields' }));
    expect(await screen.findByText('Settings saved.')).toBeTruthy();
    expect(calls.find((c) => c.id === 'saveDefaultFields')?.body).toEqual({
      Fields: [
        { Name: 'FirstName', Enabled: true, Rules: 'required|min_length[2]' },
        { Name: 'Company', Enabled: true, Rules: '' },
      ],
    });

    fireEvent.click(screen.getByRole('button', { name: 'Add custom field' }));
    expect(await screen.findByText('Custom field name is required.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Custom field name'), { target: { value: '9lives' } });
    expect(
      await screen.findByText(
        'Custom field name is invalid: use letters, digits and underscores, starting with a letter.',
      ),
    ).toBeTruthy();
    expect(screen.getByText(/^Pipe form, for example required\|min_length\[2\]/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Custom field name'), { target: { value: 'FirstName' } });
    fireEvent.change(screen.getByLabelText('Display name'), { target: { value: 'Home country' } });
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'dropdown' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add custom field' }));
    expect(await screen.findByText('A dropdown needs a data source.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Data source'), { target: { value: 'Country' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add custom field' }));
    expect(await screen.findAllByText('A field or data source with this name already exists.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Custom field name'), { target: { value: 'HomeCountry' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add custom field' }));
    expect(await screen.findByText('Custom field saved.')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Registration fields' });
    expect(await within(table).findByRole('row', { name: /HomeCountry/ })).toBeTruthy();
    expect(calls.filter((c) => c.id === 'addCustomField').at(-1)?.body).toEqual({
      Name: 'HomeCountry',
      Display: 'Home country',
      Type: 'dropdown',
      Rules: '',
      DataSource: 'Country',
    });
  });
});

describe('data sources', () => {
  it('lists the data sources and adds one with a parent and items', async () => {
    let sources = [countries];
    const calls = stubApi(admin, {
      customRegistrationDataList: () => ({ body: { Data: sources } }),
      addDataSource: ({ url: _u, body }) => {
        sources = [...sources, body as typeof countries];
        return { body: { Data: sources, Message: 'Data source added.' } };
      },
    });
    renderPage('data-sources');
    const table = await screen.findByRole('table', { name: 'Data sources' });
    const row = await within(table).findByRole('row', { name: /Country/ });
    expect(within(row).getByText('2')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Data source name'), { target: { value: 'bad name' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add data source' }));
    expect(
      await screen.findByText(
        'Data source name is invalid: use letters, digits and underscores, starting with a letter.',
      ),
    ).toBeTruthy();
    expect(screen.getAllByText('Enter a value.').length).toBe(2);
    fireEvent.change(screen.getByLabelText('Data source name'), { target: { value: 'Region' } });
    fireEvent.change(screen.getByLabelText('Parent data source (Optional)'), {
      target: { value: 'Country' },
    });
    fireEvent.change(screen.getByLabelText('Rule (regex) (Optional)'), { target: { value: '^[A-Z-]+$' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Value of item 1' }), {
      target: { value: 'FR-IDF' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Text of item 1' }), {
      target: { value: 'Île-de-France' },
    });
    fireEvent.change(screen.getByRole('combobox', { name: 'Parent value of item 1' }), {
      target: { value: 'FR' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add item' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Value of item 2' }), { target: { value: 'X' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove item 2' }));
    expect(screen.queryByRole('textbox', { name: 'Value of item 2' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add data source' }));
    expect(await screen.findByText('Data source added.')).toBeTruthy();
    expect(await within(table).findByRole('row', { name: /Region/ })).toBeTruthy();
    expect(calls.find((c) => c.id === 'addDataSource')?.body).toEqual({
      Name: 'Region',
      ParentName: 'Country',
      Rules: '^[A-Z-]+$',
      Items: [{ Value: 'FR-IDF', Text: 'Île-de-France', Parent: 'FR' }],
    });
  });

  it('hides the form without site-settings.write', async () => {
    stubApi(support, { customRegistrationDataList: () => ({ body: { Data: [countries] } }) });
    renderPage('data-sources');
    expect(await screen.findByRole('row', { name: /Country/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add data source' })).toBeNull();
  });
});

describe('integrations', () => {
  it('lists the integrations with uId and appId', async () => {
    const calls = stubApi(support, {
      integrations: () => ({
        body: {
          Data: [
            { Key: 'ga', Name: 'Google Analytics', Category: 'Analytics', Enabled: true, State: 'Connected' },
            { Key: 'mc', Name: 'Mailchimp', Category: 'Marketing', Enabled: false, State: 'Not configured' },
          ],
        },
      }),
    });
    renderPage('integrations');
    const table = await screen.findByRole('table', { name: 'Integrations' });
    const ga = await within(table).findByRole('row', { name: /Google Analytics/ });
    expect(within(ga).getByText('Enabled')).toBeTruthy();
    expect(within(ga).getByText('Connected')).toBeTruthy();
    expect(within(within(table).getByRole('row', { name: /Mailchimp/ })).getByText('Disabled')).toBeTruthy();
    const url = calls.find((c) => c.id === 'integrations')?.url;
    expect(url?.searchParams.get('uId')).toBe(UID);
    expect(url?.searchParams.get('appId')).toBe('1');
    expect(screen.getByRole('tab', { name: 'Integrations' }).getAttribute('aria-selected')).toBe('true');
  });
});
