import { APP_NAME_MESSAGE } from '@sac/contract/customer-writes';
import { MESSAGES } from '@sac/contract/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubApi, type Viewer } from '../../../testing/api-stub.tsx';
import { site, UID } from './customers-fixtures.ts';
import SiteWizardPage from './site-wizard-page.tsx';

const admin: Viewer = {
  Uid: 'u-admin',
  Email: 'admin@example.com',
  Role: ['Admin'],
  Permissions: ['customers.read', 'customers.write', 'sites.read', 'sites.write'],
};

const CREATE = '/manage-customer/create-customer';
const EDIT = '/manage-customer/edit-site';
const VIEW = '/manage-customer/view-customer';
const routes = [
  { path: CREATE, element: <SiteWizardPage mode="create" /> },
  { path: EDIT, element: <SiteWizardPage mode="edit" /> },
  { path: VIEW, element: <p>customer view</p> },
];

const catalogue = {
  Data: {
    Features: [
      { Key: 'sso', Name: 'Single Sign-On', Description: '' },
      { Key: 'mfa', Name: 'Multi-Factor Authentication', Description: '' },
    ],
    FeatureSets: [
      { Name: 'Free', Features: ['sso'] },
      { Name: 'Developer', Features: ['sso', 'mfa'] },
    ],
  },
};
const basicSettings = (extra = {}) => ({
  Data: {
    appId: 11,
    AppName: 'shop',
    ProductionUrl: 'https://shop.example.com',
    StagingUrl: '',
    Plan: 'Developer' as const,
    PlanStatus: 'Subscribed' as const,
    TrialEndsAt: null,
    Billing: 'Monthly',
    Status: 'active' as const,
    ...extra,
  },
});
const dataCenters = {
  Data: {
    DataCenters: [{ Code: 'eu-west', Name: 'EU West (Ireland)', Region: 'Europe' }],
    GlobalServers: [{ Code: 'euw-shared-1', Name: 'EU West shared cluster 1', DataCenter: 'eu-west' }],
    Current: { DataCenter: 'eu-west', GlobalServer: 'euw-shared-1', DbName: 'shop_db', CustomDb: false },
  },
};
const siteReads = {
  features: () => ({ body: catalogue }),
  siteBasicSettings: () => ({ body: basicSettings() }),
  siteFeature: () => ({ body: { Data: { appId: 11, Features: ['sso', 'mfa'] } } }),
  siteDataCenter: () => ({ body: dataCenters }),
  customerApps: () => ({
    body: { Data: [site(11, { AppName: 'shop' }), site(12, { AppName: 'blog' })] },
  }),
  customerProfile: () => ({
    body: { Data: { Uid: UID, FirstName: 'Ada', LastName: 'L' } },
  }),
};

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const blur = (label: string) => fireEvent.blur(screen.getByLabelText(label));
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const toastTexts = async (kind: 'success' | 'error') =>
  (await screen.findAllByTestId(`toast-${kind}`)).map((t) => t.querySelector('p')?.textContent);

function fillCustomer() {
  type('First name', 'Grace');
  type('Last name', 'Hopper');
  type('Email', 'grace@example.com');
  type('Site name', 'cobol-shop');
}

describe('site form: create customer', () => {
  it('names the four steps and shows step 1 validation messages; Next waits for a valid form', async () => {
    stubApi(admin, siteReads);
    renderScreen(CREATE, routes);
    const steps = await screen.findByRole('navigation', { name: 'Steps' });
    expect(
      within(steps)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.stepper-label')?.textContent),
    ).toEqual(['Basic Info', 'Additional Site Information', 'Set Features', 'Set Data Center & DB']);
    expect(screen.getByRole('heading', { level: 2, name: 'Basic Info' })).toBeTruthy();
    expect(screen.getByLabelText('Organization (Optional)')).toBeTruthy();
    expect(screen.getByLabelText('Time zone').tagName).toBe('SELECT');
    expect(button('Next').disabled).toBe(true);

    blur('First name');
    expect(screen.getByText('First name is required.')).toBeTruthy();
    blur('Email');
    expect(screen.getByText(MESSAGES.emailRequired)).toBeTruthy();
    type('Email', 'grace@');
    expect(screen.getByText(MESSAGES.emailInvalid)).toBeTruthy();
    type('Phone Number (Optional)', '12ab');
    expect(screen.getByText(MESSAGES.phoneNotNumber)).toBeTruthy();
    type('Phone Number (Optional)', '123');
    expect(screen.getByText(MESSAGES.phoneLength)).toBeTruthy();
    type('Site name', 'A_b');
    expect(screen.getAllByText(APP_NAME_MESSAGE).some((el) => el.id.endsWith('-error'))).toBe(true);

    fillCustomer();
    type('Phone Number (Optional)', '5551234567');
    expect(button('Next').disabled).toBe(false);
  });

  it("says 'User already exists, Use search function to handle site creation' on 940, keeping the values", async () => {
    stubApi(admin, {
      ...siteReads,
      createCustomer: () => ({
        status: 409,
        body: { ErrorCode: 940, Description: MESSAGES.customerExists, Message: '', RequestId: 'r' },
      }),
    });
    renderScreen(CREATE, routes);
    await screen.findByRole('heading', { level: 2, name: 'Basic Info' });
    fillCustomer();
    fireEvent.click(button('Next'));
    expect(await toastTexts('error')).toEqual([MESSAGES.customerExists]);
    const alert = screen.getAllByRole('alert').find((a) => a.classList.contains('form-alert'))!;
    expect(alert.textContent).toContain(`Basic Info failed: ${MESSAGES.customerExists}`);
    expect(screen.getByRole('link', { name: 'Go to Search Customer' }).getAttribute('href')).toBe(
      '/manage-customer/search-customer',
    );
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Grace');
    expect((screen.getByLabelText('Site name') as HTMLInputElement).value).toBe('cobol-shop');
  });

  it('shows the API secret once after creation, then walks steps 2 to 4 to the customer view', async () => {
    const { fetchMock } = stubApi(admin, {
      ...siteReads,
      siteBasicSettings: () => ({
        body: basicSettings({ ProductionUrl: '', Plan: 'Free', AppName: 'cobol-shop' }),
      }),
      siteFeature: () => ({ body: { Data: { appId: 11, Features: [] } } }),
      customerApps: () => ({ body: { Data: [site(11, { AppName: 'cobol-shop' })] } }),
      createCustomer: () => ({
        body: {
          Data: {
            Customer: { Uid: UID, FirstName: 'Grace', LastName: 'Hopper', Email: 'grace@example.com' },
            Site: site(11, { AppName: 'cobol-shop' }),
            ApiSecret: 'the-secret-value',
          },
        },
      }),
      updateSiteBasicSettings: () => ({ body: basicSettings({ PlanStatus: 'Trial' }) }),
      updateSiteFeatures: () => ({ body: { Data: { appId: 11, Features: ['sso'] } } }),
      updateSiteDataCenter: () => ({ body: dataCenters }),
    });
    renderScreen(CREATE, routes);
    await screen.findByRole('heading', { level: 2, name: 'Basic Info' });
    fillCustomer();
    fireEvent.click(button('Next'));

    const secretBox = (await screen.findByRole('heading', { name: 'API secret of cobol-shop' })).closest(
      'section',
    )!;
    expect(within(secretBox).getByText('Copy it now; it will not be shown again.')).toBeTruthy();
    expect((within(secretBox).getByLabelText('API Secret') as HTMLInputElement).value).toBe(
      'the-secret-value',
    );
    expect(within(secretBox).getByRole('button', { name: 'Copy' })).toBeTruthy();

    // Step 2
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    type('Production URL (Optional)', 'not a url');
    expect(screen.getByText('Please enter a valid URL.')).toBeTruthy();
    expect(button('Next').disabled).toBe(true);
    type('Production URL (Optional)', 'https://cobol.example.com');
    fireEvent.change(screen.getByLabelText('Plan'), { target: { value: 'Developer' } });
    type('Trial days', '14');
    fireEvent.click(button('Next'));

    // Step 3
    await screen.findByRole('heading', { level: 2, name: 'Set Features' });
    expect(
      (screen.getByRole('radio', { name: 'Use the features of an existing site' }) as HTMLInputElement)
        .disabled,
    ).toBe(true);
    expect(button('Next').disabled).toBe(true);
    fireEvent.click(await screen.findByRole('radio', { name: 'Free' }));
    fireEvent.click(button('Next'));

    // Step 4
    await screen.findByRole('heading', { level: 2, name: 'Set Data Center & DB' });
    fireEvent.click(screen.getByRole('radio', { name: 'Use a custom database' }));
    type('Database name', '');
    blur('Database name');
    expect(screen.getByText(MESSAGES.databaseNameRequired)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Data center'), { target: { value: 'eu-west' } });
    type('Database name', 'cobol_db');
    blur('Connection string');
    expect(screen.getByText(MESSAGES.connectionStringRequired)).toBeTruthy();
    expect(button('Finish').disabled).toBe(true);
    expect((screen.getByLabelText('Connection string') as HTMLInputElement).type).toBe('password');
    type('Connection string', 'postgres://u:p@db/cobol');
    fireEvent.click(button('Finish'));

    expect(await screen.findByText('customer view')).toBeTruthy();
    expect(await toastTexts('success')).toContain('Data center updated.');
    const bodies = fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'PUT')
      .map(([input, init]) => [new URL(input, 'http://api.test').pathname, JSON.parse(String(init!.body))]);
    expect(bodies).toEqual([
      [
        '/admin/site/basicsettings',
        {
          // a new site's plan is chosen at once; the staging address was left as it is
          data: { ProductionUrl: 'https://cobol.example.com', Plan: 'Developer', TrialDays: 14 },
        },
      ],
      ['/admin/site/feature', { FeatureSet: 'Free' }],
      [
        '/admin/site/datacenter',
        {
          Source: 'custom-database',
          DataCenter: 'eu-west',
          DbName: 'cobol_db',
          ConnectionString: 'postgres://u:p@db/cobol',
        },
      ],
    ]);
  });
});

describe('site form: focus for keyboard and screen-reader users', () => {
  it('moves focus to the secret box when it appears, then to the next step when it goes', async () => {
    stubApi(admin, {
      ...siteReads,
      createCustomer: () => ({
        body: {
          Data: {
            Customer: { Uid: UID, FirstName: 'Grace', LastName: 'Hopper', Email: 'grace@example.com' },
            Site: site(11, { AppName: 'cobol-shop' }),
            ApiSecret: 'the-secret-value',
          },
        },
      }),
    });
    renderScreen(CREATE, routes);
    const first = await screen.findByRole('heading', { level: 2, name: 'Basic Info' });
    expect(document.activeElement).not.toBe(first); // not on the screen's first render
    fillCustomer();
    fireEvent.click(button('Next'));
    const secret = await screen.findByRole('heading', { name: 'API secret of cobol-shop' });
    await waitFor(() => expect(document.activeElement).toBe(secret));
    fireEvent.click(button('I have copied the secret'));
    const step2 = screen.getByRole('heading', { level: 2, name: 'Additional Site Information' });
    expect(document.activeElement).toBe(step2);
  });

  it('moves focus to the heading of the step opened from the stepper', async () => {
    stubApi(admin, siteReads);
    renderScreen(`${EDIT}?uid=${UID}&appId=11`, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    fireEvent.click(button('Set Features'));
    const step3 = await screen.findByRole('heading', { level: 2, name: 'Set Features' });
    expect(document.activeElement).toBe(step3);
  });
});

describe('site form: edit site', () => {
  const editPath = `${EDIT}?uid=${UID}&appId=11`;

  it("says the site is not this customer's instead of an editable form", async () => {
    stubApi(admin, { ...siteReads, customerAllApps: () => ({ body: { Data: [site(12)] } }) });
    renderScreen(editPath, routes);
    expect(await screen.findByText('This customer has no site with this id.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the customer' })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 2, name: 'Additional Site Information' })).toBeNull();
  });

  it("starts at step 2 with the site's values; the steps can be opened in any order", async () => {
    stubApi(admin, siteReads);
    renderScreen(editPath, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    expect((screen.getByLabelText('Production URL (Optional)') as HTMLInputElement).value).toBe(
      'https://shop.example.com',
    );
    // the plan as stored, unchanged unless asked
    expect(screen.getByText('Now: Developer, Subscribed.')).toBeTruthy();
    expect((screen.getByLabelText('Change the plan') as HTMLInputElement).checked).toBe(false);
    expect(screen.queryByLabelText('Trial days')).toBeNull();

    fireEvent.click(button('Set Data Center & DB'));
    await screen.findByRole('heading', { level: 2, name: 'Set Data Center & DB' });
    await waitFor(() =>
      expect((screen.getByLabelText('Database name') as HTMLInputElement).value).toBe('shop_db'),
    );
    expect((screen.getByLabelText('Global server') as HTMLSelectElement).value).toBe('euw-shared-1');

    fireEvent.click(button('Set Features'));
    await screen.findByRole('heading', { level: 2, name: 'Set Features' });
    await waitFor(() =>
      expect((screen.getByRole('radio', { name: 'Developer' }) as HTMLInputElement).checked).toBe(true),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Use the features of an existing site' }));
    fireEvent.change(screen.getByLabelText('Existing site'), { target: { value: '12' } });
    expect(button('Next').disabled).toBe(false);
  });

  it("shows 'Unable to set trial app.' when the trial is not taken, and stays on the step", async () => {
    stubApi(admin, {
      ...siteReads,
      updateSiteBasicSettings: () => ({ body: basicSettings() }),
    });
    renderScreen(editPath, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    fireEvent.click(await screen.findByLabelText('Change the plan'));
    expect((screen.getByLabelText('Plan') as HTMLSelectElement).value).toBe('Developer');
    type('Trial days', '30');
    fireEvent.click(button('Next'));
    expect(await toastTexts('error')).toEqual([MESSAGES.trialAppFailed]);
    expect(screen.getByRole('heading', { level: 2, name: 'Additional Site Information' })).toBeTruthy();
    expect((screen.getByLabelText('Trial days') as HTMLInputElement).value).toBe('30');
  });

  it("shows 'Unable to add basic settings.' when the save fails without a server text", async () => {
    stubApi(admin, {
      ...siteReads,
      updateSiteBasicSettings: () => ({ status: 500, body: {} }),
    });
    renderScreen(editPath, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    type('Production URL (Optional)', 'https://shop2.example.com');
    fireEvent.click(button('Next'));
    expect(await toastTexts('error')).toEqual([MESSAGES.basicSettingsFailed]);
    expect(
      screen.getByText(`Additional Site Information failed: ${MESSAGES.basicSettingsFailed}`, {
        exact: false,
      }),
    ).toBeTruthy();
  });

  it('saves only the changed address of a site on an expired trial, never its plan or trial', async () => {
    const expired = basicSettings({ PlanStatus: 'Trial', TrialEndsAt: '2025-12-01T00:00:00.000Z' });
    const { callsTo } = stubApi(admin, {
      ...siteReads,
      siteBasicSettings: () => ({ body: expired }),
      updateSiteBasicSettings: () => ({ body: expired }),
    });
    renderScreen(editPath, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    expect(await screen.findByText(/^Now: Developer, Trial expired on/)).toBeTruthy();
    type('Production URL (Optional)', 'https://shop2.example.com');
    fireEvent.click(button('Next'));
    await screen.findByRole('heading', { level: 2, name: 'Set Features' });
    expect(callsTo('updateSiteBasicSettings').map((c) => c.body)).toEqual([
      { data: { ProductionUrl: 'https://shop2.example.com' } },
    ]);
  });

  it('saves step 2 with the version it was read at; after another save meanwhile, says so and keeps the typing', async () => {
    let stored = { body: basicSettings(), headers: { ETag: '"4"' } };
    let writes = 0;
    const { callsTo } = stubApi(admin, {
      ...siteReads,
      siteBasicSettings: () => stored,
      updateSiteBasicSettings: () => {
        writes += 1;
        if (writes === 1) {
          stored = { body: basicSettings({ Plan: 'Developer Premium' }), headers: { ETag: '"5"' } };
          return {
            status: 412,
            body: { ErrorCode: 930, Description: 'The record was changed by someone else. Please reload.' },
          };
        }
        return {
          body: basicSettings({ Plan: 'Developer Premium', StagingUrl: 'https://stage.shop.example.com' }),
          headers: { ETag: '"6"' },
        };
      },
    });
    renderScreen(editPath, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    type('Staging URL (Optional)', 'https://stage.shop.example.com');
    fireEvent.click(button('Next'));
    expect(
      await screen.findByText(/Someone else saved this site while you were editing/, {
        selector: '[role="alert"] p',
      }),
    ).toBeTruthy();
    expect(await screen.findByText('Now: Developer Premium, Subscribed.')).toBeTruthy();
    expect((screen.getByLabelText('Staging URL (Optional)') as HTMLInputElement).value).toBe(
      'https://stage.shop.example.com',
    );
    fireEvent.click(button('Next'));
    await screen.findByRole('heading', { level: 2, name: 'Set Features' });
    expect(callsTo('updateSiteBasicSettings').map((c) => c.headers['If-Match'])).toEqual(['"4"', '"5"']);
  });

  it('saves the features from the version read; after a save meanwhile, says so and saves over it on Next', async () => {
    let features = { body: { Data: { appId: 11, Features: ['sso', 'mfa'] } }, headers: { ETag: '"2"' } };
    const { callsTo } = stubApi(admin, {
      ...siteReads,
      siteFeature: () => features,
      updateSiteFeatures: ({ headers }) => {
        if (headers['If-Match'] === '"2"') {
          features = { body: { Data: { appId: 11, Features: ['audit'] } }, headers: { ETag: '"3"' } };
          return {
            status: 412,
            body: { ErrorCode: 930, Description: 'The record was changed by someone else.' },
          };
        }
        return { body: { Data: { appId: 11, Features: ['sso'] } }, headers: { ETag: '"4"' } };
      },
    });
    renderScreen(editPath, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    fireEvent.click(button('Set Features'));
    fireEvent.click(await screen.findByRole('radio', { name: 'Free' }));
    fireEvent.click(button('Next'));
    expect(await toastTexts('error')).toContain(
      'Someone else saved this site’s features while you were editing. Nothing of yours is saved yet: "Now" shows their features; Next saves your choice over theirs.',
    );
    // the choice is kept; Next now names their version
    expect((screen.getByRole('radio', { name: 'Free' }) as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect(screen.getByText(/audit/)).toBeTruthy());
    fireEvent.click(button('Next'));
    await screen.findByRole('heading', { level: 2, name: 'Set Data Center & DB' });
    expect(callsTo('updateSiteFeatures').map((c) => c.headers['If-Match'])).toEqual(['"2"', '"3"']);
  });

  it('writes nothing when step 2 is left unchanged, and offers no trial on the Free plan', async () => {
    const { callsTo } = stubApi(admin, siteReads);
    renderScreen(editPath, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    fireEvent.click(await screen.findByLabelText('Change the plan'));
    fireEvent.change(screen.getByLabelText('Plan'), { target: { value: 'Free' } });
    expect((screen.getByLabelText('Trial days') as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('The Free plan has no trial.')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Change the plan'));
    fireEvent.click(button('Next'));
    await screen.findByRole('heading', { level: 2, name: 'Set Features' });
    expect(callsTo('updateSiteBasicSettings')).toEqual([]);
  });

  it('Finish saves every step with unsaved changes first, then the data center', async () => {
    const { calls } = stubApi(admin, {
      ...siteReads,
      updateSiteBasicSettings: () => ({
        body: basicSettings({ StagingUrl: 'https://stage.shop.example.com' }),
      }),
      updateSiteFeatures: () => ({ body: { Data: { appId: 11, Features: ['sso'] } } }),
      updateSiteDataCenter: () => ({ body: dataCenters }),
    });
    renderScreen(editPath, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    type('Staging URL (Optional)', 'https://stage.shop.example.com');
    fireEvent.click(button('Set Features'));
    fireEvent.click(await screen.findByRole('radio', { name: 'Free' }));
    fireEvent.click(button('Set Data Center & DB'));
    await waitFor(() =>
      expect((screen.getByLabelText('Database name') as HTMLInputElement).value).toBe('shop_db'),
    );
    type('Database name', 'shop_db2');
    fireEvent.click(button('Finish'));
    expect(await screen.findByText('customer view')).toBeTruthy();
    expect(calls.filter((c) => c.id.startsWith('update')).map((c) => [c.id, c.body])).toEqual([
      ['updateSiteBasicSettings', { data: { StagingUrl: 'https://stage.shop.example.com' } }],
      ['updateSiteFeatures', { FeatureSet: 'Free' }],
      ['updateSiteDataCenter', { Source: 'global-server', GlobalServer: 'euw-shared-1', DbName: 'shop_db2' }],
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Finish stops on the first step whose save fails, with its message, and saves nothing after it', async () => {
    const { callsTo } = stubApi(admin, {
      ...siteReads,
      updateSiteBasicSettings: () => ({
        status: 400,
        body: { ErrorCode: 901, Description: 'Staging is down.' },
      }),
      updateSiteDataCenter: () => ({ body: dataCenters }),
    });
    renderScreen(editPath, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    type('Staging URL (Optional)', 'https://stage.shop.example.com');
    fireEvent.click(button('Set Data Center & DB'));
    await waitFor(() =>
      expect((screen.getByLabelText('Database name') as HTMLInputElement).value).toBe('shop_db'),
    );
    fireEvent.click(button('Finish'));
    expect(
      await screen.findByText('Additional Site Information failed: Staging is down.', { exact: false }),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Additional Site Information' })).toBeTruthy();
    expect((screen.getByLabelText('Staging URL (Optional)') as HTMLInputElement).value).toBe(
      'https://stage.shop.example.com',
    );
    expect(callsTo('updateSiteDataCenter')).toEqual([]);
  });

  it('asks before leaving with unsaved changes: Stay keeps them, Leave goes', async () => {
    stubApi(admin, siteReads);
    renderScreen(editPath, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    // unchanged: leaving does not ask
    type('Staging URL (Optional)', 'https://stage.shop.example.com');
    fireEvent.click(button('Set Features'));
    await screen.findByRole('heading', { level: 2, name: 'Set Features' });
    fireEvent.click(screen.getByRole('link', { name: 'Back to customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Stay' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(button('Additional Site Information'));
    expect(((await screen.findByLabelText('Staging URL (Optional)')) as HTMLInputElement).value).toBe(
      'https://stage.shop.example.com',
    );
    fireEvent.click(screen.getByRole('link', { name: 'Back to customer' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    expect(await screen.findByText('customer view')).toBeTruthy();
  });

  it('leaves without asking when nothing was changed', async () => {
    stubApi(admin, siteReads);
    renderScreen(editPath, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    fireEvent.click(screen.getByRole('link', { name: 'Back to customer' }));
    expect(await screen.findByText('customer view')).toBeTruthy();
  });

  it("shows 'Unable to add features.' and the catalogue's load failure", async () => {
    stubApi(admin, {
      ...siteReads,
      features: () => ({ status: 503, body: { ErrorCode: 951, Description: '' } }),
      updateSiteFeatures: () => ({ status: 500, body: {} }),
    });
    renderScreen(editPath, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    fireEvent.click(button('Set Features'));
    expect(await screen.findByText(MESSAGES.featureSetUnavailable, { selector: '.form-alert' })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Use the features of an existing site' }));
    fireEvent.change(screen.getByLabelText('Existing site'), { target: { value: '12' } });
    fireEvent.click(button('Next'));
    await waitFor(async () => expect(await toastTexts('error')).toContain(MESSAGES.featuresFailed));
  });

  it('offers Retry when the data centers cannot be loaded', async () => {
    let fail = true;
    stubApi(admin, {
      ...siteReads,
      siteDataCenter: () =>
        fail ? { status: 500, body: { ErrorCode: 950, Description: 'boom' } } : { body: dataCenters },
    });
    renderScreen(editPath, routes);
    await screen.findByRole('heading', { level: 2, name: 'Additional Site Information' });
    fireEvent.click(button('Set Data Center & DB'));
    const alert = await screen.findByText(MESSAGES.dataCentersFailed);
    expect(alert.getAttribute('role')).toBe('alert');
    expect((screen.getByRole('radio', { name: 'Use a global server' }) as HTMLInputElement).disabled).toBe(
      true,
    );
    fail = false;
    fireEvent.click(button('Retry'));
    await waitFor(() => expect(screen.queryByText(MESSAGES.dataCentersFailed)).toBeNull());
    expect((screen.getByRole('radio', { name: 'Use a global server' }) as HTMLInputElement).disabled).toBe(
      false,
    );
    expect((await screen.findByLabelText('Global server')) as HTMLSelectElement).toBeTruthy();
  });

  it('is refused without sites.write', async () => {
    stubApi({ ...admin, Permissions: ['customers.read', 'customers.write', 'sites.read'] }, siteReads);
    renderScreen(editPath, routes);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('You do not have permission to open this screen.'),
    );
  });
});
