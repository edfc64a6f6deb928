import type { BulkAction, BulkRequestsDryRunBody } from '@sac/contract/bulk';
import { displayStatus, TRANSITION_ERRORS, transition } from '@sac/contract/impersonation';
import type { AppContext, StaffSession } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import {
  listedRequestIds,
  type RequestRow,
  requestsById,
  stateOf,
} from '../impersonation/impersonation-reads.service.ts';
import { act, eventOfAction } from '../impersonation/impersonation-requests.service.ts';
import type { NewItem } from './bulk.repo.ts';
import { type BulkKind, ItemRefused, type ItemToRun, type JobOfItem, type Refusal } from './bulk-kinds.ts';

const GONE: Refusal = { code: 'gone', reason: 'No such request (any more): deleted, or never made.' };

/** The single action's body of each request action: the whole grant revoked, or the request rejected. */
function bodyOf(action: BulkAction, comments: string) {
  return action === 'request.reject'
    ? { Status: 'Reject' as const, Comments: comments }
    : { Status: 'Revoke' as const, ProxyRoles: [], AdditionalPermissions: [], Comments: comments };
}

/**
 * The rule of a request item, the same for the dry run (`seen` absent) and the run (under the
 * request's lock in the single action, `seen` what the dry run read): refused when the request
 * moved on since (its version or status), when its site is outside the actor's scope, or when the
 * single action's state machine refuses the event (its state, expired, one's own request, not an
 * approver), with the machine's own sentence.
 */
function refusalOf(
  action: BulkAction,
  row: RequestRow & { in_scope?: boolean | null },
  actor: StaffSession,
  now: Date,
  seen?: { status: string; version: number },
): Refusal | undefined {
  if (seen && Number(row.version) !== seen.version)
    return {
      code: 'version',
      reason: `Changed by someone else since the dry run (version ${seen.version}, now ${row.version}).`,
    };
  const shown = displayStatus(stateOf(row), now.getTime());
  if (seen && shown !== seen.status)
    return {
      code: 'state',
      reason: `Its status changed since the dry run (it was ${seen.status}, it is ${shown}).`,
    };
  if (row.in_scope === false)
    return { code: 'scope', reason: "Outside your role's scope (data center or plan)." };
  const r = transition(stateOf(row), eventOfAction(actor, bodyOf(action, ''), 'site'), now.getTime());
  if (r.ok) return undefined;
  const permission = r.error === 'ownRequest' || r.error === 'notApprover';
  return { code: permission ? 'permission' : 'state', reason: TRANSITION_ERRORS[r.error] };
}

/**
 * The requests a selection names: the rows picked by Id (whatever the list shows the actor: the
 * single action takes any Id), or every request the actor's list shows under its status filter,
 * read by the list's own query, at most `limit`.
 */
async function requestsOf(ctx: AppContext, call: StaffCall, body: BulkRequestsDryRunBody, limit: number) {
  const sel = body.Selection;
  const ids =
    sel.Kind === 'rows'
      ? [...new Set(sel.Ids)]
      : await listedRequestIds(ctx, call.session, sel.Status ? { status: sel.Status } : {}, limit);
  return { ids, rows: await requestsById(ctx.db, ids, call.session.scope) };
}

async function planRequests(
  ctx: AppContext,
  call: StaffCall,
  body: BulkRequestsDryRunBody,
  limit: number,
): Promise<NewItem[]> {
  const now = ctx.clock.now();
  const { ids, rows } = await requestsOf(ctx, call, body, limit);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.map((id) => {
    const r = byId.get(id);
    const refused = r ? refusalOf(body.Action, r, call.session, now) : GONE;
    return {
      target: id,
      label: r ? `#${id} ${r.app_name} (${r.initiator_email})` : `#${id}`,
      seenStatus: r ? displayStatus(stateOf(r), now.getTime()) : '',
      seenVersion: Number(r?.version ?? 0),
      planned: refused ? 'refuse' : 'change',
      reason: refused?.reason ?? null,
    };
  });
}

/**
 * One item: the single decision's own call (act: the request's lock, the state machine, the new
 * state, the log and trail rows naming the job, the mails, bell and webhook event), with the
 * item's rule checked under that lock.
 */
async function runRequestItem(
  ctx: AppContext,
  call: StaffCall,
  job: JobOfItem,
  item: ItemToRun,
): Promise<Refusal | undefined> {
  const comments = typeof job.params.comments === 'string' ? job.params.comments : '';
  try {
    await act(
      ctx,
      call,
      { requestId: item.target, revokeAction: 'site', body: bodyOf(job.action, comments) },
      {
        bulkJob: job.id,
        check: (row) => {
          const refused = refusalOf(job.action, row, call.session, ctx.clock.now(), item.seen);
          if (refused) throw new ItemRefused(refused);
        },
      },
    );
    return undefined;
  } catch (e) {
    if (e instanceof ItemRefused) return e.refusal;
    if (e instanceof AppError && e.status === 404) return GONE;
    throw e;
  }
}

/** The impersonation requests: revoke approved grants, reject pending requests. Neither has an undo. */
export const requestKind: BulkKind<BulkRequestsDryRunBody> = {
  list: 'impersonation-requests',
  permission: 'impersonation.approve',
  noun: 'requests',
  none: 'No request matches the selection.',
  params: (body) => ({ comments: body.Comments }),
  plan: planRequests,
  run: runRequestItem,
};
