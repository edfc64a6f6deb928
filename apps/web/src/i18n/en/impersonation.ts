export const impersonation = {
  impersonation: 'Impersonation',
  logs: 'Impersonation Logs',
  assignedRequests: 'Assigned Impersonation Requests',
};
