import type { BulkSessionsDryRunBody } from '@sac/contract/bulk';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { colleagueSessionsToEnd, endStaffSessions } from '../auth/staff-sessions.service.ts';
import type { NewItem } from './bulk.repo.ts';
import type { BulkKind, ItemToRun, JobOfItem, Refusal } from './bulk-kinds.ts';

const GONE: Refusal = {
  code: 'gone',
  reason: 'Not a live session of this staff member (any more): it has ended.',
};

/**
 * A colleague's live sessions (the list is per member, on their profile): the selection's
 * sessions, read by the list's own read (a SuperAdmin's, never of their own account, else the
 * whole dry run is refused as the list is). A session no longer live is refused; every one is
 * while the single end would refuse them all (the actor's cool-down on a SuperAdmin's account).
 */
async function planSessions(
  ctx: AppContext,
  call: StaffCall,
  body: BulkSessionsDryRunBody,
  limit: number,
): Promise<NewItem[]> {
  const { sessions: live, refusal } = await colleagueSessionsToEnd(ctx, call.session, body.StaffUid);
  const byId = new Map(live.map((s) => [s.Id, s]));
  const sel = body.Selection;
  const ids = sel.Kind === 'rows' ? [...new Set(sel.Ids)] : live.slice(0, limit).map((s) => s.Id);
  return ids.map((id) => {
    const s = byId.get(id);
    const reason = s ? (refusal ?? null) : GONE.reason;
    return {
      target: id,
      label: s
        ? `${s.Browser}, ${s.ClientAddress ?? 'no address'}, since ${s.StartedAt.slice(0, 16).replace('T', ' ')}`
        : `#${id}`,
      seenStatus: s ? 'live' : '',
      seenVersion: 0,
      planned: reason ? 'refuse' : 'change',
      reason,
    };
  });
}

/**
 * One item: the single end of a colleague's session (endStaffSessions: the colleague's and the
 * actor's rows locked, the role rules and cool-down, the end, its trail row naming the job, the
 * colleague's notice). A session that ended meanwhile is refused; a rule of the single end (the
 * cool-down) refuses the item with its own sentence.
 */
async function runSessionItem(
  ctx: AppContext,
  call: StaffCall,
  job: JobOfItem,
  item: ItemToRun,
): Promise<Refusal | undefined> {
  try {
    await endStaffSessions(ctx, call, { uid: String(job.params.staffUid), Id: item.target }, job.id);
    return undefined;
  } catch (e) {
    if (e instanceof AppError && e.status === 404) return GONE;
    if (e instanceof AppError && e.status < 500)
      return { code: e.status === 403 ? 'permission' : 'state', reason: e.message };
    throw e;
  }
}

/** A colleague's live sessions: end them. Not reversible. */
export const sessionKind: BulkKind<BulkSessionsDryRunBody> = {
  list: 'staff-sessions',
  permission: 'team.write',
  noun: 'sessions',
  none: 'No live session of this staff member matches the selection.',
  params: (body) => ({ staffUid: body.StaffUid }),
  plan: planSessions,
  run: runSessionItem,
};
