import { TEAM_MESSAGES } from '@sac/contract/team';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorAnswer, renderScreen, stubApi, type Viewer } from '../../../testing/api-stub.tsx';
import ManageSuperuserPage from './manage-superuser-page.tsx';
import { user } from './team-fixtures.ts';

const PATH = '/manage-superuser/manage-superuser';
const renderList = () => renderScreen(PATH, [{ path: PATH, element: <ManageSuperuserPage /> }]);
const superAdmin = (coolingUntil: string | null = null): Viewer => ({
  Uid: 'u-me',
  Email: 'me@example.com',
  Role: ['SuperAdmin'],
  Permissions: ['team.read', 'team.write'],
  CanApproveImpersonationFrom: coolingUntil,
});
const rows = [
  user('u-new', 'new@example.com', ['Support'], { Invited: true }),
  user('u-boss', 'boss@example.com', ['SuperAdmin'], { Invited: true }),
  user('u-gone', 'gone@example.com', ['Support'], { Invited: true, DeactivatedAt: '2026-01-10T00:00:00Z' }),
  user('u-old', 'old@example.com', ['Support']),
];
const row = (email: string) => screen.getByRole('cell', { name: email }).closest('tr')!;

describe('resend one invitation from the team list', () => {
  it('offers it on a pending invitee only, asks first, and says it went', async () => {
    const { calls } = stubApi(superAdmin(), {
      teamList: () => ({ body: { Data: rows } }),
      teamResendInvitation: ({ body }) => ({
        body: {
          Uid: body.uid,
          Email: 'new@example.com',
          Message: TEAM_MESSAGES.invitationResent('new@example.com'),
        },
      }),
    });
    renderList();
    await screen.findByText('new@example.com');
    const resend = await within(row('new@example.com')).findByRole('button', { name: 'Resend invitation' });
    for (const email of ['gone@example.com', 'old@example.com'])
      expect(within(row(email)).queryByRole('button', { name: 'Resend invitation' })).toBeNull();
    fireEvent.click(resend);
    const dialog = screen.getByRole('dialog', { name: 'Resend the invitation' });
    expect(dialog.textContent).toContain('Send new@example.com their invitation again?');
    expect(calls.some((c) => c.id === 'teamResendInvitation')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Resend' }));
    expect(
      await screen.findByText(
        'The invitation was sent again to new@example.com. The link sent before no longer works.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.id === 'teamResendInvitation')!.body).toEqual({ uid: 'u-new' });
  });

  it("holds it back on a SuperAdmin invitee during the viewer's cool-down, and shows the server's refusal", async () => {
    const until = new Date(Date.now() + 3_600_000).toISOString();
    stubApi(superAdmin(until), {
      teamList: () => ({ body: { Data: rows } }),
      teamResendInvitation: () =>
        errorAnswer(
          409,
          1196,
          'This member has no pending invitation: they accepted it, or were deactivated.',
        ),
    });
    renderList();
    await screen.findByText('boss@example.com');
    const held = await within(row('boss@example.com')).findByRole('button', { name: 'Resend invitation' });
    expect(held).toHaveProperty('disabled', true);
    expect(held.getAttribute('aria-describedby')).toBe('team-cool-down');
    fireEvent.click(within(row('new@example.com')).getByRole('button', { name: 'Resend invitation' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Resend' }));
    expect(
      await screen.findByText(
        'This member has no pending invitation: they accepted it, or were deactivated.',
      ),
    ).toBeTruthy();
  });
});
