import {
  bulkCustomersDryRunBody,
  bulkInvitationsDryRunBody,
  bulkJobBody,
  bulkJobQuery,
  bulkJobResponse,
  bulkRequestsDryRunBody,
  bulkSessionsDryRunBody,
  bulkSitesDryRunBody,
} from './bulk.ts';
import { type DetailsPart, errors } from './endpoint-details.ts';

/** Summary, tag and schemas of the bulk actions: a dry run per list, and the job's calls. */
export const BULK_DETAILS = {
  bulkDryRun: {
    summary:
      "Plan a bulk action on a customer's sites (the rows picked, or all matching the list's filter, at most BULK_MAX_ITEMS): answers each item's would-change or would-be-refused with its reason, and whether the run will need a second SuperAdmin's approval (over BULK_APPROVAL_OVER). Changes nothing; the plan is kept as a job in state planned.",
    tag: 'Sites',
    body: bulkSitesDryRunBody,
    responses: { 200: bulkJobResponse, ...errors(400, 401, 403, 404) },
  },
  bulkRequestsDryRun: {
    summary:
      "Plan a bulk revocation of grants or rejection of pending requests on the impersonation requests list (the rows picked, or all the list shows under its status filter, at most BULK_MAX_ITEMS): answers what would change and what would be refused and why (its state, its version, your scope, not yours to decide), each by the single action's rule. Not reversible. Changes nothing; the plan is kept as a job in state planned.",
    tag: 'Impersonation',
    body: bulkRequestsDryRunBody,
    responses: { 200: bulkJobResponse, ...errors(400, 401, 403) },
  },
  bulkSessionsDryRun: {
    summary:
      "Plan the end of a colleague's live sessions (SuperAdmins; the rows picked, or all their live sessions, at most BULK_MAX_ITEMS): answers what would end and what would be refused and why, each by the single end's rule. Not reversible. Changes nothing; the plan is kept as a job in state planned.",
    tag: 'Team',
    body: bulkSessionsDryRunBody,
    responses: { 200: bulkJobResponse, ...errors(400, 401, 403, 404) },
  },
  bulkInvitationsDryRun: {
    summary:
      'Plan the resend of invitations on the team list (the members picked, or all the list shows, at most BULK_MAX_ITEMS): answers whose invitation would be sent again (a new link, the old one void) and who would be refused and why (not a pending invitee: accepted, deactivated, deleted; outside your rights; changed since). Not reversible. Changes nothing; the plan is kept as a job in state planned.',
    tag: 'Team',
    body: bulkInvitationsDryRunBody,
    responses: { 200: bulkJobResponse, ...errors(400, 401, 403) },
  },
  bulkCustomersDryRun: {
    summary:
      "Plan deactivating or activating the owned sites of customers on the customer search (the customers picked, or all the search matches under its one criterion, at most BULK_MAX_ITEMS customers and sites): answers each site, named with its owner's email, as would change or would be refused and why (already in that status, outside your scope), each by the single status change's rule, and whether the run needs a second SuperAdmin's approval. Reversible: undo within BULK_UNDO_MINUTES. Changes nothing; the plan is kept as a job in state planned, which keeps the search's criterion, not its term.",
    tag: 'Customers',
    body: bulkCustomersDryRunBody,
    responses: { 200: bulkJobResponse, ...errors(400, 401, 403) },
  },
  bulkRun: {
    summary:
      "Start a planned bulk job (its requester only): queued, or awaiting a second SuperAdmin's approval when it holds more than BULK_APPROVAL_OVER items. Each item then runs the single action under its lock, refused when the site moved on since the dry run. Refused (1199) while its requester may no longer run it (the API token its dry run was made with revoked or expired since), saying why, and nothing changes.",
    tag: 'Sites',
    body: bulkJobBody,
    responses: { 200: bulkJobResponse, ...errors(400, 401, 403, 404, 409) },
  },
  bulkApprove: {
    summary:
      "A second SuperAdmin approves a bulk job awaiting approval (never its requester's own): it is queued. Refused (1198) while its requester may no longer run it (their account gone or deactivated, the API token it was asked for with revoked or expired, the list's permission lost), saying why.",
    tag: 'Sites',
    body: bulkJobBody,
    responses: { 200: bulkJobResponse, ...errors(400, 401, 403, 404, 409) },
  },
  bulkCancel: {
    summary:
      'Cancel a bulk job not yet done (its requester or a SuperAdmin): items not yet run are left as they are, marked cancelled.',
    tag: 'Sites',
    body: bulkJobBody,
    responses: { 200: bulkJobResponse, ...errors(400, 401, 403, 404, 409) },
  },
  bulkUndo: {
    summary:
      'Undo a finished reversible bulk job within BULK_UNDO_MINUTES of its end (its requester or a SuperAdmin): its inverse, over the items it changed, as a job of its own (answered), refusing an item that moved on since.',
    tag: 'Sites',
    body: bulkJobBody,
    responses: { 200: bulkJobResponse, ...errors(400, 401, 403, 404, 409) },
  },
  bulkJob: {
    summary:
      "A bulk job: its action, selection, count, actor, state and approval, the dry run's plan, the progress of its run, and its items a page at a time (`after`).",
    tag: 'Sites',
    query: bulkJobQuery,
    responses: { 200: bulkJobResponse, ...errors(400, 401, 403, 404) },
  },
} as const satisfies DetailsPart;
