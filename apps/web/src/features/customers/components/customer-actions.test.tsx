import { ERRORS } from '@sac/contract/errors';
import { MESSAGES } from '@sac/contract/messages';
import { GENERATED_PASSWORD_PATTERN, isStrongPassword } from '@sac/contract/validation';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubApi, type Viewer } from '../../../testing/api-stub.tsx';
import { site, support, UID } from './customers-fixtures.ts';
import { strongGeneratedPassword } from './reset-password-dialog.tsx';
import ViewCustomerPage from './view-customer-page.tsx';

const PATH = '/manage-customer/view-customer';
const renderView = () => renderScreen(`${PATH}?uid=${UID}`, [{ path: PATH, element: <ViewCustomerPage /> }]);

const admin: Viewer = {
  Uid: 'u-admin',
  Email: 'admin@example.com',
  Role: ['Admin'],
  Permissions: ['customers.read', 'customers.write', 'sites.read', 'sites.write'],
};
const profile = {
  Uid: UID,
  FirstName: 'Ada',
  LastName: 'Lovelace',
  Email: 'ada@example.com',
  Organization: 'Analytical Engines',
  PhoneNumber: '5551234567',
  AuthEmail: 'ada@example.com',
  ContactEmail: '',
  TimeZone: 'Europe/London',
  Status: 'Active',
  Role: 'Owner',
  EmailVerified: false,
  CreatedDate: '2024-03-07T10:20:30.000Z',
  ModifiedDate: '2024-03-08T10:20:30.000Z',
};
const account = { ...profile, LastLoginDate: null, OwnedSites: 1, SharedSites: 0 };

function stubCustomer(viewer: Viewer, extra: Parameters<typeof stubApi>[1] = {}) {
  return stubApi(viewer, {
    customerProfile: () => ({ body: { Data: profile } }),
    userProfile: () => ({ body: { Data: account } }),
    loginSessions: () => ({ body: { Data: [] } }),
    customerApps: () => ({ body: { Data: [site(11, { AppName: 'shop' })] } }),
    sharedApps: () => ({ body: { Data: [] } }),
    activityLogs: () => ({ body: { Data: [], NextCursor: 0 } }),
    ...extra,
  });
}

const type = (root: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(root).getByLabelText(label), { target: { value } });
const toastTexts = async (kind: 'success' | 'error') =>
  (await screen.findAllByTestId(`toast-${kind}`)).map((t) => t.querySelector('p')?.textContent);
const openDialog = async (name: string) => {
  const opener = await screen.findByRole('button', { name });
  await waitFor(() => expect((opener as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(opener);
};

describe('customer view actions', () => {
  it('hides profile, password, verify and site actions from a viewer without write permissions', async () => {
    stubCustomer(support);
    renderView();
    const owned = await screen.findByRole('table', { name: 'Owned sites' });
    await within(owned).findByText('shop');
    expect(screen.queryByRole('button', { name: 'Edit Profile' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reset Password' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Verify Email' })).toBeNull();
    expect(within(owned).queryByRole('button', { name: 'Deactivate' })).toBeNull();
  });

  it('edits the profile with the phone and email messages, and updates the cached profile', async () => {
    const { calls } = stubCustomer(admin, {
      updateCustomerProfile: () => ({
        body: { Data: { ...profile, FirstName: 'Augusta', PhoneNumber: '5550000000' } },
      }),
    });
    renderView();
    await openDialog('Edit Profile');
    const dialog = screen.getByRole('dialog', { name: 'Edit Profile' });
    expect((within(dialog).getByLabelText('First name') as HTMLInputElement).value).toBe('Ada');
    expect((within(dialog).getByLabelText('Time zone') as HTMLSelectElement).value).toBe('Europe/London');
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;

    type(dialog, 'Phone Number (Optional)', '555-123');
    expect(within(dialog).getByText(MESSAGES.phoneNotNumber)).toBeTruthy();
    expect(save.disabled).toBe(true);
    type(dialog, 'Phone Number (Optional)', '555123');
    expect(within(dialog).getByText(MESSAGES.phoneLength)).toBeTruthy();
    // the sign-in email follows the email while they are the same
    type(dialog, 'Email', '');
    expect(within(dialog).getAllByText(MESSAGES.emailRequired)).toHaveLength(2);
    type(dialog, 'Email', 'ada@nowhere');
    expect(within(dialog).getAllByText(MESSAGES.emailInvalid)).toHaveLength(2);
    type(dialog, 'Contact Email (Optional)', 'contact@');
    expect(within(dialog).getAllByText(MESSAGES.emailInvalid)).toHaveLength(3);

    type(dialog, 'Email', 'ada@example.com');
    type(dialog, 'Contact Email (Optional)', '');
    type(dialog, 'Phone Number (Optional)', '5550000000');
    type(dialog, 'First name', 'Augusta');
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    expect(await toastTexts('success')).toEqual(['Customer profile updated.']);
    expect(screen.queryByRole('dialog')).toBeNull();
    const contact = screen.getByRole('heading', { level: 2, name: 'Contact Info' }).closest('section')!;
    await within(contact).findByText('Augusta');
    const put = calls.find((c) => c.url.pathname === '/admin/customerprofile')!;
    expect(put.url.searchParams.get('uid')).toBe(UID);
    // the email was typed back as it was: the sign-in email did not change, so it is not sent
    expect((put.body as { data: object }).data).not.toHaveProperty('AuthEmail');
  });

  it('sends the sign-in email only when it changes, and shows whose address is taken where', async () => {
    let answer: { status: number; body: Record<string, unknown> } = {
      status: 409,
      body: { ErrorCode: 978, Description: ERRORS.customerAuthEmailTaken.text },
    };
    const { callsTo } = stubCustomer(admin, { updateCustomerProfile: () => answer });
    renderView();
    await openDialog('Edit Profile');
    const dialog = screen.getByRole('dialog', { name: 'Edit Profile' });
    type(dialog, 'Authentication Email', 'ada.signin@example.com');
    type(dialog, 'Email', 'ada.new@example.com'); // no longer follows once changed on its own
    expect((within(dialog).getByLabelText('Authentication Email') as HTMLInputElement).value).toBe(
      'ada.signin@example.com',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(ERRORS.customerAuthEmailTaken.text, { selector: '[id$="-error"]' }),
    ).toBeTruthy();
    answer = { status: 409, body: { ErrorCode: 977, Description: ERRORS.customerEmailTaken.text } };
    type(dialog, 'Authentication Email', profile.AuthEmail);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(ERRORS.customerEmailTaken.text, { selector: '[id$="-error"]' }),
    ).toBeTruthy();
    const bodies = callsTo('updateCustomerProfile').map((c) => (c.body as { data: object }).data);
    expect(bodies[0]).toMatchObject({ Email: 'ada.new@example.com', AuthEmail: 'ada.signin@example.com' });
    expect(bodies[1]).not.toHaveProperty('AuthEmail');
  });

  it('saves with the version the form was filled from; when someone saved meanwhile, keeps the typing and says what changed', async () => {
    let stored = { body: { Data: profile }, headers: { ETag: '"1"' } };
    let writes = 0;
    const { callsTo } = stubCustomer(admin, {
      customerProfile: () => stored,
      updateCustomerProfile: () => {
        writes += 1;
        if (writes === 1) {
          // another editor saved first: the stored profile moved on
          stored = { body: { Data: { ...profile, Organization: 'Babbage & Co' } }, headers: { ETag: '"2"' } };
          return { status: 412, body: { ErrorCode: 930, Description: ERRORS.conflict.text } };
        }
        return {
          body: { Data: { ...profile, Organization: 'Babbage & Co', PhoneNumber: '5550000000' } },
          headers: { ETag: '"3"' },
        };
      },
    });
    renderView();
    await openDialog('Edit Profile');
    const dialog = screen.getByRole('dialog', { name: 'Edit Profile' });
    type(dialog, 'Phone Number (Optional)', '5550000000');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const notice = await within(dialog).findByText('Changed by someone else.');
    expect(notice.closest('[role="alert"]')?.textContent).toContain('Organization (Optional): Babbage & Co');
    expect((within(dialog).getByLabelText('Phone Number (Optional)') as HTMLInputElement).value).toBe(
      '5550000000',
    );
    expect((within(dialog).getByLabelText('Organization (Optional)') as HTMLInputElement).value).toBe(
      profile.Organization,
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save mine over theirs' }));
    expect(await toastTexts('success')).toEqual(['Customer profile updated.']);
    expect(callsTo('updateCustomerProfile').map((c) => c.headers['If-Match'])).toEqual(['"1"', '"2"']);
  });

  it('loads their values on request, dropping what was typed', async () => {
    let stored = { body: { Data: profile }, headers: { ETag: '"1"' } };
    stubCustomer(admin, {
      customerProfile: () => stored,
      updateCustomerProfile: () => {
        stored = { body: { Data: { ...profile, LastName: 'King' } }, headers: { ETag: '"2"' } };
        return { status: 412, body: { ErrorCode: 930, Description: ERRORS.conflict.text } };
      },
    });
    renderView();
    await openDialog('Edit Profile');
    const dialog = screen.getByRole('dialog', { name: 'Edit Profile' });
    type(dialog, 'First name', 'Augusta');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Load their values' }));
    expect((within(dialog).getByLabelText('First name') as HTMLInputElement).value).toBe('Ada');
    expect((within(dialog).getByLabelText('Last name') as HTMLInputElement).value).toBe('King');
    expect(within(dialog).queryByText('Changed by someone else.')).toBeNull();
  });

  it("toasts 'Error updating customer profile.' or the server's more specific text", async () => {
    let answer: { status: number; body: Record<string, unknown> } = { status: 500, body: {} };
    stubCustomer(admin, { updateCustomerProfile: () => answer });
    renderView();
    await openDialog('Edit Profile');
    const dialog = screen.getByRole('dialog', { name: 'Edit Profile' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await toastTexts('error')).toEqual([MESSAGES.customerProfileUpdateFailed]);
    answer = {
      status: 409,
      body: { ErrorCode: 977, Description: ERRORS.customerEmailTaken.text, Message: '', RequestId: 'r' },
    };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect(await toastTexts('error')).toContain(ERRORS.customerEmailTaken.text));
    expect(
      within(dialog).getByText(ERRORS.customerEmailTaken.text, { selector: '[id$="-error"]' }),
    ).toBeTruthy();
  });

  it('resets the password with a generated one, shown so staff can pass it on', async () => {
    const { fetchMock } = stubCustomer(admin, {
      setCustomerPassword: () => ({
        body: { IsPosted: true, Message: 'The customer password has been reset.' },
      }),
    });
    renderView();
    await openDialog('Reset Password');
    const dialog = screen.getByRole('dialog', { name: 'Reset Password' });
    const save = within(dialog).getByRole('button', { name: 'Save Password' }) as HTMLButtonElement;
    type(dialog, 'New password', 'weak');
    expect(within(dialog).getByText(MESSAGES.passwordRule, { normalizer: (text) => text })).toBeTruthy();
    type(dialog, 'New password', 'Strong#1');
    type(dialog, 'Confirm password', 'Strong#2');
    expect(within(dialog).getByText(MESSAGES.passwordsDoNotMatch)).toBeTruthy();
    expect(save.disabled).toBe(true);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Generate' }));
    const shown = within(dialog).getByTestId('generated-password').textContent!;
    expect(shown).toMatch(GENERATED_PASSWORD_PATTERN);
    expect(isStrongPassword(shown)).toBe(true);
    expect((within(dialog).getByLabelText('New password') as HTMLInputElement).value).toBe(shown);
    expect((within(dialog).getByLabelText('Confirm password') as HTMLInputElement).value).toBe(shown);
    expect(within(dialog).queryByText(MESSAGES.passwordsDoNotMatch)).toBeNull();
    fireEvent.click(save);
    expect(await toastTexts('success')).toEqual(['The customer password has been reset.']);
    const call = fetchMock.mock.calls.find(([input]) => String(input).includes('/admin/customer/password'))!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({ password: shown });
  });

  it('draws generated passwords until one has both letter cases', () => {
    for (let i = 0; i < 50; i++) expect(isStrongPassword(strongGeneratedPassword())).toBe(true);
  });

  it('verifies the email after a confirmation; the button then goes away', async () => {
    stubCustomer(admin, {
      verifyEmail: () => ({ body: { IsPosted: true, Message: 'Email verified.' } }),
    });
    renderView();
    await openDialog('Verify Email');
    const dialog = screen.getByRole('dialog', { name: 'Verify Email' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await toastTexts('success')).toEqual(['Email verified.']);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Verify Email' })).toBeNull());
    const acc = screen.getByRole('heading', { level: 2, name: 'Account Info' }).closest('section')!;
    expect(within(acc).getByText('Email Verified', { selector: 'dt' }).nextElementSibling?.textContent).toBe(
      'Yes',
    );
  });

  it("deactivates a site after 'Deactivate shop?', updating its row without a reload", async () => {
    const { calls } = stubCustomer(admin, {
      setSiteStatus: () => ({ body: { Data: site(11, { AppName: 'shop', Status: 'inactive' }) } }),
    });
    renderView();
    const owned = await screen.findByRole('table', { name: 'Owned sites' });
    const row = (await within(owned).findByText('shop')).closest('tr')!;
    fireEvent.click(await within(row).findByRole('button', { name: 'Deactivate' }));
    const dialog = screen.getByRole('dialog', { name: 'Deactivate shop?' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Type shop to confirm' }), {
      target: { value: 'shop' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await toastTexts('success')).toEqual(['Site deactivated.']);
    expect(screen.queryByRole('dialog')).toBeNull();
    const updated = within(owned).getByText('shop').closest('tr')!;
    expect(within(updated).getByText('Inactive')).toBeTruthy();
    expect(within(updated).getByRole('button', { name: 'Activate' })).toBeTruthy();
    expect(calls.filter((c) => c.url.pathname === '/admin/apps').map((c) => c.url)).toHaveLength(1);
    const put = calls.find((c) => c.url.pathname === '/admin/site/status')!.url;
    expect([put.searchParams.get('uId'), put.searchParams.get('appId')]).toEqual([UID, '11']);
  });

  it('keeps the row as it was when the confirmation is cancelled', async () => {
    const { calls } = stubCustomer(admin);
    renderView();
    const owned = await screen.findByRole('table', { name: 'Owned sites' });
    const row = (await within(owned).findByText('shop')).closest('tr')!;
    fireEvent.click(await within(row).findByRole('button', { name: 'Deactivate' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(calls.some((c) => c.url.pathname === '/admin/site/status')).toBe(false);
  });

  it('issues a new API secret with the grace chosen, shows it once, and says until when the old one works', async () => {
    const { calls } = stubCustomer(admin, {
      rotateSiteSecret: () => ({
        body: {
          Data: {
            AppName: 'shop',
            ApiKey: 'key-11',
            ApiSecret: 'new-secret-value-0123456789abcdef',
            PreviousSecretValidUntil: '2026-11-26T10:00:00.000Z',
          },
          Message: 'A new API secret was issued. Copy it now: it is not shown again.',
        },
      }),
    });
    renderView();
    const owned = await screen.findByRole('table', { name: 'Owned sites' });
    const row = (await within(owned).findByText('shop')).closest('tr')!;
    fireEvent.click(await within(row).findByRole('button', { name: 'New API secret' }));
    const dialog = screen.getByRole('dialog', { name: 'New API secret for shop' });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'keeps working for 4 hours' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Issue a new secret' }));
    expect(((await within(dialog).findByLabelText('API Secret')) as HTMLInputElement).value).toBe(
      'new-secret-value-0123456789abcdef',
    );
    // the toast shows inside the open dialog, above its content; the grace is the dialog's own line
    expect(
      within(dialog)
        .getAllByRole('status')
        .map((s) => s.textContent),
    ).toEqual([
      'A new API secret was issued. Copy it now: it is not shown again.',
      'The previous secret keeps working until 11-26-2026 10:00 UTC.',
    ]);
    const post = calls.find((c) => c.url.pathname === '/admin/site/secret')!;
    expect([post.url.searchParams.get('uid'), post.url.searchParams.get('appId')]).toEqual([UID, '11']);
    expect(post.body).toEqual({ GraceMinutes: 240 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'I have copied the secret' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers no new secret to a viewer who cannot change sites', async () => {
    stubCustomer(support);
    renderView();
    const owned = await screen.findByRole('table', { name: 'Owned sites' });
    await within(owned).findByText('shop');
    expect(within(owned).queryByRole('button', { name: 'New API secret' })).toBeNull();
  });
});
