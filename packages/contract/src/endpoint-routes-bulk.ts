import type { EndpointRoute } from './endpoint-routes.ts';

/**
 * Method, path and access of the bulk actions (bulk.ts): a dry run, its run (step-up), a second
 * SuperAdmin's approval above BULK_APPROVAL_OVER, cancel, undo, and the job's read. The access is
 * that of the single action; each item keeps to the actor's scope itself ('service').
 */
export const BULK_ROUTES = {
  bulkDryRun: {
    id: 'bulkDryRun',
    method: 'POST',
    path: '/admin/bulk/dryrun',
    access: 'sites.write',
    scope: 'service',
  },
  bulkRun: {
    id: 'bulkRun',
    method: 'POST',
    path: '/admin/bulk/run',
    access: 'sites.write',
    scope: 'service',
    stepUp: true,
  },
  bulkApprove: {
    id: 'bulkApprove',
    method: 'POST',
    path: '/admin/bulk/approve',
    access: 'sites.write',
    scope: 'service',
    stepUp: true,
  },
  bulkCancel: {
    id: 'bulkCancel',
    method: 'POST',
    path: '/admin/bulk/cancel',
    access: 'sites.write',
    scope: 'service',
  },
  bulkUndo: {
    id: 'bulkUndo',
    method: 'POST',
    path: '/admin/bulk/undo',
    access: 'sites.write',
    scope: 'service',
    stepUp: true,
  },
  bulkJob: {
    id: 'bulkJob',
    method: 'GET',
    path: '/admin/bulk/job',
    access: 'sites.write',
    scope: 'service',
  },
} as const satisfies Record<string, EndpointRoute>;
