import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubApi, type Viewer } from '../../../testing/api-stub.tsx';
import SuperuserProfilePage from './superuser-profile-page.tsx';

const PATH = '/manage-superuser/profile/:uid';
const profile = (Uid: string, email: string, Roles: string[]) => ({
  Uid,
  FullName: email.split('@')[0]!,
  Email: [{ Type: 'Primary', Value: email }],
  Roles,
  CreatedDate: '2026-01-02T03:04:05.000Z',
  LastLoginDate: null,
  Version: 1,
  Permissions: ['customers.read'],
  PasswordChangedDate: null,
  Invited: false,
});
const superAdmin: Viewer = {
  Uid: 'u-boss',
  Email: 'boss@example.com',
  Role: ['SuperAdmin'],
  Permissions: ['team.read', 'team.write'],
};
const sessionRow = {
  Id: 7,
  StartedAt: '2026-11-26T08:00:00.000Z',
  LastUsedAt: '2026-11-26T09:00:00.000Z',
  ClientAddress: '198.51.100.7',
  Browser: 'Chrome 142 on Linux',
  Current: false,
  ImpersonatedSite: 'shop',
};

describe('super user profile', () => {
  it("shows a SuperAdmin a colleague's sessions and ends all of them", async () => {
    let rows = [sessionRow];
    const { calls } = stubApi(superAdmin, {
      teamProfile: () => ({ body: { Data: profile('u-ada', 'ada@example.com', ['Admin']) } }),
      staffSessions: () => ({ body: { Data: rows } }),
      endStaffSessions: () => {
        rows = [];
        return { body: { Ended: 1, Message: '1 session ended.' } };
      },
    });
    renderScreen('/manage-superuser/profile/u-ada', [{ path: PATH, element: <SuperuserProfilePage /> }]);
    const table = await screen.findByRole('table', { name: 'Sessions of ada@example.com' });
    expect(await within(table).findByText('198.51.100.7')).toBeTruthy();
    expect(within(table).getByText('(impersonating shop)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'End all their sessions' }));
    expect(await screen.findByText('1 session ended.')).toBeTruthy();
    await waitFor(() => expect(within(table).queryByText('198.51.100.7')).toBeNull());
    expect(calls.find((c) => c.id === 'endStaffSessions')?.body).toEqual({ uid: 'u-ada' });
  });

  it('shows no sessions section on my own profile, nor to an Admin', async () => {
    const { calls } = stubApi(superAdmin, {
      teamProfile: () => ({ body: { Data: profile('u-boss', 'boss@example.com', ['SuperAdmin']) } }),
    });
    renderScreen('/manage-superuser/profile/u-boss', [{ path: PATH, element: <SuperuserProfilePage /> }]);
    expect(await screen.findByText('boss@example.com')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: /Sessions of/ })).toBeNull();
    expect(calls.some((c) => c.id === 'staffSessions')).toBe(false);
  });

  it("lets a SuperAdmin reset a colleague's second factors, after asking", async () => {
    const { calls } = stubApi(superAdmin, {
      teamProfile: () => ({ body: { Data: profile('u-ada', 'ada@example.com', ['Admin']) } }),
      staffSessions: () => ({ body: { Data: [] } }),
      staffFactorsReset: () => ({
        body: { Message: 'The second factors of ada@example.com have been removed.' },
      }),
    });
    renderScreen('/manage-superuser/profile/u-ada', [{ path: PATH, element: <SuperuserProfilePage /> }]);
    fireEvent.click(await screen.findByRole('button', { name: 'Reset second factors' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Reset the second factors of ada@example.com?',
    });
    expect(calls.some((c) => c.id === 'staffFactorsReset')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset second factors' }));
    expect(await screen.findByText('The second factors of ada@example.com have been removed.')).toBeTruthy();
    expect(calls.find((c) => c.id === 'staffFactorsReset')?.body).toEqual({ uid: 'u-ada' });
  });

  it("holds back ending a SuperAdmin's sessions and resetting their factors during the viewer's cool-down", async () => {
    const newSuper: Viewer = {
      ...superAdmin,
      CanApproveImpersonationFrom: new Date(Date.now() + 3_600_000).toISOString(),
    };
    stubApi(newSuper, {
      teamProfile: () => ({ body: { Data: profile('u-old', 'old@example.com', ['SuperAdmin']) } }),
      staffSessions: () => ({ body: { Data: [sessionRow] } }),
    });
    renderScreen('/manage-superuser/profile/u-old', [{ path: PATH, element: <SuperuserProfilePage /> }]);
    const table = await screen.findByRole('table', { name: 'Sessions of old@example.com' });
    await within(table).findByText('198.51.100.7');
    for (const button of [
      screen.getByRole('button', { name: 'End all their sessions' }),
      screen.getByRole('button', { name: 'Reset second factors' }),
      within(table).getByRole('button', { name: 'End' }),
    ]) {
      expect(button).toHaveProperty('disabled', true);
      expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(
        /You became a SuperAdmin recently: .* from \d\d-\d\d-\d{4} \d\d:\d\d UTC\./,
      );
    }
  });

  it("leaves a non-SuperAdmin colleague's sessions and factors to a SuperAdmin in the cool-down", async () => {
    const newSuper: Viewer = {
      ...superAdmin,
      CanApproveImpersonationFrom: new Date(Date.now() + 3_600_000).toISOString(),
    };
    stubApi(newSuper, {
      teamProfile: () => ({ body: { Data: profile('u-ada', 'ada@example.com', ['Admin']) } }),
      staffSessions: () => ({ body: { Data: [sessionRow] } }),
    });
    renderScreen('/manage-superuser/profile/u-ada', [{ path: PATH, element: <SuperuserProfilePage /> }]);
    await screen.findByRole('table', { name: 'Sessions of ada@example.com' });
    expect(screen.getByRole('button', { name: 'Reset second factors' })).toHaveProperty('disabled', false);
    expect(screen.queryByText(/You became a SuperAdmin recently/)).toBeNull();
  });
});
