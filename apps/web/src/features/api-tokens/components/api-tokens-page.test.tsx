import type { ApiTokenInfo } from '@sac/contract/api-tokens';
import { PERMISSIONS } from '@sac/contract/permissions';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubApi, viewer } from '../../../testing/api-stub.tsx';
import ApiTokensPage from './api-tokens-page.tsx';

const PATH = '/account/api-tokens';
const token = (Id: number, over: Partial<ApiTokenInfo> = {}): ApiTokenInfo => ({
  Id,
  Name: `token ${Id}`,
  OwnerUid: 'u1',
  OwnerEmail: 'sam@example.com',
  Service: false,
  Permissions: ['customers.read'],
  AllowedAddresses: [],
  CreatedAt: '2026-11-26T08:00:00.000Z',
  ExpiresAt: '2099-01-01T00:00:00.000Z',
  LastUsedAt: null,
  LastUsedAddress: null,
  RevokedAt: null,
  ...over,
});

describe('API tokens', () => {
  it('offers only my permissions, shows a new token once, and revokes after a confirmation', async () => {
    let rows = [token(1)];
    const { calls } = stubApi(viewer('Auditor', ['activity.read', 'audit.read']), {
      apiTokenList: () => ({ body: { Data: rows } }),
      apiTokenCreate: () => {
        rows = [token(2, { Name: 'Nightly' }), ...rows];
        return { body: { Token: 'sac_secret', Data: rows[0]! } };
      },
      apiTokenRevoke: () => {
        rows = rows.map((r) => (r.Id === 2 ? { ...r, RevokedAt: '2026-11-26T09:00:00.000Z' } : r));
        return { body: { IsPosted: true, Message: 'The token was revoked.' } };
      },
    });
    renderScreen(PATH, [{ path: PATH, element: <ApiTokensPage /> }]);
    const permissions = await screen.findByRole('group', { name: 'Permissions' });
    await waitFor(() => expect(within(permissions).getAllByRole('checkbox')).toHaveLength(2));
    expect(within(permissions).getByRole('checkbox', { name: /activity\.read/ })).toBeTruthy();
    expect(within(permissions).queryByRole('checkbox', { name: /customers\.read/ })).toBeNull();
    // No address allowlist for anyone but a SuperAdmin.
    expect(screen.queryByRole('region', { name: 'Address allowlist' })).toBeNull();

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Nightly' } });
    fireEvent.click(within(permissions).getByRole('checkbox', { name: /activity\.read/ }));
    fireEvent.change(screen.getByLabelText('Allowed addresses (optional)'), {
      target: { value: '203.0.113.0/24\n\n2001:db8::/32' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('sac_secret')).toBeTruthy();
    expect(calls.find((c) => c.id === 'apiTokenCreate')?.body).toEqual({
      Name: 'Nightly',
      ExpiresInDays: 30,
      Permissions: ['activity.read'],
      AllowedAddresses: ['203.0.113.0/24', '2001:db8::/32'],
    });
    fireEvent.click(screen.getByRole('button', { name: 'Done, I copied it' }));
    expect(screen.queryByText('sac_secret')).toBeNull();

    const table = await screen.findByRole('table', { name: 'Tokens' });
    await within(table).findByText('Nightly');
    fireEvent.click(within(table).getByRole('button', { name: 'Revoke Nightly' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('The token was revoked.')).toBeTruthy();
    await waitFor(() => expect(within(table).getAllByText('Revoked').length).toBe(1));
    expect(calls.find((c) => c.id === 'apiTokenRevoke')?.body).toEqual({ Id: 2 });
  });

  it('lets a SuperAdmin make a service account with its roles, checked before it is sent', async () => {
    const { calls } = stubApi(viewer('SuperAdmin', [...PERMISSIONS]), {
      apiTokenList: () => ({ body: { Data: [] } }),
      teamList: () => ({ body: { Data: [] } }),
      addressAllowlist: () => ({ body: { Entries: [], YourAddress: '127.0.0.1' } }),
      teamRoles: () => ({
        body: {
          Data: [
            { Name: 'Admin', Description: 'a', Permissions: [] },
            { Name: 'Support', Description: 's', Permissions: [] },
          ],
        },
      }),
      serviceAccountCreate: () => ({ body: { Uid: 'u-svc', Email: 'svc-nightly@service.invalid' } }),
    });
    renderScreen(PATH, [{ path: PATH, element: <ApiTokensPage /> }]);
    const card = await screen.findByRole('region', { name: 'New service account' });
    fireEvent.click(within(card).getByRole('button', { name: 'Create service account' }));
    expect(await within(card).findByText('Name is required.')).toBeTruthy();
    expect(within(card).getByText('Choose at least one role.')).toBeTruthy();
    expect(calls.some((c) => c.id === 'serviceAccountCreate')).toBe(false);
    fireEvent.change(within(card).getByLabelText('Name'), { target: { value: 'Nightly export' } });
    fireEvent.click(await within(card).findByRole('checkbox', { name: 'Support' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Create service account' }));
    expect(
      await screen.findByText('Service account svc-nightly@service.invalid made: make its tokens above.'),
    ).toBeTruthy();
    expect(calls.find((c) => c.id === 'serviceAccountCreate')?.body).toEqual({
      Name: 'Nightly export',
      Roles: ['Support'],
    });
  });
});
