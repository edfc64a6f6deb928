import type { BulkAction } from '@sac/contract/bulk';
import { type SiteScope, scopeFor } from '@sac/contract/role-scopes';
import type { AppContext } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { runWrite } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { currentGrantOf } from '../auth/staff.service.ts';
import {
  claimDueJob,
  failJob,
  findJob,
  finishJob,
  type JobRow,
  pendingItems,
  recordOutcomes,
  renewClaim,
} from './bulk.repo.ts';
import { kindOfList } from './bulk-registry.ts';

/**
 * The runner of bulk jobs (ops/periodic.ts): it claims a due job (FOR UPDATE SKIP LOCKED, so one
 * instance runs it) and runs its items in order, each through the single action's service call in
 * a transaction of its own, recording the outcomes a batch at a time. Between batches it renews
 * its claim, which is where a cancel stops it. A run gives its job back after RUN_BUDGET_MS; an
 * instance that stopped mid-job leaves a claim that lapses, and the next run takes the job on
 * (an item done but not yet recorded is then refused as already in its status).
 */

/** The channel a job made due notifies (migration 0073). */
const BULK_DUE_CHANNEL = 'sac_bulk_due';
/** Items run between two looks at the job's state (a cancel) and one write of their outcomes. */
const BATCH = 25;
/** A claimed job is not taken by another instance for this long. */
const CLAIM_LEASE_MS = 60_000;
/** How long one run keeps at it before giving its tick back. */
const RUN_BUDGET_MS = 5_000;

interface RunOptions {
  /** Stop after this many items (tests: a cancel between two runs). */
  maxItems?: number;
  budgetMs?: number;
}

/** What a job keeps of its actor when it is asked for (bulk.service.ts actorOf). */
interface KeptActor {
  name: string;
  roles: string[];
  scope: SiteScope[] | null;
  /** Absent on jobs asked for before migration 0074: their roles' permissions then. */
  permissions?: string[];
}

/** How the sentence of a job its requester may no longer run begins. */
const NOT_RUN = 'The requester may no longer run this job:';

/** Why the API token a job was asked for with no longer lets it run; undefined while it is live. */
function tokenEnded(
  grant: NonNullable<Awaited<ReturnType<typeof currentGrantOf>>>,
  now: Date,
): string | undefined {
  const token = `the API token it was asked for with (${grant.token_name})`;
  if (grant.token_name === null) return `${NOT_RUN} the API token it was asked for with is gone.`;
  if (grant.token_revoked_at !== null) return `${NOT_RUN} ${token} was revoked.`;
  if (new Date(grant.token_expires_at!).getTime() <= now.getTime()) return `${NOT_RUN} ${token} has expired.`;
  return undefined;
}

/**
 * The call each item of the job runs as: its actor as they are now, not as they were when they
 * asked (a job may wait for its approval or its turn). Their account read again (currentGrantOf),
 * with the API token the job was asked for with, if any; the permissions they hold now, never more
 * than the call that asked had (an API token's); their scope for the list's permission now, so an
 * item outside a narrowed scope is refused. Answers the sentence of why the job may not run at all:
 * the account gone or deactivated, the token revoked or expired, or the list's permission lost.
 * Also the approval's check (bulk.service.ts approveJob), in its transaction (`db`).
 */
export async function currentCallOf(
  ctx: AppContext,
  job: JobRow,
  db: Queryable = ctx.db,
): Promise<StaffCall | string> {
  const kept = job.actor as KeptActor;
  const { permission } = kindOfList(job.list);
  const tokenId = job.api_token_id === null ? null : Number(job.api_token_id);
  const grant = await currentGrantOf(db, job.actor_uid, tokenId);
  if (!grant) return `${NOT_RUN} their account was deleted.`;
  if (!grant.active) return `${NOT_RUN} their account is deactivated.`;
  const ended = tokenId === null ? undefined : tokenEnded(grant, ctx.clock.now());
  if (ended) return ended;
  const asked = kept.permissions ? new Set(kept.permissions) : undefined;
  const permissions = new Set(grant.permissions.filter((p) => !asked || asked.has(p)));
  if (!permissions.has(permission)) return `${NOT_RUN} they no longer hold ${permission}.`;
  const scope = scopeFor(grant.scopes, permission);
  return {
    session: {
      sessionId: 0,
      uid: job.actor_uid,
      email: job.actor_email,
      name: kept.name,
      roles: grant.roles,
      permissions,
      ...(grant.scopes ? { scopes: grant.scopes } : {}),
      ...(scope ? { scope } : {}),
      verifiedAt: new Date(0),
    },
    clientAddress: job.client_address,
    userAgent: null,
  };
}

/**
 * A job its requester may no longer run fails, with the sentence why: its items not yet run are
 * refused with it, and the trail says so on the requester's word, as the job's other steps are.
 */
async function failOnActorsWord(ctx: AppContext, job: JobRow, reason: string): Promise<void> {
  const at = ctx.clock.now();
  await runWrite(ctx.db, {
    lock: async (tx) => (await findJob(tx, Number(job.id), true))?.state === 'running',
    change: async (tx, running) => {
      if (running) await failJob(tx, Number(job.id), reason, at);
    },
    trail: async (tx, _done, running) => {
      if (!running) return;
      await writeActivity(tx, {
        at,
        action: 'bulk.fail',
        actorUid: job.actor_uid,
        actorEmail: job.actor_email,
        targetType: 'bulkJob',
        targetId: String(job.id),
        clientAddress: job.client_address,
        details: { bulkJob: Number(job.id), action: job.action, list: job.list, reason },
      });
    },
  });
}

/** Runs a claimed job's items until it is done, cancelled, or the run's time or item budget is spent. */
async function runClaimedJob(ctx: AppContext, id: number, until: number, left: number): Promise<number> {
  const job = (await findJob(ctx.db, id))!;
  const kind = kindOfList(job.list);
  const about = {
    id,
    action: job.action as BulkAction,
    uid: job.customer_uid,
    params: (job.params ?? {}) as Record<string, unknown>,
  };
  let after = 0;
  let ran = 0;
  for (;;) {
    const batch = await pendingItems(ctx.db, id, after, Math.min(BATCH, left - ran));
    if (batch.length === 0) {
      await finishJob(ctx.db, id, ctx.clock.now());
      return ran;
    }
    // The actor's rights read again each batch: a role taken meanwhile stops the rest of the job.
    const call = await currentCallOf(ctx, job);
    if (typeof call === 'string') {
      await failOnActorsWord(ctx, job, call);
      return ran;
    }
    const done: Parameters<typeof recordOutcomes>[2] = [];
    for (const item of batch) {
      const refused =
        item.planned === 'refuse'
          ? { reason: item.planned_reason ?? '' }
          : await kind.run(ctx, call, about, {
              target: Number(item.target),
              ...(item.target_key ? { key: item.target_key } : {}),
              seen: { status: item.seen_status, version: Number(item.seen_version) },
            });
      done.push({ seq: item.seq, outcome: refused ? 'refused' : 'changed', reason: refused?.reason ?? null });
    }
    await recordOutcomes(ctx.db, id, done, ctx.clock.now());
    ran += batch.length;
    after = batch.at(-1)?.seq ?? after;
    const spent = ran >= left || Date.now() > until;
    // Renewed (or given back when the run is over): false when the job was cancelled meanwhile.
    const running = await renewClaim(
      ctx.db,
      id,
      spent ? null : new Date(ctx.clock.now().getTime() + CLAIM_LEASE_MS),
    );
    if (!running || spent) return ran;
  }
}

/** One run: due jobs, one after the other, until none is due or the run's budget is spent. Answers the items run. */
export async function runBulkJobs(ctx: AppContext, opts: RunOptions = {}): Promise<number> {
  const until = Date.now() + (opts.budgetMs ?? RUN_BUDGET_MS);
  const most = opts.maxItems ?? Number.POSITIVE_INFINITY;
  let ran = 0;
  while (ran < most && Date.now() <= until) {
    const job = await claimDueJob(ctx.db, ctx.clock.now(), CLAIM_LEASE_MS);
    if (!job) break;
    ran += await runClaimedJob(ctx, Number(job.id), until, most - ran);
  }
  return ran;
}

/** The periodic job: a run every BULK_RUN_SECONDS, and one as soon as a job is made due. */
export function bulkRunnerJob(ctx: AppContext) {
  return {
    name: 'bulk-actions',
    everyMs: ctx.config.bulk.everyMs,
    run: () => runBulkJobs(ctx),
    wakeOn: (wake: () => void) => ctx.db.onNotification?.(BULK_DUE_CHANNEL, wake) ?? (() => {}),
  };
}
