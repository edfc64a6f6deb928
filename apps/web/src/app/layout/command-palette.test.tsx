import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../../features/impersonation/components/impersonation-fixtures.ts';
import { renderScreen, stubApi, type Viewer } from '../../testing/api-stub.tsx';
import { CommandPalette } from './command-palette.tsx';

const admin: Viewer = {
  Uid: 'u-ada',
  Email: 'ada@example.com',
  Role: ['Admin'],
  Permissions: ['customers.read', 'team.read', 'impersonation.request'],
};
const render = () =>
  renderScreen('/dashboard', [
    { path: '/dashboard', element: <CommandPalette /> },
    { path: '/manage-customer/view-customer', element: <p>customer view</p> },
    { path: '/manage-superuser/manage-superuser', element: <p>team</p> },
  ]);
/** Ctrl+K, once the palette listens (after a navigation it mounts anew). */
const open = async () => {
  await waitFor(() => {
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    expect(screen.getByRole('dialog', { name: 'Go to' })).toBeTruthy();
  });
  return screen.getByRole('dialog', { name: 'Go to' });
};

afterEach(() => localStorage.clear());

describe('command palette', () => {
  it('opens with Ctrl+K and goes to a screen the user may open by keyboard alone; it comes first next time', async () => {
    stubApi(admin, {});
    const router = render();
    const dialog = await open();
    const box = within(dialog).getByRole('combobox', { name: 'Screen, customer, staff member or request' });
    expect(document.activeElement).toBe(box);
    fireEvent.change(box, { target: { value: 'superuser' } });
    const options = within(dialog).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Manage Superuser — Manage SuperuserScreen',
      'Assigned Impersonation Requests — Manage SuperuserScreen',
    ]);
    // Without team.write, Create Superuser is not offered; without audit.read, nor the audit trail.
    fireEvent.change(box, { target: { value: 'audit' } });
    expect(within(dialog).queryAllByRole('option')).toHaveLength(0);
    fireEvent.change(box, { target: { value: 'manage super' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage-superuser/manage-superuser'));

    await router.navigate('/dashboard');
    const again = await open();
    expect(within(again).getAllByRole('option')[0]!.textContent).toBe(
      'Manage Superuser — Manage SuperuserRecent',
    );
  });

  it('finds a customer by name from three letters, and Enter opens their view', async () => {
    const { callsTo } = stubApi(admin, {
      searchCustomer: () => ({
        body: {
          Data: [
            {
              Uid: '00000000-0000-4000-8000-000000000042',
              FirstName: 'Ada',
              LastName: 'Lovelace',
              FullName: 'Ada Lovelace',
              Email: 'ada@analytical.example',
              Status: 'Active',
              Role: 'Owner',
              CreatedDate: '2024-03-07T10:00:00.000Z',
              ModifiedDate: '2024-05-01T23:30:00.000Z',
            },
          ],
          Criterion: 'customerName',
          Capped: false,
          Limit: 1000,
          Total: 1,
          NextCursor: '',
        },
      }),
      teamList: () => ({ body: { Data: [] } }),
    });
    const router = render();
    const dialog = await open();
    const box = within(dialog).getByRole('combobox');
    fireEvent.change(box, { target: { value: 'lovelace' } });
    const option = await within(dialog).findByRole('option', {
      name: /Ada Lovelace · ada@analytical.example/,
    });
    expect(callsTo('searchCustomer')[0]!.url.searchParams.get('customerName')).toBe('lovelace');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(option.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() =>
      expect(router.state.location.search).toBe('?uid=00000000-0000-4000-8000-000000000042'),
    );
  });

  it('finds an impersonation request by its Id, and Enter opens it on the requests screen', async () => {
    const { callsTo } = stubApi(admin, {
      impersonationList: ({ url }) => ({
        body: { Data: url.searchParams.get('requestId') === '42' ? [request(42)] : [], NextCursor: null },
      }),
      searchCustomer: () => ({ status: 400, body: { ErrorCode: 927, Message: 'No match', Description: '' } }),
      teamList: () => ({ body: { Data: [] } }),
    });
    const router = renderScreen('/dashboard', [
      { path: '/dashboard', element: <CommandPalette /> },
      { path: '/manage-superuser/impersonation/assigned-requests', element: <p>requests</p> },
    ]);
    const dialog = await open();
    const box = within(dialog).getByRole('combobox');
    fireEvent.change(box, { target: { value: '#42' } });
    const option = await within(dialog).findByRole('option', { name: /^#42 · .*Request$/ });
    expect(option.getAttribute('aria-selected')).toBe('true');
    // '#42' is a request Id only: no customer is looked up for it.
    expect(callsTo('searchCustomer')).toHaveLength(0);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(router.state.location.search).toBe('?request=42'));
  });

  it('shows the shortcuts with ?', async () => {
    stubApi(admin, {});
    render();
    fireEvent.keyDown(document.body, { key: '?' });
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(sheet).getByText('Go to a screen, a customer or a staff member')).toBeTruthy();
  });
});
