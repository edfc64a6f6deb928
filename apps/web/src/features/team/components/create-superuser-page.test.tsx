import { MESSAGES } from '@sac/contract/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubApi, type Viewer } from '../../../testing/api-stub.tsx';
import CreateSuperuserPage from './create-superuser-page.tsx';
import { ROLES, user } from './team-fixtures.ts';

const PATH = '/manage-superuser/create-superuser';
const renderCreate = () => renderScreen(PATH, [{ path: PATH, element: <CreateSuperuserPage /> }]);

const superAdmin: Viewer = {
  Uid: 'u-super',
  Email: 'super@example.com',
  Role: ['SuperAdmin'],
  Permissions: ['team.read', 'team.write'],
};
const existing = [user('u-super', 'super@example.com', ['SuperAdmin'])];

const baseRoutes = {
  teamList: () => ({ body: { Data: existing } }),
  teamRoles: () => ({ body: { Data: ROLES } }),
};

const save = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
const email = () => screen.getByLabelText('Email') as HTMLInputElement;
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });
const toastTexts = async (kind: 'success' | 'error') =>
  (await screen.findAllByTestId(`toast-${kind}`)).map((t) => t.querySelector('p')?.textContent);

describe('create superuser form', () => {
  it('has the fields, links and buttons; never offers SuperAdmin', async () => {
    stubApi(superAdmin, baseRoutes);
    renderCreate();
    expect(screen.getByRole('heading', { level: 1, name: 'Create Superuser' })).toBeTruthy();
    expect(screen.getByLabelText('Name (Optional)')).toBeTruthy();
    expect(email()).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Permission list' }).getAttribute('href')).toBe(
      '/manage-superuser/permissions',
    );
    expect(screen.getByRole('link', { name: 'Role details' }).getAttribute('href')).toBe(
      '/manage-superuser/roles',
    );
    const group = await screen.findByRole('group', { name: 'Roles' });
    await waitFor(() =>
      expect(
        within(group)
          .getAllByRole('checkbox')
          .map((c) => (c as HTMLInputElement).value),
      ).toEqual(['Admin', 'Support']),
    );
    expect(screen.getByRole('button', { name: 'Reset' })).toBeTruthy();
  });

  it('shows the validation messages and keeps Save disabled until email and roles are valid', async () => {
    stubApi(superAdmin, baseRoutes);
    renderCreate();
    const group = await screen.findByRole('group', { name: 'Roles' });
    await within(group).findByRole('checkbox', { name: 'Support' });
    expect(save().disabled).toBe(true);

    fireEvent.blur(email());
    expect(screen.getByText(MESSAGES.emailRequired)).toBeTruthy();
    type(email(), 'not-an-email');
    expect(screen.getByText(MESSAGES.emailInvalid)).toBeTruthy();
    expect(email().getAttribute('aria-invalid')).toBe('true');

    const support = within(group).getByRole('checkbox', { name: 'Support' });
    fireEvent.click(support);
    expect(save().disabled).toBe(true);
    type(email(), 'new.user@example.com');
    expect(screen.queryByText(MESSAGES.emailInvalid)).toBeNull();
    expect(save().disabled).toBe(false);

    fireEvent.click(support);
    expect(screen.getByText('Roles field is required.')).toBeTruthy();
    expect(save().disabled).toBe(true);
  });

  it('Reset clears values and messages', async () => {
    stubApi(superAdmin, baseRoutes);
    renderCreate();
    await screen.findByRole('checkbox', { name: 'Admin' });
    type(screen.getByLabelText('Name (Optional)'), 'Ada');
    type(email(), 'bad');
    fireEvent.blur(email());
    expect(screen.getByText(MESSAGES.emailInvalid)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(email().value).toBe('');
    expect((screen.getByLabelText('Name (Optional)') as HTMLInputElement).value).toBe('');
    expect(screen.queryByText(MESSAGES.emailInvalid)).toBeNull();
  });

  it('creates, toasts the success text and resets the form', async () => {
    const { calls } = stubApi(superAdmin, {
      ...baseRoutes,
      teamCreate: () => ({ body: { Data: user('u-new', 'new.user@example.com', ['Support']) } }),
    });
    renderCreate();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Support' }));
    type(screen.getByLabelText('Name (Optional)'), '  Ada  ');
    type(email(), ' new.user@example.com ');
    await waitFor(() => expect(calls.some((c) => c.id === 'teamList')).toBe(true));
    fireEvent.click(save());
    expect(await toastTexts('success')).toContain(MESSAGES.superUserCreated);
    expect(calls.find((c) => c.id === 'teamCreate')?.body).toEqual({
      role: ['Support'],
      email: 'new.user@example.com',
      name: 'Ada',
    });
    expect(email().value).toBe('');
    expect((screen.getByRole('checkbox', { name: 'Support' }) as HTMLInputElement).checked).toBe(false);
  });

  it("toasts the server's error, else 'Unable to create Super User'", async () => {
    stubApi(superAdmin, {
      ...baseRoutes,
      teamCreate: () => ({ status: 500, body: 'oops' }),
    });
    renderCreate();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Support' }));
    type(email(), 'other@example.com');
    await waitFor(() => expect(save().disabled).toBe(false));
    await new Promise((r) => setTimeout(r, 50));
    fireEvent.click(save());
    expect(await toastTexts('error')).toContain(MESSAGES.superUserCreateFailed);
    expect(email().value).toBe('other@example.com');
  });

  it('refuses an email of an existing super user, whatever its case', async () => {
    const { calls } = stubApi(superAdmin, baseRoutes);
    renderCreate();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Support' }));
    type(email(), 'SUPER@example.com');
    await waitFor(() => expect(calls.some((c) => c.id === 'teamList')).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    fireEvent.click(save());
    expect(await toastTexts('error')).toContain(MESSAGES.superUserExists);
    expect(calls.some((c) => c.id === 'teamCreate')).toBe(false);
  });

  it('asks to try again when the super-user list is not available', async () => {
    const { calls } = stubApi(superAdmin, {
      ...baseRoutes,
      teamList: () => ({ status: 403, body: { ErrorCode: 902, Description: 'No.' } }),
    });
    renderCreate();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Support' }));
    type(email(), 'new@example.com');
    await waitFor(() => expect(calls.some((c) => c.id === 'teamList')).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    fireEvent.click(save());
    expect(await toastTexts('error')).toContain(MESSAGES.superAdminDataMissingOnCreate);
    expect(calls.some((c) => c.id === 'teamCreate')).toBe(false);
  });
});
