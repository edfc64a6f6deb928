import type { BulkJob } from '@sac/contract/bulk';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen, stubApi, type Viewer } from '../../../testing/api-stub.tsx';
import ManageSuperuserPage from './manage-superuser-page.tsx';
import { user } from './team-fixtures.ts';

const PATH = '/manage-superuser/manage-superuser';
const renderList = () => renderScreen(PATH, [{ path: PATH, element: <ManageSuperuserPage /> }]);
const admin: Viewer = {
  Uid: 'u-admin',
  Email: 'admin@example.com',
  Role: ['Admin'],
  Permissions: ['team.read', 'team.write'],
};
const rows = [
  user('u-new', 'new@example.com', ['Support'], { Invited: true }),
  user('u-old', 'old@example.com', ['Support']),
  user('u-admin', 'admin@example.com', ['Admin']),
];

const plan: BulkJob = {
  Id: 9,
  Action: 'invitation.resend',
  List: 'team-invitations',
  Uid: null,
  StaffUid: null,
  Selection: { Kind: 'rows', Uids: ['u-new', 'u-old'] },
  Count: 2,
  Bound: 10_000,
  ApprovalOver: 100,
  ApprovalNeeded: false,
  State: 'planned',
  Failure: null,
  Actor: 'admin@example.com',
  ActorUid: 'u-admin',
  ApiToken: null,
  ApprovedBy: null,
  CreatedAt: '2026-01-15T10:00:00.000Z',
  StartedAt: null,
  FinishedAt: null,
  UndoOf: null,
  UndoneBy: null,
  UndoUntil: null,
  Planned: { Change: 1, Refuse: 1 },
  Progress: { Changed: 0, Refused: 0, Cancelled: 0, Pending: 2 },
  Items: [
    {
      Seq: 2,
      Target: 2,
      AppId: 2,
      Key: 'u-old',
      Label: 'old@example.com (old)',
      Planned: 'refuse',
      PlannedReason: 'Not a pending invitee: they accepted their invitation already.',
      Outcome: null,
      OutcomeReason: null,
    },
  ],
  ItemsNext: null,
};

describe('bulk resend of invitations on the team list', () => {
  it('marks pending invitees, and plans the resend of the members picked', async () => {
    const { calls } = stubApi(admin, {
      teamList: () => ({ body: { Data: rows } }),
      bulkInvitationsDryRun: () => ({ body: { Data: plan } }),
    });
    renderList();
    await screen.findByText('new@example.com');
    const newRow = screen.getByRole('cell', { name: 'new@example.com' }).closest('tr')!;
    expect(within(newRow).getByText('Invitation pending')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Bulk actions on the selected members' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select new@example.com' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select old@example.com' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions on the selected members' });
    expect(within(bar).getByText('2 selected')).toBeTruthy();
    expect(within(bar).getByRole('button', { name: 'Select all 3 members' })).toBeTruthy();
    fireEvent.click(within(bar).getByRole('button', { name: 'Resend invitations' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resend invitations' });
    expect(
      await within(dialog).findByText(
        '1 invitation will be sent again (with a new link; the old one stops working).',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByRole('listitem').textContent).toBe(
      'old@example.com (old): Not a pending invitee: they accepted their invitation already.',
    );
    expect(within(dialog).getByText('This cannot be undone.')).toBeTruthy();
    expect(calls.find((c) => c.id === 'bulkInvitationsDryRun')!.body).toEqual({
      Action: 'invitation.resend',
      Selection: { Kind: 'rows', Uids: ['u-new', 'u-old'] },
    });
  });

  it('exports the members picked as the list’s own export does (same columns), and only those', async () => {
    const saved: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (b: Blob) => {
          saved.push(b);
          return 'blob:x';
        },
        revokeObjectURL: vi.fn(),
      }),
    );
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    stubApi(admin, { teamList: () => ({ body: { Data: rows } }) });
    renderList();
    await screen.findByText('new@example.com');
    expect(screen.queryByRole('button', { name: 'Export CSV of the selected members' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select old@example.com' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV of Super users' }));
    await screen.findByText(/Exported 3 rows to superusers-/);
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV of the selected members' }));
    await screen.findByText(/Exported 1 row to superusers-/);
    const [whole, picked] = await Promise.all(saved.map((b) => b.text()));
    const [header, ...lines] = whole!.split('\r\n');
    expect(picked).toBe([header, lines.find((l) => l.startsWith('old@example.com')), ''].join('\r\n'));
    vi.unstubAllGlobals();
  });

  it('offers no selection to a viewer who may not change the team', async () => {
    stubApi({ ...admin, Permissions: ['team.read'] }, { teamList: () => ({ body: { Data: rows } }) });
    renderList();
    await screen.findByText('new@example.com');
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});
