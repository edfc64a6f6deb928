import type { BulkJob } from '@sac/contract/bulk';
import { PERMISSIONS } from '@sac/contract/permissions';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { buildRoutes } from '../../../app/router.tsx';
import { renderRouter, stubApi, viewer } from '../../../testing/api-stub.tsx';

const superAdmin = viewer('SuperAdmin', [...PERMISSIONS]);

/** A finished job of `list`, as GET /admin/bulk/job answers it. */
function jobOf(list: BulkJob['List'], also: Partial<BulkJob> = {}): BulkJob {
  const action = (
    {
      'customer-sites': 'site.deactivate',
      'impersonation-requests': 'request.reject',
      'staff-sessions': 'session.end',
      'team-invitations': 'invitation.resend',
      customers: 'customer.deactivate-sites',
    } as const
  )[list];
  return {
    Id: 42,
    Action: action,
    List: list,
    Uid: list === 'customer-sites' ? 'cust-1' : null,
    StaffUid: list === 'staff-sessions' ? 'staff-1' : null,
    Selection: { Kind: 'all' },
    Count: 1,
    Bound: 10_000,
    ApprovalOver: 100,
    ApprovalNeeded: false,
    State: 'done',
    Failure: null,
    Actor: 'boss@example.com',
    ActorUid: 'u-boss',
    ApiToken: null,
    ApprovedBy: null,
    CreatedAt: '2026-01-15T10:00:00.000Z',
    StartedAt: '2026-01-15T10:00:01.000Z',
    FinishedAt: '2026-01-15T10:00:02.000Z',
    UndoOf: null,
    UndoneBy: null,
    UndoUntil: null,
    Planned: { Change: 1, Refuse: 0 },
    Progress: { Changed: 1, Refused: 0, Cancelled: 0, Pending: 0 },
    Items: [],
    ItemsNext: null,
    ...also,
  };
}

/** The console at `path` (its whole route table and shell), answering the job read with `job`. */
function openAt(path: string, job: BulkJob) {
  const { calls } = stubApi(superAdmin, { bulkJob: () => ({ body: { Data: job } }) });
  const router = renderRouter(createMemoryRouter(buildRoutes(), { initialEntries: [path] }));
  return { router, calls };
}
const crumbs = async () => {
  const nav = await screen.findByRole('navigation', { name: 'Breadcrumb' });
  await waitFor(() => expect(within(nav).getByText('Bulk job')).toBeTruthy());
  return within(nav)
    .getAllByRole('listitem')
    .map((li) => {
      const link = li.querySelector('a');
      return link ? `${li.textContent} -> ${link.getAttribute('href')}` : li.textContent;
    });
};

describe('the bulk job page', () => {
  it('is at /bulk-job, under the job’s own list: its breadcrumb and back link name that list', async () => {
    openAt('/bulk-job?id=42', jobOf('impersonation-requests'));
    await screen.findByRole('heading', { level: 1, name: 'Bulk job 42' });
    await waitFor(async () =>
      expect(await crumbs()).toEqual([
        'Manage Superuser -> /manage-superuser',
        'Impersonation',
        'Assigned Impersonation Requests -> /manage-superuser/impersonation/assigned-requests',
        'Bulk job',
      ]),
    );
    expect(await screen.findByRole('link', { name: 'Back to the impersonation requests' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Bulk job | Super Admin Console'));
  });

  it.each([
    [
      'customer-sites',
      ['Manage Customer -> /manage-customer', 'View Customer -> /manage-customer/view-customer?uid=cust-1'],
      'Back to the customer',
    ],
    ['team-invitations', ['Manage Superuser -> /manage-superuser/manage-superuser'], 'Back to the team list'],
    [
      'staff-sessions',
      [
        'Manage Superuser -> /manage-superuser',
        'Profile',
        'Super User Profile -> /manage-superuser/profile/staff-1',
      ],
      'Back to the staff member’s sessions',
    ],
  ] as const)('names the list of a %s job', async (list, above, back) => {
    openAt('/bulk-job?id=42', jobOf(list));
    await screen.findByRole('heading', { level: 1, name: 'Bulk job 42' });
    await waitFor(async () => expect(await crumbs()).toEqual([...above, 'Bulk job']));
    const link = await screen.findByRole('link', { name: back });
    expect(link.getAttribute('href')).toBe(above.at(-1)!.split(' -> ')[1]);
  });

  it('sends the address links were mailed with before to the page’s own, keeping the job', async () => {
    const { router, calls } = openAt('/manage-customer/bulk-job?id=42', jobOf('team-invitations'));
    await screen.findByRole('heading', { level: 1, name: 'Bulk job 42' });
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/bulk-job?id=42');
    expect(calls.find((c) => c.id === 'bulkJob')!.url.search).toBe('?id=42');
  });

  it('names the API token the job was asked for with, beside its requester, and a deleted one as such', async () => {
    openAt('/bulk-job?id=42', jobOf('customer-sites', { ApiToken: { Id: 7, Name: 'nightly script' } }));
    const about = await screen.findByText(/asked for by boss@example\.com/);
    expect(about.textContent).toBe(
      'Deactivation of 1 site, asked for by boss@example.com with the API token “nightly script”.',
    );
    cleanup();
    openAt('/bulk-job?id=42', jobOf('customer-sites', { ApiToken: { Id: 7, Name: null } }));
    expect((await screen.findByText(/asked for by boss@example\.com/)).textContent).toBe(
      'Deactivation of 1 site, asked for by boss@example.com with an API token since deleted.',
    );
    cleanup();
    openAt('/bulk-job?id=42', jobOf('customer-sites'));
    expect((await screen.findByText(/asked for by boss@example\.com/)).textContent).toBe(
      'Deactivation of 1 site, asked for by boss@example.com.',
    );
  });

  it('says why a failed job did not run', async () => {
    const why = 'The requester may no longer run this job: they no longer hold sites.write.';
    openAt(
      '/bulk-job?id=42',
      jobOf('customer-sites', {
        State: 'failed',
        Failure: why,
        Progress: { Changed: 0, Refused: 1, Cancelled: 0, Pending: 0 },
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(why);
    expect(screen.getByText(/^Failed: it was not run\./)).toBeTruthy();
  });
});
