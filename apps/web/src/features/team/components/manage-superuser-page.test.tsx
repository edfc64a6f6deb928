import { MESSAGES } from '@sac/contract/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubApi, type Viewer } from '../../../testing/api-stub.tsx';
import ManageSuperuserPage from './manage-superuser-page.tsx';
import { ROLES, user } from './team-fixtures.ts';

const PATH = '/manage-superuser/manage-superuser';
const renderList = () =>
  renderScreen(PATH, [
    { path: PATH, element: <ManageSuperuserPage /> },
    { path: '/manage-superuser/profile/:uid', element: <p>profile</p> },
  ]);

const admin: Viewer = {
  Uid: 'u-admin',
  Email: 'admin@example.com',
  Role: ['Admin'],
  Permissions: ['team.read', 'team.write'],
};
const rows = [
  user('u-super', 'super@example.com', ['SuperAdmin'], { LastLoginDate: '2025-01-02T03:04:05Z' }),
  user('u-admin', 'admin@example.com', ['Admin']),
  user('u-admin2', 'admin2@example.com', ['Admin']),
  user('u-support', 'support@example.com', ['Support']),
];

const row = (email: string) => screen.getByRole('cell', { name: email }).closest('tr')!;

describe('super-user list', () => {
  it('notes when a new SuperAdmin may approve impersonation (the cool-down after a promotion)', async () => {
    const cooling = user('u-new', 'new@example.com', ['SuperAdmin'], {
      ApproverSince: '2026-01-15T10:00:00.000Z',
      CanApproveImpersonationFrom: '2026-01-16T10:00:00.000Z',
    });
    stubApi(admin, { teamList: () => ({ body: { Data: [...rows, cooling] } }) });
    renderList();
    await screen.findByText('new@example.com');
    const role = within(row('new@example.com')).getAllByRole('cell')[3]!;
    expect(role.textContent).toBe('SuperAdminCan approve impersonation from 01-16-2026 10:00 UTC');
    expect(within(row('super@example.com')).getAllByRole('cell')[3]!.textContent).toBe('SuperAdmin');
  });

  it("holds back a new SuperAdmin's acts on other SuperAdmins until their cool-down ends, saying so", async () => {
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const newSuper: Viewer = {
      Uid: 'u-new',
      Email: 'new@example.com',
      Role: ['SuperAdmin'],
      Permissions: ['team.read', 'team.write'],
      CanApproveImpersonationFrom: until,
    };
    stubApi(newSuper, { teamList: () => ({ body: { Data: rows } }) });
    renderList();
    await screen.findByText('super@example.com');
    const note = await screen.findByText(/You became a SuperAdmin recently/);
    for (const name of ['Change roles', 'Delete']) {
      const onSuper = within(row('super@example.com')).getByRole('button', { name });
      expect(onSuper).toHaveProperty('disabled', true);
      expect(onSuper.getAttribute('aria-describedby')).toBe(note.id);
      expect(within(row('support@example.com')).getByRole('button', { name })).toHaveProperty(
        'disabled',
        false,
      );
    }
  });

  it('shows the columns and MM-DD-YYYY dates', async () => {
    stubApi(admin, { teamList: () => ({ body: { Data: rows } }) });
    renderList();
    const table = await screen.findByRole('table', { name: 'Super users' });
    await screen.findByText('super@example.com');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    // a writer's list starts with the selection's column (its header is the page's checkbox)
    expect(headers).toEqual([
      '',
      'Email Address',
      'Name',
      'Role',
      'Access review',
      'Created Date',
      'Last Login Date',
      'Actions',
    ]);
    const cells = within(row('super@example.com'))
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 7)).toEqual([
      '',
      'super@example.com',
      'super',
      'SuperAdmin',
      '',
      '03-07-2024',
      '01-02-2025',
    ]);
  });

  it('links the email only when the viewer may open that profile', async () => {
    stubApi(admin, { teamList: () => ({ body: { Data: rows } }) });
    renderList();
    await screen.findByText('super@example.com');
    // Own profile: always. Admin -> Admin (shared role): no. Admin -> SuperAdmin: no. Admin -> Support: yes.
    await waitFor(() => expect(screen.getByRole('link', { name: 'admin@example.com' })).toBeTruthy());
    expect(screen.getByRole('link', { name: 'support@example.com' }).getAttribute('href')).toBe(
      '/manage-superuser/profile/u-support',
    );
    expect(screen.queryByRole('link', { name: 'admin2@example.com' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'super@example.com' })).toBeNull();
    expect(screen.getByText('super@example.com')).toBeTruthy();
  });

  it('shows row actions only where the viewer may manage the row', async () => {
    stubApi(admin, { teamList: () => ({ body: { Data: rows } }) });
    renderList();
    await screen.findByText('super@example.com');
    await waitFor(() =>
      expect(within(row('support@example.com')).getByRole('button', { name: 'Change roles' })).toBeTruthy(),
    );
    expect(within(row('support@example.com')).getByRole('button', { name: 'Delete' })).toBeTruthy();
    for (const email of ['super@example.com', 'admin@example.com', 'admin2@example.com']) {
      expect(within(row(email)).queryByRole('button')).toBeNull();
    }
  });

  it('hides the actions column without team.write', async () => {
    stubApi({ ...admin, Permissions: ['team.read'] }, { teamList: () => ({ body: { Data: rows } }) });
    renderList();
    await screen.findByText('super@example.com');
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('paginates 10 rows per page', async () => {
    const many = Array.from({ length: 23 }, (_, i) => user(`u${i}`, `user${i}@example.com`, ['Support']));
    stubApi(admin, { teamList: () => ({ body: { Data: many } }) });
    renderList();
    await screen.findByText('user0@example.com');
    expect(screen.getAllByRole('row')).toHaveLength(11);
    const nav = screen.getByRole('navigation', { name: 'Pagination: Super users' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Page 3' }));
    expect(screen.getAllByRole('row')).toHaveLength(4);
    expect(screen.getByText('user22@example.com')).toBeTruthy();
  });

  it('shows the empty state', async () => {
    stubApi(admin, { teamList: () => ({ body: { Data: [] } }) });
    renderList();
    expect(await screen.findByText(MESSAGES.tableEmpty)).toBeTruthy();
  });

  it("shows the server's error in the table and toasts the load failure", async () => {
    stubApi(admin, {
      teamList: () => ({
        status: 403,
        body: { ErrorCode: 902, Description: 'You do not have permission to perform this action.' },
      }),
    });
    renderList();
    expect(await screen.findByText('You do not have permission to perform this action.')).toBeTruthy();
    const toasts = await screen.findAllByTestId('toast-error');
    expect(toasts.map((t) => t.querySelector('p')?.textContent)).toContain(MESSAGES.superAdminDataLoadFailed);
  });

  it('deletes after confirmation and removes the row without refetching', async () => {
    const { calls } = stubApi(admin, {
      teamList: () => ({ body: { Data: rows } }),
      teamDelete: ({ body }) => ({ body: { IsDeleted: true, Uid: (body as { uid: string }).uid } }),
    });
    renderList();
    await screen.findByText('support@example.com');
    fireEvent.click(await within(row('support@example.com')).findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete super user' });
    expect(dialog.textContent).toContain('support@example.com');
    // The confirmation waits for the email to be typed.
    expect((within(dialog).getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Type support@example.com to confirm' }), {
      target: { value: 'support@example.com' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByText('support@example.com')).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.find((c) => c.id === 'teamDelete')?.body).toEqual({
      uid: 'u-support',
      role: ['Support'],
    });
    expect(calls.filter((c) => c.id === 'teamList')).toHaveLength(1);
  });

  it('changes roles with at least one role, a confirmation, and the roles to unassign', async () => {
    const { calls } = stubApi(admin, {
      teamList: () => ({ body: { Data: rows } }),
      teamRoles: () => ({ body: { Data: [...ROLES, { ...ROLES[2]!, Name: 'Billing' }] } }),
      teamUpdateRoles: ({ body }) => ({
        body: { Data: { ...rows[3]!, Roles: (body as { role: string[] }).role } },
      }),
    });
    renderList();
    await screen.findByText('support@example.com');
    fireEvent.click(await within(row('support@example.com')).findByRole('button', { name: 'Change roles' }));
    const dialog = screen.getByRole('dialog', { name: 'Change roles' });
    const group = await within(dialog).findByRole('group', { name: 'Roles' });
    // An Admin assigns neither Admin nor SuperAdmin.
    expect(
      within(group)
        .getAllByRole('checkbox')
        .map((c) => (c as HTMLInputElement).value),
    ).toEqual(['Support', 'Billing']);
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Support' }));
    expect(within(dialog).getByText('Roles field is required.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).queryByRole('button', { name: 'Confirm' })).toBeNull();
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Billing' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.id === 'teamUpdateRoles')?.body).toEqual({
      uid: 'u-support',
      role: ['Billing'],
      unAssignRoles: ['SuperAdmin', 'Admin', 'Support'],
    });
    expect(within(row('support@example.com')).getAllByRole('cell')[3]!.textContent).toBe('Billing');
    expect(calls.filter((c) => c.id === 'teamList')).toHaveLength(1);
  });

  it('changes roles from the Version listed; when someone changed them meanwhile, shows theirs and saves over them only when asked', async () => {
    let listed = rows;
    const { calls } = stubApi(admin, {
      teamList: () => ({ body: { Data: listed } }),
      teamRoles: () => ({ body: { Data: [...ROLES, { ...ROLES[2]!, Name: 'Billing' }] } }),
      teamUpdateRoles: ({ body, headers }) => {
        if (headers['If-Match'] === '"1"') {
          listed = rows.map((r) =>
            r.Uid === 'u-support' ? { ...r, Roles: ['Support', 'Billing'], Version: 2 } : r,
          );
          return {
            status: 412,
            body: { ErrorCode: 930, Description: 'The record was changed by someone else.' },
          };
        }
        return { body: { Data: { ...rows[3]!, Roles: (body as { role: string[] }).role, Version: 3 } } };
      },
    });
    renderList();
    await screen.findByText('support@example.com');
    fireEvent.click(await within(row('support@example.com')).findByRole('button', { name: 'Change roles' }));
    const dialog = screen.getByRole('dialog', { name: 'Change roles' });
    const group = await within(dialog).findByRole('group', { name: 'Roles' });
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Support' }));
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Billing' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const notice = await within(dialog).findByRole('alert');
    expect(notice.textContent).toContain('Roles: Support, Billing');
    expect(screen.queryByTestId('toast-error')).toBeNull();
    fireEvent.click(within(notice).getByRole('button', { name: 'Save mine over theirs' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.id === 'teamUpdateRoles').map((c) => c.headers['If-Match'])).toEqual([
      '"1"',
      '"2"',
    ]);
    expect(
      calls.filter((c) => c.id === 'teamUpdateRoles').map((c) => (c.body as { role: string[] }).role),
    ).toEqual([['Billing'], ['Billing']]);
  });

  it("toasts the server's error when a change fails", async () => {
    stubApi(
      { ...admin, Role: ['SuperAdmin'] },
      {
        teamList: () => ({ body: { Data: rows } }),
        teamDelete: () => ({
          status: 409,
          body: { ErrorCode: 934, Description: 'The last SuperAdmin cannot be demoted or deleted.' },
        }),
      },
    );
    renderList();
    await screen.findByText('super@example.com');
    fireEvent.click(await within(row('super@example.com')).findByRole('button', { name: 'Delete' }));
    fireEvent.change(
      within(screen.getByRole('dialog')).getByRole('textbox', { name: 'Type super@example.com to confirm' }),
      {
        target: { value: 'super@example.com' },
      },
    );
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    const alert = await screen.findByTestId('toast-error');
    expect(alert.textContent).toContain('The last SuperAdmin cannot be demoted or deleted.');
    expect(screen.getByText('super@example.com')).toBeTruthy();
  });
});

describe('the access review on the super-user list', () => {
  const superViewer: Viewer = {
    Uid: 'u-super',
    Email: 'super@example.com',
    Role: ['SuperAdmin'],
    Permissions: ['team.read', 'team.write', 'audit.read'],
  };
  const review = (State: 'ok' | 'due' | 'overdue' | 'none', extra = {}) => ({
    Review: { State, ConfirmedAt: null, ConfirmedBy: null, DueAt: '2026-02-01T10:00:00.000Z', ...extra },
  });
  const reviewed = [
    user('u-super', 'super@example.com', ['SuperAdmin'], review('due')),
    user('u-support', 'support@example.com', ['Support'], { ...review('overdue'), Version: 4 }),
    user('u-admin', 'admin@example.com', ['Admin'], review('ok')),
    user('u-none', 'none@example.com', [], review('none')),
  ];

  it("shows each member's state and lets a SuperAdmin confirm a colleague's roles at the version read", async () => {
    const api = stubApi(superViewer, {
      teamList: () => ({ body: { Data: reviewed } }),
      teamReviewDecide: () => ({
        body: {
          Data: {
            Uid: 'u-support',
            Decision: 'confirm',
            Roles: ['Support'],
            Version: 5,
            Review: {
              State: 'ok',
              ConfirmedAt: '2026-01-15T10:00:00.000Z',
              ConfirmedBy: 'super@example.com',
              DueAt: '2026-04-15T10:00:00.000Z',
            },
          },
        },
      }),
    });
    renderList();
    await screen.findByText('support@example.com');
    expect(within(row('support@example.com')).getByText('Overdue')).toBeTruthy();
    expect(within(row('admin@example.com')).getByText('Not yet due')).toBeTruthy();
    expect(within(row('none@example.com')).getByText('No roles')).toBeTruthy();
    // never on one's own roles, nor on a member without roles
    expect(within(row('super@example.com')).queryByRole('button', { name: /Confirm the roles/ })).toBeNull();
    expect(within(row('none@example.com')).queryByRole('button', { name: /Confirm the roles/ })).toBeNull();
    // the review's export is offered to a reader of the trail
    expect(screen.getByRole('button', { name: 'Export CSV of Access review' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Confirm roles of support@example.com' }));
    await waitFor(() => expect(within(row('support@example.com')).getByText('Confirmed')).toBeTruthy());
    const [call] = api.callsTo('teamReviewDecide');
    expect(call!.body).toEqual({ Uid: 'u-support', Decision: 'confirm' });
    expect(call!.headers['If-Match'] ?? call!.headers['if-match']).toBe('"4"');
    expect(within(row('support@example.com')).getByText(/Last confirmed by super@example.com/)).toBeTruthy();
  });

  it('asks before removing the roles, naming them', async () => {
    const api = stubApi(superViewer, {
      teamList: () => ({ body: { Data: reviewed } }),
      teamReviewDecide: () => ({
        body: {
          Data: {
            Uid: 'u-support',
            Decision: 'revoke',
            Roles: [],
            Version: 5,
            Review: review('none').Review,
          },
        },
      }),
    });
    renderList();
    await screen.findByText('support@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Remove roles of support@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove every role?' });
    expect(dialog.textContent).toContain('support@example.com loses Support.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove roles' }));
    await waitFor(() => expect(within(row('support@example.com')).getByText('No roles')).toBeTruthy());
    expect(api.callsTo('teamReviewDecide')[0]!.body).toEqual({ Uid: 'u-support', Decision: 'revoke' });
  });

  it('shows an Admin the states but no decisions and no export', async () => {
    stubApi(admin, { teamList: () => ({ body: { Data: reviewed } }) });
    renderList();
    await screen.findByText('support@example.com');
    expect(within(row('support@example.com')).getByText('Overdue')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Confirm the roles/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export CSV of Access review' })).toBeNull();
  });
});
