import { CUSTOM_ROLE_MESSAGES } from '@sac/contract/custom-roles';
import { ERRORS } from '@sac/contract/errors';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorAnswer, renderScreen, stubApi, type Viewer } from '../../../testing/api-stub.tsx';
import { scopeText } from './role-scope.ts';
import RolesPage from './roles-page.tsx';
import { ROLES } from './team-fixtures.ts';

const PATH = '/manage-superuser/roles';
const renderRoles = () => renderScreen(PATH, [{ path: PATH, element: <RolesPage /> }]);

const superAdmin: Viewer = {
  Uid: 'u-super',
  Email: 'super@example.com',
  Role: ['SuperAdmin'],
  Permissions: ['team.read', 'team.write', 'customers.read'],
};
const admin: Viewer = { ...superAdmin, Uid: 'u-admin', Email: 'admin@example.com', Role: ['Admin'] };

const DATA_CENTERS = [
  { Code: 'eu-central', Name: 'EU Central (Frankfurt)' },
  { Code: 'eu-west', Name: 'EU West (Ireland)' },
  { Code: 'us-east', Name: 'US East (Virginia)' },
];
const supportEu = {
  Name: 'Support EU',
  Description: 'EU support',
  Permissions: ['customers.read', 'sites.read'],
  BuiltIn: false,
  Scope: { DataCenters: ['eu-central', 'eu-west'], Plans: ['Free', 'Developer'] },
  HolderCount: 2,
  Version: 3,
};
const catalogue = () => ({ body: { Data: [...ROLES, supportEu], DataCenters: DATA_CENTERS } });
const card = (name: string) =>
  screen.getByRole('article', { name: new RegExp(`^${name}\\s*(Built-in|Custom)$`) });

describe('scopeText', () => {
  const words = { allSites: 'All sites', allDataCenters: 'All data centers', allPlans: 'All plans' };
  const names = new Map(DATA_CENTERS.map((d) => [d.Code, d.Name]));
  it.each([
    [null, 'All sites'],
    [
      { DataCenters: ['eu-central', 'eu-west'], Plans: ['Free', 'Developer'] },
      'EU Central (Frankfurt), EU West (Ireland) · Free, Developer',
    ],
    [{ DataCenters: ['eu-central'], Plans: null }, 'EU Central (Frankfurt) · All plans'],
    [{ DataCenters: null, Plans: ['Free'] }, 'All data centers · Free'],
    [{ DataCenters: ['moon-1'], Plans: null }, 'moon-1 · All plans'],
  ])('tells %j as "%s"', (scope, text) => {
    expect(scopeText(scope, names, words)).toBe(text);
  });
});

describe('roles page', () => {
  it('lists built-in and custom roles with scope and holders; only a SuperAdmin may change custom ones', async () => {
    stubApi(admin, { teamRoles: catalogue });
    renderRoles();
    await screen.findByText('Support EU');
    expect(
      within(card('Support EU')).getByText('EU Central (Frankfurt), EU West (Ireland) · Free, Developer'),
    ).toBeTruthy();
    expect(within(card('Support EU')).getByText('2 staff')).toBeTruthy();
    expect(within(card('Admin')).getByText('All sites')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New role' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit Support EU' })).toBeNull();
  });

  it('makes a scoped role: platform permissions go off while a scope is chosen, the body is the contract', async () => {
    const { calls } = stubApi(superAdmin, {
      teamRoles: catalogue,
      customRoleCreate: ({ body }) => ({
        body: { Data: { ...supportEu, ...body, HolderCount: 0, Version: 1 } },
      }),
    });
    renderRoles();
    await screen.findByText('Support EU');
    expect(screen.queryByRole('button', { name: 'Edit Admin' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'New role' }));
    const dialog = await screen.findByRole('dialog', { name: 'New role' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: ' Billing EU ' } });
    const teamRead = within(dialog).getByRole('checkbox', { name: 'team.read' }) as HTMLInputElement;
    expect(teamRead.disabled).toBe(false);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'EU Central (Frankfurt)' }));
    expect(teamRead.disabled).toBe(true);
    expect(within(dialog).getByText('With a scope: only permissions over customers and sites.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'customers.read' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.id === 'customRoleCreate')).toBe(true));
    expect(calls.find((c) => c.id === 'customRoleCreate')!.body).toEqual({
      Name: 'Billing EU',
      Description: '',
      Permissions: ['customers.read'],
      Scope: { DataCenters: ['eu-central'], Plans: null },
    });
  });

  it("shows a chosen platform permission's conflict with the scope on the field, and the server's errors by field", async () => {
    stubApi(superAdmin, {
      teamRoles: catalogue,
      customRoleCreate: () => ({
        status: 409,
        body: {
          ...errorAnswer(409, ERRORS.roleNameTaken.code, CUSTOM_ROLE_MESSAGES.nameTaken).body,
          FieldErrors: [{ Field: 'Name', Message: CUSTOM_ROLE_MESSAGES.nameTaken }],
        },
      }),
    });
    renderRoles();
    await screen.findByText('Support EU');
    fireEvent.click(screen.getByRole('button', { name: 'New role' }));
    const dialog = await screen.findByRole('dialog', { name: 'New role' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'support eu' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'team.read' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Free' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(CUSTOM_ROLE_MESSAGES.notScopable(['team.read']))).toBeTruthy();
    // still clickable, so it can be taken away
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'team.read' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'sites.read' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const nameError = await within(dialog).findByText(CUSTOM_ROLE_MESSAGES.nameTaken, { selector: 'p' });
    expect(within(dialog).getByLabelText('Name').getAttribute('aria-describedby')).toContain(nameError.id);
  });

  it('edits at the version read, the name fixed', async () => {
    const { calls } = stubApi(superAdmin, {
      teamRoles: catalogue,
      customRoleUpdate: ({ body }) => ({ body: { Data: { ...supportEu, ...body, Version: 4 } } }),
    });
    renderRoles();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Support EU' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit role Support EU' });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Free' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.id === 'customRoleUpdate')).toBe(true));
    const call = calls.find((c) => c.id === 'customRoleUpdate')!;
    expect(call.headers['If-Match'] ?? call.headers['if-match']).toBe('"3"');
    expect(call.body).toMatchObject({
      Name: 'Support EU',
      Scope: { DataCenters: ['eu-central', 'eu-west'], Plans: ['Developer'] },
    });
  });

  it('confirms a deletion and shows why the server refused it', async () => {
    stubApi(superAdmin, {
      teamRoles: catalogue,
      customRoleDelete: () => errorAnswer(409, ERRORS.roleInUse.code, CUSTOM_ROLE_MESSAGES.roleHeld(2)),
    });
    renderRoles();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Support EU' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete role' });
    expect(within(dialog).getByText('Held by 2 staff.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(
      await within(dialog).findByText(CUSTOM_ROLE_MESSAGES.roleHeld(2), { selector: '.form-alert' }),
    ).toBeTruthy();
  });
});
