/**
 * The names of the signed-in console's screens that the shell shows for every section at once:
 * the top navigation's menus, the sidebars, the breadcrumb, the document title and the command
 * palette. It loads with the shell, so a section's own namespace is not needed to name it (route
 * labels may only be phrases the shell always has: `ShellPhraseRef`). The words are each screen's
 * heading in its section's namespace; a unit test (app/route-phrases.test.tsx) keeps them alike.
 */
export const screens = {
  searchCustomer: 'Search Customer',
  createCustomer: 'Create Customer',
  editSite: 'Edit Site',
  addSite: 'Add Site',
  viewCustomer: 'View Customer',
  bulkJob: 'Bulk job',
  siteConfiguration: 'Site Configuration',
  customDomains: 'Custom Domains',
  impersonateSite: 'Impersonate Site',
  impersonatedSite: 'Impersonated Site',
  impersonation: 'Impersonation',
  impersonationLogs: 'Impersonation Logs',
  assignedRequests: 'Assigned Impersonation Requests',
  createSuperuser: 'Create Superuser',
  singleSignOn: 'Single sign-on',
  permissionList: 'Permission list',
  roleDetails: 'Role details',
  superuserProfile: 'Super User Profile',
  auditTrail: 'Audit Trail',
  webhooks: 'Webhooks',
  webhookSubscription: 'Subscription',
  consent: 'Access request',
  siteAccess: 'Site access',
};
