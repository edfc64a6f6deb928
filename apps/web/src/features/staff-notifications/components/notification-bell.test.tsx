import type { StaffNotification } from '@sac/contract/staff-notifications';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubApi, viewer } from '../../../testing/api-stub.tsx';
import { NotificationBell } from './notification-bell.tsx';

const admin = viewer('Admin', ['impersonation.request']);
const note = (over: Partial<StaffNotification>): StaffNotification => ({
  Id: 1,
  Kind: 'assigned',
  RequestId: 7,
  AppName: 'olive-shop',
  Actor: 'agent@example.com',
  Status: null,
  ExpiresAt: null,
  Count: null,
  JobId: null,
  CreatedAt: new Date(Date.now() - 120_000).toISOString(),
  ReadAt: null,
  ...over,
});

const renderBell = () => renderScreen('/dashboard', [{ path: '/dashboard', element: <NotificationBell /> }]);

describe('NotificationBell', () => {
  it('names its unread count, lists the notifications with links, marks one and all read', async () => {
    let unread = 2;
    const api = stubApi(admin, {
      staffNotifications: () => ({
        body: {
          Data: [
            note({ Id: 2, Kind: 'decided', Status: 'Rejected', RequestId: 8 }),
            note({ Id: 1, ReadAt: unread === 0 ? new Date().toISOString() : null }),
            note({
              Id: 3,
              Kind: 'bulk-approval',
              RequestId: null,
              AppName: null,
              Count: 150,
              JobId: 42,
              ReadAt: new Date().toISOString(),
            }),
            note({
              Id: 0,
              Kind: 'sessions-ended',
              RequestId: null,
              AppName: null,
              Count: 2,
              ReadAt: new Date().toISOString(),
            }),
          ],
          NextCursor: null,
          UnreadCount: unread,
        },
      }),
      staffNotificationsRead: ({ body }) => {
        unread = 'All' in body ? 0 : unread - 1;
        return { body: { Marked: 1, UnreadCount: unread } };
      },
      staffNotificationStream: () => ({ status: 429, body: { ErrorCode: 953, Description: 'Too many' } }),
    });
    renderBell();
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    expect(bell.getAttribute('aria-expanded')).toBe('false');
    await act(async () => void fireEvent.click(bell));
    expect(bell.getAttribute('aria-expanded')).toBe('true');
    const panel = screen.getByRole('region', { name: 'Your notifications' });
    const rejected = within(panel).getByRole('link', {
      name: /agent@example.com rejected your request 8 on olive-shop/,
    });
    expect(rejected.getAttribute('href')).toBe('/manage-superuser/impersonation/assigned-requests?request=8');
    const bulk = within(panel).getByRole('link', {
      name: /agent@example.com asked for bulk job 42 of 150 items: it waits for your approval/,
    });
    expect(bulk.getAttribute('href')).toBe('/bulk-job?id=42');
    const ended = within(panel).getByRole('link', { name: /ended 2 of your sessions/ });
    expect(ended.getAttribute('href')).toBe('/account/sessions');
    expect(within(panel).getByText('Not live: refreshed every minute.')).toBeTruthy();
    await act(
      async () =>
        void fireEvent.click(
          within(panel).getByRole('button', { name: /Mark read: agent@example.com rejected/ }),
        ),
    );
    expect(api.callsTo('staffNotificationsRead')[0]!.body).toEqual({ Ids: [2] });
    await act(async () => void fireEvent.click(within(panel).getByRole('button', { name: 'Mark all read' })));
    await waitFor(() => expect(api.callsTo('staffNotificationsRead')[1]!.body).toEqual({ All: true }));
    await screen.findByRole('button', { name: 'Notifications' });
    // Escape closes it and gives focus back to the bell
    fireEvent.keyDown(screen.getByRole('button', { name: 'Notifications' }), { key: 'Escape' });
    expect(bell.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(bell);
  });

  it('shows an event of the stream at once', async () => {
    let unread = 0;
    stubApi(admin, {
      staffNotifications: () => ({
        body: { Data: unread ? [note({ Id: 5 })] : [], NextCursor: null, UnreadCount: unread },
      }),
      staffNotificationStream: () => {
        unread = 1;
        return {
          body: `retry: 3000\n: connected\n\nid: 5\nevent: notification\ndata: ${JSON.stringify({ Notification: note({ Id: 5 }), UnreadCount: 1 })}\n\n`,
          headers: { 'content-type': 'text/event-stream' },
        };
      },
    });
    renderBell();
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeTruthy();
  });
});
