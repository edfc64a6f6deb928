import { PERMISSIONS } from '@sac/contract/permissions';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGES,
  type WebhookDelivery,
  type WebhookSubscription,
} from '@sac/contract/webhooks';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubApi, viewer } from '../../../testing/api-stub.tsx';
import WebhookPage from './webhook-page.tsx';
import WebhooksPage from './webhooks-page.tsx';

const LIST = '/manage-superuser/webhooks';
const ONE = '/manage-superuser/webhook';
const superAdmin = viewer('SuperAdmin', [...PERMISSIONS]);
const EVENT_TYPES = WEBHOOK_EVENT_TYPES.map((Type) => ({
  Type,
  Description: WEBHOOK_EVENTS[Type].description,
}));

const sub = (Id: number, over: Partial<WebhookSubscription> = {}): WebhookSubscription => ({
  Id,
  Url: `https://hooks.example.com/${Id}`,
  Description: `receiver ${Id}`,
  EventTypes: ['impersonation.approved', 'impersonation.requested'],
  State: 'active',
  PausedReason: null,
  PausedAt: null,
  PausedBy: null,
  FailingSince: null,
  CreatedAt: '2026-11-26T08:00:00.000Z',
  CreatedBy: 'superadmin@example.com',
  SecretRotatedAt: null,
  PreviousSecretUntil: null,
  Delivered24h: 7,
  Failed24h: 2,
  Pending: 0,
  LastDeliveredAt: '2026-11-26T09:00:00.000Z',
  Version: 3,
  ...over,
});
const listAnswer = (Data: WebhookSubscription[]) => ({
  body: { Data, EventTypes: EVENT_TYPES, PrivateAddressesAllowed: false },
});

describe('Webhooks list', () => {
  it('shows each subscription with its types, state and last day, and why a paused one is paused', async () => {
    stubApi(superAdmin, {
      webhookList: () =>
        listAnswer([
          sub(1),
          sub(2, {
            State: 'paused',
            PausedReason: 'failing',
            PausedAt: '2026-11-27T10:00:00.000Z',
            FailingSince: '2026-11-26T10:00:00.000Z',
            EventTypes: ['staff.created'],
          }),
          sub(3, { State: 'paused', PausedReason: 'manual', PausedBy: 'sam@example.com' }),
        ]),
    });
    renderScreen(LIST, [{ path: LIST, element: <WebhooksPage /> }]);
    const table = await screen.findByRole('table', { name: 'Subscriptions' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    const first = rows[1]!;
    expect(
      within(first).getByRole('link', { name: 'https://hooks.example.com/1' }).getAttribute('href'),
    ).toBe('/manage-superuser/webhook?id=1');
    expect(within(first).getByText('receiver 1')).toBeTruthy();
    expect(within(first).getByText('2 types')).toBeTruthy();
    expect(within(first).getByText('impersonation.approved')).toBeTruthy();
    expect(within(first).getByText('Active')).toBeTruthy();
    expect(within(first).getByText('7 delivered')).toBeTruthy();
    expect(within(first).getByText('2 failed')).toBeTruthy();
    expect(within(rows[2]!).getByText('1 type')).toBeTruthy();
    expect(within(rows[2]!).getByText('Paused')).toBeTruthy();
    expect(within(rows[2]!).getByText('Paused after failing since 11-26-2026 10:00')).toBeTruthy();
    expect(within(rows[3]!).getByText('Paused by sam@example.com')).toBeTruthy();
  });

  it('explains webhooks when there are none, with the Standard Webhooks guide', async () => {
    stubApi(superAdmin, { webhookList: () => listAnswer([]) });
    renderScreen(LIST, [{ path: LIST, element: <WebhooksPage /> }]);
    expect(await screen.findByRole('heading', { name: 'No webhook subscriptions yet' })).toBeTruthy();
    expect(screen.getByText(/Standard Webhooks/)).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'How to receive and verify webhooks' }).getAttribute('href'),
    ).toBe('/docs/webhooks');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows what is missing, then the server’s word on the address, then the secret once', async () => {
    let refuse = true;
    const { calls } = stubApi(superAdmin, {
      webhookList: () => listAnswer([]),
      webhookCreate: () => {
        if (refuse) {
          refuse = false;
          const message = WEBHOOK_MESSAGES.urlPrivate('hooks.internal', '10.0.0.5');
          return {
            status: 400,
            body: {
              ErrorCode: 1140,
              Description: message,
              Message: message,
              FieldErrors: [{ Field: 'Url', Message: message }],
            },
          };
        }
        return { body: { Data: sub(9), Secret: 'whsec_c2VjcmV0LXNlY3JldA==' } };
      },
    });
    renderScreen(LIST, [{ path: LIST, element: <WebhooksPage /> }]);
    fireEvent.click(await screen.findByRole('button', { name: 'New subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'New webhook subscription' });
    expect(within(dialog).getByText(/private and link-local addresses are refused/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create subscription' }));
    expect(await within(dialog).findByText(WEBHOOK_MESSAGES.urlRequired)).toBeTruthy();
    expect(within(dialog).getByText(WEBHOOK_MESSAGES.typesRequired)).toBeTruthy();
    expect(calls.some((c) => c.id === 'webhookCreate')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Endpoint URL'), {
      target: { value: 'https://hooks.internal/in' },
    });
    // A group's box chooses all of it; each type says what it means.
    const impersonation = within(dialog).getByRole('group', { name: 'Impersonation' });
    expect(
      within(impersonation).getByText(WEBHOOK_EVENTS['impersonation.approved'].description),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'All Customers events' }));
    fireEvent.click(within(impersonation).getByRole('checkbox', { name: 'impersonation.approved' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create subscription' }));
    const refused = await within(dialog).findByText(
      /loopback, private or link-local address \(10\.0\.0\.5\)/,
    );
    const url = within(dialog).getByLabelText('Endpoint URL');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(url.getAttribute('aria-describedby')).toContain(refused.id);
    expect(calls.find((c) => c.id === 'webhookCreate')?.body).toEqual({
      Url: 'https://hooks.internal/in',
      Description: '',
      EventTypes: ['impersonation.approved', 'customer.created', 'customer.status_changed'],
    });

    fireEvent.change(url, { target: { value: 'https://hooks.example.com/in' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create subscription' }));
    const secret = await screen.findByRole('dialog', { name: 'Signing secret' });
    expect(within(secret).getByText('whsec_c2VjcmV0LXNlY3JldA==')).toBeTruthy();
    expect(within(secret).getByText(/you will not see it again/)).toBeTruthy();
    expect(within(secret).getByRole('button', { name: 'Copy secret' })).toBeTruthy();
    fireEvent.click(within(secret).getByRole('button', { name: 'Done, I copied it' }));
    await waitFor(() => expect(screen.queryByText('whsec_c2VjcmV0LXNlY3JldA==')).toBeNull());
  });
});

const delivery = (Id: number, over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  Id,
  EventId: `msg_${Id}`,
  EventType: 'impersonation.approved',
  CreatedAt: '2026-11-26T08:00:00.000Z',
  State: 'delivered',
  Attempts: [{ At: '2026-11-26T08:00:01.000Z', Code: 200, Error: null, DurationMs: 42 }],
  NextAttemptAt: null,
  DeliveredAt: '2026-11-26T08:00:01.000Z',
  Payload: JSON.stringify({ Action: 'impersonation.approve', Note: '<img src=x onerror=alert(1)>' }),
  RedeliveryOf: null,
  ...over,
});

describe('A webhook subscription', () => {
  it('shows its log with attempts and the body as text, and sends a delivered one again', async () => {
    const { calls } = stubApi(superAdmin, {
      webhookList: () => listAnswer([sub(4)]),
      webhookDeliveries: () => ({
        body: {
          Data: [
            delivery(11),
            delivery(10, {
              State: 'pending',
              EventType: 'impersonation.requested',
              Attempts: [
                { At: '2026-11-26T07:00:01.000Z', Code: null, Error: 'timed out', DurationMs: 15000 },
              ],
              NextAttemptAt: '2099-01-01T00:00:00.000Z',
              DeliveredAt: null,
            }),
          ],
          Before: null,
        },
      }),
      webhookRedeliver: () => ({ body: { DeliveryId: 12 } }),
    });
    renderScreen(`${ONE}?id=4`, [{ path: ONE, element: <WebhookPage /> }]);
    const log = await screen.findByRole('list', { name: 'Delivery log' });
    const delivered = within(log).getByRole('listitem', { name: 'impersonation.approved msg_11' });
    expect(within(delivered).getByText('Delivered')).toBeTruthy();
    expect(within(delivered).getAllByText(/HTTP 200 after 42 ms/).length).toBeGreaterThan(0);
    const pre = delivered.querySelector('pre')!;
    expect(pre.textContent).toContain('"Note": "<img src=x onerror=alert(1)>"');
    expect(pre.querySelector('img')).toBeNull();
    const pending = within(log).getByRole('listitem', { name: 'impersonation.requested msg_10' });
    expect(within(pending).getAllByText(/No answer after 15000 ms · timed out/).length).toBeGreaterThan(0);
    expect(within(pending).getByText(/Next attempt/)).toBeTruthy();
    expect(within(pending).queryByRole('button', { name: 'Send again' })).toBeNull();
    expect(screen.getByText('Refreshing every few seconds while a delivery is pending.')).toBeTruthy();

    fireEvent.click(within(delivered).getByRole('button', { name: 'Send again' }));
    expect(await screen.findByText('The event is sent again, with the same webhook-id.')).toBeTruthy();
    expect(calls.find((c) => c.id === 'webhookRedeliver')?.body).toEqual({ Id: 4, DeliveryId: 11 });
  });

  it('says why Send again is off while paused, and shows the rotated secret once', async () => {
    const { calls } = stubApi(superAdmin, {
      webhookList: () =>
        listAnswer([sub(5, { State: 'paused', PausedReason: 'manual', PausedBy: 'sam@example.com' })]),
      webhookDeliveries: () => ({ body: { Data: [delivery(20, { State: 'failed' })], Before: null } }),
      webhookRotateSecret: () => ({
        body: { Data: sub(5, { PreviousSecretUntil: '2026-11-27T08:00:00.000Z' }), Secret: 'whsec_bmV3' },
      }),
    });
    renderScreen(`${ONE}?id=5`, [{ path: ONE, element: <WebhookPage /> }]);
    const again = await screen.findByRole('button', { name: 'Send again' });
    expect((again as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Resume the subscription to send events again.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resume' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Rotate secret' }));
    const ask = await screen.findByRole('dialog', { name: 'Rotate the signing secret?' });
    const hours = within(ask).getByLabelText('Overlap (hours)');
    expect((hours as HTMLInputElement).value).toBe('24');
    fireEvent.change(hours, { target: { value: '80' } });
    expect(within(ask).getByText(WEBHOOK_MESSAGES.overlap)).toBeTruthy();
    fireEvent.change(hours, { target: { value: '2' } });
    fireEvent.click(within(ask).getByRole('button', { name: 'Rotate secret' }));
    const secret = await screen.findByRole('dialog', { name: 'Signing secret' });
    expect(within(secret).getByText('whsec_bmV3')).toBeTruthy();
    expect(within(secret).getByText(/The old secret goes on signing beside it until/)).toBeTruthy();
    expect(calls.find((c) => c.id === 'webhookRotateSecret')?.body).toEqual({ Id: 5, OverlapHours: 2 });
  });
});
