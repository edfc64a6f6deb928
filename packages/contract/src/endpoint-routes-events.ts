import type { EndpointRoute } from './endpoint-routes.ts';

/** Method, path and access of the webhook subscriptions and their delivery logs. */
export const EVENTS_ROUTES = {
  webhookList: {
    id: 'webhookList',
    method: 'GET',
    path: '/admin/webhooks',
    access: 'webhooks.manage',
  },
  webhookCreate: {
    id: 'webhookCreate',
    method: 'POST',
    path: '/admin/webhooks',
    access: 'webhooks.manage',
    stepUp: true,
  },
  webhookUpdate: {
    id: 'webhookUpdate',
    method: 'PUT',
    path: '/admin/webhooks',
    access: 'webhooks.manage',
    stepUp: true,
  },
  webhookDelete: {
    id: 'webhookDelete',
    method: 'DELETE',
    path: '/admin/webhooks',
    access: 'webhooks.manage',
    stepUp: true,
  },
  webhookPause: {
    id: 'webhookPause',
    method: 'POST',
    path: '/admin/webhooks/pause',
    access: 'webhooks.manage',
  },
  webhookResume: {
    id: 'webhookResume',
    method: 'POST',
    path: '/admin/webhooks/resume',
    access: 'webhooks.manage',
  },
  webhookRotateSecret: {
    id: 'webhookRotateSecret',
    method: 'POST',
    path: '/admin/webhooks/rotate-secret',
    access: 'webhooks.manage',
    stepUp: true,
  },
  webhookTest: {
    id: 'webhookTest',
    method: 'POST',
    path: '/admin/webhooks/test',
    access: 'webhooks.manage',
  },
  webhookDeliveries: {
    id: 'webhookDeliveries',
    method: 'GET',
    path: '/admin/webhooks/deliveries',
    access: 'webhooks.manage',
  },
  webhookRedeliver: {
    id: 'webhookRedeliver',
    method: 'POST',
    path: '/admin/webhooks/redeliver',
    access: 'webhooks.manage',
  },
} as const satisfies Record<string, EndpointRoute>;
