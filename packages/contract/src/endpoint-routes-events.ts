import type { EndpointRoute, StatementBudget } from './endpoint-routes.ts';

/** Method, path and access of the webhook subscriptions and their delivery logs. */
export const EVENTS_ROUTES = {
  webhookList: {
    id: 'webhookList',
    method: 'GET',
    path: '/admin/webhooks',
    access: 'webhooks.manage',
    budget: { statements: 3, commits: 0 },
  },
  webhookCreate: {
    id: 'webhookCreate',
    method: 'POST',
    path: '/admin/webhooks',
    access: 'webhooks.manage',
    stepUp: true,
    budget: { statements: 7, commits: 1 },
  },
  webhookUpdate: {
    id: 'webhookUpdate',
    method: 'PUT',
    path: '/admin/webhooks',
    access: 'webhooks.manage',
    stepUp: true,
    budget: { statements: 7, commits: 1 },
  },
  webhookDelete: {
    id: 'webhookDelete',
    method: 'DELETE',
    path: '/admin/webhooks',
    access: 'webhooks.manage',
    stepUp: true,
    budget: { statements: 5, commits: 1 },
  },
  webhookPause: {
    id: 'webhookPause',
    method: 'POST',
    path: '/admin/webhooks/pause',
    access: 'webhooks.manage',
    budget: { statements: 6, commits: 1 },
  },
  webhookResume: {
    id: 'webhookResume',
    method: 'POST',
    path: '/admin/webhooks/resume',
    access: 'webhooks.manage',
    budget: { statements: 6, commits: 1 },
  },
  webhookRotateSecret: {
    id: 'webhookRotateSecret',
    method: 'POST',
    path: '/admin/webhooks/rotate-secret',
    access: 'webhooks.manage',
    stepUp: true,
    budget: { statements: 6, commits: 1 },
  },
  webhookTest: {
    id: 'webhookTest',
    method: 'POST',
    path: '/admin/webhooks/test',
    access: 'webhooks.manage',
    budget: { statements: 5, commits: 1 },
  },
  webhookDeliveries: {
    id: 'webhookDeliveries',
    method: 'GET',
    path: '/admin/webhooks/deliveries',
    access: 'webhooks.manage',
    budget: { statements: 3, commits: 0 },
  },
  webhookRedeliver: {
    id: 'webhookRedeliver',
    method: 'POST',
    path: '/admin/webhooks/redeliver',
    access: 'webhooks.manage',
    budget: { statements: 5, commits: 1 },
  },
} as const satisfies Record<string, EndpointRoute & { budget: StatementBudget }>;
