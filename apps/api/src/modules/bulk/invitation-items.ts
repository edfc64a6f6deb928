import type { BulkInvitationsDryRunBody } from '@sac/contract/bulk';
import { ERRORS } from '@sac/contract/errors';
import { canManageStaff, touchesSuperAdmin } from '@sac/contract/team';
import type { AppContext, StaffSession } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { list as teamList } from '../team/team.service.ts';
import { checkResendCoolDown, resendInvitation } from '../team/team-invitations.service.ts';
import type { NewItem } from './bulk.repo.ts';
import { type BulkKind, ItemRefused, type ItemToRun, type JobOfItem, type Refusal } from './bulk-kinds.ts';

const GONE: Refusal = { code: 'gone', reason: 'No such member (any more): their account was deleted.' };

/** A member as the item's rule sees them, from the team list's row or the locked staff row. */
interface Member {
  uid: string;
  roles: string[];
  invited: boolean;
  deactivated: boolean;
  version: number;
}

/** A member as the list shows them: their email, and their name when they have one. */
const labelOf = (email: string, name: string) => (name ? `${email} (${name})` : email);

/** Their invitation's state, as the plan keeps it and the run compares it. */
const stateOf = (m: Member) => (m.deactivated ? 'deactivated' : m.invited ? 'pending' : 'accepted');

/**
 * The rule of an invitation item, the same for the dry run (`seen` absent) and the run (under the
 * single resend's lock, `seen` what the dry run read): refused when the member changed since (the
 * version of their roles, or their invitation's state), when they are outside the actor's rights
 * (the team's own rule, canManageStaff; never one's own account, in the single resend's words,
 * 1197), and when they are no pending invitee (accepted, deactivated).
 */
function refusalOf(m: Member, actor: StaffSession, seen?: ItemToRun['seen']): Refusal | undefined {
  if (seen && m.version !== seen.version)
    return {
      code: 'version',
      reason: `Changed by someone else since the dry run (version ${seen.version}, now ${m.version}).`,
    };
  if (seen && stateOf(m) !== seen.status)
    return {
      code: 'state',
      reason: `Its invitation changed since the dry run (it was ${seen.status}, it is ${stateOf(m)}).`,
    };
  // one's own account: the single resend's refusal, in its words
  if (m.uid === actor.uid) return { code: 'permission', reason: ERRORS.ownInvitation.text };
  if (!canManageStaff({ uid: actor.uid, roles: actor.roles }, m))
    return { code: 'permission', reason: "Outside your rights: you may not manage this member's account." };
  if (m.deactivated) return { code: 'state', reason: 'Deactivated: an invitation cannot be sent to them.' };
  if (!m.invited)
    return { code: 'state', reason: 'Not a pending invitee: they accepted their invitation already.' };
  return undefined;
}

/**
 * Why the single resend would refuse every SuperAdmin invitee now: the actor's SuperAdmin cool-down
 * (948), which it checks again under its lock; undefined when it would not.
 */
async function coolDownRefusal(
  ctx: AppContext,
  actor: StaffSession,
  inviteeRoles: string[],
): Promise<Refusal | undefined> {
  try {
    await checkResendCoolDown(ctx, ctx.db, actor.uid, inviteeRoles);
    return undefined;
  } catch (e) {
    if (e instanceof AppError && e.status < 500) return { code: 'permission', reason: e.message };
    throw e;
  }
}

/**
 * The members a selection names, read by the team list's own read: the rows picked by Uid, or every
 * member the list shows (it has no filter), at most `limit`; each judged by the item's rule, and a
 * SuperAdmin invitee by the actor's cool-down too, as the single resend judges them.
 */
async function planInvitations(
  ctx: AppContext,
  call: StaffCall,
  body: BulkInvitationsDryRunBody,
  limit: number,
): Promise<NewItem[]> {
  const { Data: rows } = await teamList(ctx);
  const byUid = new Map(rows.map((r) => [r.Uid, r]));
  const sel = body.Selection;
  const uids = sel.Kind === 'rows' ? [...new Set(sel.Uids)] : rows.slice(0, limit).map((r) => r.Uid);
  const superAdmin = uids.map((uid) => byUid.get(uid)).find((r) => r && touchesSuperAdmin(r.Roles));
  const coolDown = superAdmin ? await coolDownRefusal(ctx, call.session, superAdmin.Roles) : undefined;
  return uids.map((uid, i) => {
    const r = byUid.get(uid);
    const m: Member | undefined = r && {
      uid,
      roles: r.Roles,
      invited: r.Invited === true,
      deactivated: r.DeactivatedAt !== undefined,
      version: r.Version,
    };
    const refused = m
      ? (refusalOf(m, call.session) ?? (touchesSuperAdmin(m.roles) ? coolDown : undefined))
      : GONE;
    return {
      target: i + 1,
      key: uid,
      label: r ? labelOf(r.Email[0]?.Value ?? '', r.FullName) : uid,
      seenStatus: m ? stateOf(m) : '',
      seenVersion: m?.version ?? 0,
      planned: refused ? 'refuse' : 'change',
      reason: refused?.reason ?? null,
    };
  });
}

/**
 * One item: the single resend (resendInvitation: the member's and the actor's rows locked, the
 * team's rights, the SuperAdmin cool-down for a SuperAdmin invitee, a new link, the mail, its trail
 * row naming the job), with the item's rule checked under that lock. A refusal of the single resend
 * is the item's, with its own sentence.
 */
async function runInvitationItem(
  ctx: AppContext,
  call: StaffCall,
  job: JobOfItem,
  item: ItemToRun,
): Promise<Refusal | undefined> {
  try {
    await resendInvitation(
      ctx,
      call,
      { uid: item.key ?? '' },
      {
        bulkJob: job.id,
        check: (t, version) => {
          const m = {
            uid: t.uid,
            roles: t.roles,
            invited: t.invitation_pending,
            deactivated: t.deactivated_at !== null,
            version,
          };
          const refused = refusalOf(m, call.session, item.seen);
          if (refused) throw new ItemRefused(refused);
        },
      },
    );
    return undefined;
  } catch (e) {
    if (e instanceof ItemRefused) return e.refusal;
    if (e instanceof AppError && e.status === 404) return GONE;
    if (e instanceof AppError && e.status < 500)
      return { code: e.status === 403 ? 'permission' : 'state', reason: e.message };
    throw e;
  }
}

/** The team list's pending invitations: send them again. Not reversible. */
export const invitationKind: BulkKind<BulkInvitationsDryRunBody> = {
  list: 'team-invitations',
  permission: 'team.write',
  noun: 'members',
  none: 'No member of the team matches the selection.',
  plan: planInvitations,
  run: runInvitationItem,
};
