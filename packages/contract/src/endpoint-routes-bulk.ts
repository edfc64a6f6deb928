import type { EndpointRoute } from './endpoint-routes.ts';

/**
 * Method, path and access of the bulk actions (bulk.ts): a dry run per list, its run (step-up), a
 * second SuperAdmin's approval above BULK_APPROVAL_OVER, cancel, undo, and the job's read. A dry
 * run's access is that of its list's single actions, and its items keep to that permission's scope
 * ('service'). The job's calls serve every list: signed in, the service refuses a caller without
 * the permission of the job's list (902), and its items run with the scope the dry run had.
 */
export const BULK_ROUTES = {
  bulkDryRun: {
    id: 'bulkDryRun',
    method: 'POST',
    path: '/admin/bulk/dryrun',
    access: 'sites.write',
    scope: 'service',
  },
  bulkRequestsDryRun: {
    id: 'bulkRequestsDryRun',
    method: 'POST',
    path: '/admin/bulk/requests/dryrun',
    access: 'impersonation.approve',
    scope: 'service',
  },
  // SuperAdmins only, of a colleague's sessions: the service checks the role, as the single end's.
  bulkSessionsDryRun: {
    id: 'bulkSessionsDryRun',
    method: 'POST',
    path: '/admin/bulk/sessions/dryrun',
    access: 'team.write',
  },
  // The team list's pending invitations: the team's writers, each item refused outside their rights.
  bulkInvitationsDryRun: {
    id: 'bulkInvitationsDryRun',
    method: 'POST',
    path: '/admin/bulk/invitations/dryrun',
    access: 'team.write',
  },
  // The customer search's: the single site status change's access; its items keep to its scope.
  bulkCustomersDryRun: {
    id: 'bulkCustomersDryRun',
    method: 'POST',
    path: '/admin/bulk/customers/dryrun',
    access: 'sites.write',
    scope: 'service',
  },
  bulkRun: {
    id: 'bulkRun',
    method: 'POST',
    path: '/admin/bulk/run',
    access: 'session',
    stepUp: true,
  },
  bulkApprove: {
    id: 'bulkApprove',
    method: 'POST',
    path: '/admin/bulk/approve',
    access: 'session',
    stepUp: true,
  },
  bulkCancel: {
    id: 'bulkCancel',
    method: 'POST',
    path: '/admin/bulk/cancel',
    access: 'session',
  },
  bulkUndo: {
    id: 'bulkUndo',
    method: 'POST',
    path: '/admin/bulk/undo',
    access: 'session',
    stepUp: true,
  },
  bulkJob: {
    id: 'bulkJob',
    method: 'GET',
    path: '/admin/bulk/job',
    access: 'session',
  },
} as const satisfies Record<string, EndpointRoute>;
