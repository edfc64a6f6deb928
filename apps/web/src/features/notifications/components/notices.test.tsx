import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, stubApi, type Viewer } from '../../../testing/api-stub.tsx';
import ComposeNoticePage from './compose-notice-page.tsx';
import NoticeDetailsPage from './notice-details-page.tsx';
import NotificationsPage from './notifications-page.tsx';

const admin: Viewer = {
  Uid: 'u-ada',
  Email: 'ada@example.com',
  Role: ['Admin'],
  Permissions: ['notices.send'],
};

const notice = (over: Record<string, unknown> = {}) => ({
  Id: 7,
  Kind: 'maintenance' as const,
  Subject: 'Database upgrade',
  Audience: { Type: 'plan' as const, Plans: ['Developer'] },
  Status: 'sending' as const,
  SendAt: '2026-11-26T08:00:00.000Z',
  CreatedAt: '2026-11-26T07:00:00.000Z',
  CreatedBy: 'ada@example.com',
  StartedAt: '2026-11-26T08:00:00.000Z',
  FinishedAt: null,
  CancelledBy: null,
  FailureReason: null,
  Progress: { Total: 10, Sent: 6, Failed: 1, Skipped: 1, Pending: 2 },
  ...over,
});
const OPTIONS = {
  body: {
    Plans: ['Free', 'Developer', 'Developer Premium'],
    DataCenters: [{ Code: 'eu-central', Name: 'EU Central (Frankfurt)' }],
  },
};

afterEach(() => vi.unstubAllGlobals());

describe('customer notices', () => {
  it('lists notices with their status, audience and delivery progress', async () => {
    stubApi(admin, { noticeList: () => ({ body: { Data: [notice()], NextCursor: null } }) });
    renderScreen('/manage-notifications', [
      { path: '/manage-notifications', element: <NotificationsPage /> },
    ]);
    const table = await screen.findByRole('table', { name: 'Customer notices' });
    const link = await within(table).findByRole('link', { name: 'Database upgrade' });
    const row = link.closest('tr')!;
    expect(link.getAttribute('href')).toBe('/manage-notifications/notice?id=7');
    expect(within(row).getByText('Sending')).toBeTruthy();
    expect(within(row).getByText('Plans: Developer')).toBeTruthy();
    const bar = within(row).getByRole('progressbar', { name: 'Delivery progress of Database upgrade' });
    expect(bar.getAttribute('value')).toBe('8');
    expect(bar.getAttribute('max')).toBe('10');
  });

  it('keeps its order in the address, and exports every page as CSV in that order', async () => {
    const { calls } = stubApi(admin, {
      noticeList: ({ url }) =>
        url.searchParams.get('cursor')
          ? { body: { Data: [notice({ Id: 9, Subject: 'Zebra crossing' })], NextCursor: null } }
          : { body: { Data: [notice({ Id: 8, Subject: 'Apple pie' })], NextCursor: 'n2' } },
    });
    const router = renderScreen('/manage-notifications?sort=-subject', [
      { path: '/manage-notifications', element: <NotificationsPage /> },
    ]);
    const table = await screen.findByRole('table', { name: 'Customer notices' });
    await within(table).findByRole('link', { name: 'Apple pie' });
    const header = within(table).getByRole('columnheader', { name: 'Subject' });
    expect(header.getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    fireEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=subject'));
    const saved: Blob[] = [];
    const created = vi.fn((b: Blob) => {
      saved.push(b);
      return 'blob:notices';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV of Customer notices' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const lines = (await saved[0]!.text()).split('\r\n');
    expect(lines[0]).toMatch(/^Subject,Kind,Audience,Status,Send at/);
    expect(lines.slice(1, 3).map((l) => l.split(',')[0])).toEqual(['Apple pie', 'Zebra crossing']);
    expect(
      calls.filter((c) => c.id === 'noticeList').some((c) => c.url.searchParams.get('cursor') === 'n2'),
    ).toBe(true);
    click.mockRestore();
    vi.unstubAllGlobals();
  });

  it('counts the recipients of the audience as it reads, and sends after a confirmation naming them', async () => {
    const api = stubApi(admin, {
      noticeAudienceOptions: () => OPTIONS,
      noticeRecipients: ({ body }) => ({
        body: { Count: body.Audience.Type === 'all' ? 300 : 42, OverLimit: false, Limit: 100_000 },
      }),
      noticeCreate: ({ body }) => ({
        body: { Data: { ...notice({ Subject: body.Subject }), Text: body.Text } },
      }),
      noticeOne: () => ({ body: { Data: { ...notice(), Text: 'x' } } }),
      noticeDeliveries: () => ({ body: { Data: [], NextCursor: null } }),
    });
    renderScreen('/manage-notifications/compose', [
      { path: '/manage-notifications/compose', element: <ComposeNoticePage /> },
      { path: '/manage-notifications/notice', element: <NoticeDetailsPage /> },
    ]);
    await screen.findByText('Owner addresses this audience reaches: 300.');
    fireEvent.click(screen.getByRole('radio', { name: 'By plan' }));
    // Nothing ticked yet: the recipient line says what it needs instead of vanishing.
    await screen.findByText('Tick at least one plan to see how many owners it reaches.');
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Developer' }));
    await screen.findByText('Owner addresses this audience reaches: 42.');
    fireEvent.change(screen.getByLabelText('Subject'), { target: { value: 'Planned work' } });
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'On Sunday.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send notice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send this notice now?' });
    expect(dialog.textContent).toContain('42 owner addresses');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send now' }));
    await waitFor(() => expect(api.callsTo('noticeCreate')).toHaveLength(1));
    expect(api.callsTo('noticeCreate')[0]!.body).toEqual({
      Kind: 'maintenance',
      Subject: 'Planned work',
      Text: 'On Sunday.',
      Audience: { Type: 'plan', Plans: ['Developer'] },
      SendAt: null,
    });
  });

  it('chooses sites by customer or site name, shows them as removable chips, and sends their AppIds', async () => {
    const api = stubApi(admin, {
      noticeAudienceOptions: () => OPTIONS,
      noticeSiteOptions: ({ url }) => ({
        body: {
          Data:
            url.searchParams.get('term') === 'ada'
              ? [
                  {
                    AppId: 11,
                    AppName: 'analytical-engine',
                    OwnerName: 'Ada Lovelace',
                    OwnerEmail: 'ada@x.example',
                  },
                  {
                    AppId: 12,
                    AppName: 'difference-engine',
                    OwnerName: 'Ada Lovelace',
                    OwnerEmail: 'ada@x.example',
                  },
                ]
              : [],
        },
      }),
      noticeRecipients: ({ body }) => ({
        body: { Count: body.Audience.AppIds?.length ?? 300, OverLimit: false, Limit: 100_000 },
      }),
    });
    renderScreen('/manage-notifications/compose', [
      { path: '/manage-notifications/compose', element: <ComposeNoticePage /> },
    ]);
    fireEvent.click(await screen.findByRole('radio', { name: 'Chosen sites' }));
    expect(screen.getByText('No site chosen yet.')).toBeTruthy();
    await screen.findByText('Choose at least one site to see how many owners it reaches.');
    fireEvent.change(screen.getByLabelText('Find a site by customer or site name'), {
      target: { value: 'ada' },
    });
    const results = await screen.findByRole('list', { name: 'Sites found' });
    expect(api.callsTo('noticeSiteOptions')[0]!.url.searchParams.get('term')).toBe('ada');
    fireEvent.click(within(results).getByRole('button', { name: 'Add analytical-engine (Ada Lovelace)' }));
    await screen.findByText('1 chosen site');
    fireEvent.click(
      within(await screen.findByRole('list', { name: 'Sites found' })).getByRole('button', {
        name: 'Add difference-engine (Ada Lovelace)',
      }),
    );
    await screen.findByText('2 chosen sites');
    expect(await screen.findByText('Every site found is chosen already.')).toBeTruthy();
    const chosen = screen.getByRole('list', { name: '2 chosen sites' });
    expect(within(chosen).getByText('analytical-engine').closest('li')?.getAttribute('title')).toBe(
      'AppId 11',
    );
    await screen.findByText('Owner addresses this audience reaches: 2.');
    await waitFor(() =>
      expect(api.callsTo('noticeRecipients').at(-1)!.body).toEqual({
        Audience: { Type: 'sites', AppIds: [11, 12] },
      }),
    );
    fireEvent.click(within(chosen).getByRole('button', { name: 'Remove analytical-engine' }));
    await screen.findByText('1 chosen site');
    await screen.findByText('Owner addresses this audience reaches: 1.');
  });

  it('cancels a scheduled notice after a confirmation', async () => {
    const api = stubApi(admin, {
      noticeOne: () => ({
        body: { Data: { ...notice({ Status: 'scheduled', StartedAt: null }), Text: 'x' } },
      }),
      noticeCancel: () => ({
        body: { Data: { ...notice({ Status: 'cancelled', CancelledBy: 'ada@example.com' }), Text: 'x' } },
      }),
      noticeList: () => ({ body: { Data: [], NextCursor: null } }),
    });
    renderScreen('/manage-notifications/notice?id=7', [
      { path: '/manage-notifications/notice', element: <NoticeDetailsPage /> },
    ]);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel notice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this notice?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel notice' }));
    await waitFor(() => expect(api.callsTo('noticeCancel')[0]?.body).toEqual({ Id: 7 }));
    await waitFor(() => expect(screen.getAllByText('ada@example.com')).toHaveLength(2)); // written and cancelled by
    expect(screen.queryByRole('button', { name: 'Cancel notice' })).toBeNull();
  });
});
