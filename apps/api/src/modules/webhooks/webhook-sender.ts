import { WEBHOOK_HEADERS, WEBHOOK_RETRY_HOURS, WEBHOOK_TIMEOUT_SECONDS } from '@sac/contract/webhooks';
import type { AppContext } from '../../app-context.ts';
import { type AttemptOutcome, claimDue, recordAttempts } from './deliveries.repo.ts';
import { postDelivery } from './webhook-http.ts';
import { signatureHeader } from './webhook-signing.ts';
import { sendingKeys } from './webhooks.repo.ts';

/**
 * The sender's pool: POSTS_AT_ONCE posts in flight, refilled by claims as they finish (a claim never
 * waits for the slowest post of the one before), and at most PER_ENDPOINT_AT_ONCE of them to any
 * one subscription, which is left out of the next claims while it has that many waiting. So an
 * endpoint that answers slowly, or not at all until the timeout, holds a few posts of its own and
 * never the deliveries of the others.
 */

/** Deliveries one claim takes at most. */
const CLAIM_BATCH = 100;
const POSTS_AT_ONCE = 96;
/**
 * Posts in flight to one subscription at most, and deliveries one claim takes of it: as many as a
 * healthy endpoint is sent at once (the bench's floor is a bare client 32 at once), and a third of
 * the pool, so an endpoint that hangs holds a third, two a third each, and the others the rest.
 */
export const PER_ENDPOINT_AT_ONCE = 32;
/**
 * Deliveries of one subscription one claim takes at most. A subscription is left out of the next
 * claims while it has PER_ENDPOINT_AT_ONCE or more claimed and not yet answered, so a healthy
 * endpoint has a round of posts in flight and up to two more waiting, and a claim is large.
 */
const CLAIM_PER_ENDPOINT = 2 * PER_ENDPOINT_AT_ONCE;
/**
 * A claimed delivery is not claimed again for this long. A delivery waits for at most three
 * rounds of its subscription's posts before it, each within the timeout, then its own; the lease
 * outlasts that by a minute. Attempts are recorded only while the claim holds (recordAttempts),
 * so a post that overran it sends nothing twice into the log.
 */
const CLAIM_LEASE_MS = 4 * WEBHOOK_TIMEOUT_SECONDS * 1000 + 60_000;
/** Outcomes kept before they are written (one statement for them all): a claim's worth. */
const RECORD_EVERY = CLAIM_BATCH;

type Claimed = Awaited<ReturnType<typeof claimDue>>[number] & { claimedUntil: Date };

export const TOO_OLD = `not sent: the event is more than ${WEBHOOK_RETRY_HOURS} hours old`;

/** The waits before each retry; the last repeats until the day is over. */
const BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000];

/** Where a delivery goes after an attempt: delivered, tried again later, or failed for good. */
function nextOf(
  ok: boolean,
  attemptsBefore: number,
  occurredAt: string,
  now: Date,
): Pick<AttemptOutcome, 'state' | 'next'> {
  if (ok) return { state: 'delivered', next: null };
  const wait = BACKOFF_MS[Math.min(attemptsBefore, BACKOFF_MS.length - 1)]!;
  // a tenth either way, so the retries of many deliveries that failed together spread out
  const next = new Date(now.getTime() + wait * (0.9 + Math.random() * 0.2));
  const giveUpAt = Date.parse(occurredAt) + WEBHOOK_RETRY_HOURS * 3_600_000;
  return next.getTime() > giveUpAt ? { state: 'failed', next: null } : { state: 'pending', next };
}

interface Key {
  url: string;
  secrets: string[];
}

/**
 * One run of the pool: claims and posts until nothing is due or `until` has passed (and then lets
 * what is in flight finish), recording every outcome while its claim holds. Answers the deliveries
 * it took.
 */
export async function sendDue(ctx: AppContext, until: number): Promise<number> {
  const queue: Claimed[] = [];
  const busy = new Map<string, number>();
  const keys = new Map<string, Key>();
  const done: { outcome: AttemptOutcome; claimedUntil: Date }[] = [];
  let taken = 0;
  let claims = 0;
  let exhausted = false;
  /**
   * The subscriptions the last claim left out, when it found nothing else: no claim is made again
   * until one of them has fewer than PER_ENDPOINT_AT_ONCE outstanding.
   */
  let starved: Set<string> | undefined;
  let refilling: Promise<void> | undefined;
  const waiting = new Set<() => void>();
  const wakeAll = () => {
    for (const w of waiting) w();
    waiting.clear();
  };
  const outstanding = (sub: string) =>
    (busy.get(sub) ?? 0) + queue.reduce((n, c) => n + (c.subscription_id === sub ? 1 : 0), 0);

  const refill = async () => {
    // the first claim of a run is always made, however long the fan-out before it took
    if (exhausted || (claims > 0 && Date.now() > until)) {
      exhausted = true;
      return;
    }
    claims++;
    const except = [...new Set([...busy.keys(), ...queue.map((c) => c.subscription_id)])].filter(
      (sub) => outstanding(sub) >= PER_ENDPOINT_AT_ONCE,
    );
    const at = ctx.clock.now();
    const claimedUntil = new Date(at.getTime() + CLAIM_LEASE_MS);
    const claimed = await claimDue(ctx.db, at, CLAIM_BATCH, CLAIM_LEASE_MS, {
      perSubscription: CLAIM_PER_ENDPOINT,
      except,
    });
    if (claimed.length === 0) {
      // nothing due but for the subscriptions left out: claim again once one of their posts is done
      if (except.length > 0) starved = new Set(except);
      else exhausted = true;
      return;
    }
    taken += claimed.length;
    await openKeys(ctx, keys, claimed);
    for (const c of claimed) queue.push({ ...c, claimedUntil });
  };
  const flush = async (all: boolean) => {
    if (done.length === 0 || (!all && done.length < RECORD_EVERY)) return;
    const batch = done.splice(0);
    // one statement per claim among them (each is recorded only while its own claim holds)
    const byClaim = new Map<number, AttemptOutcome[]>();
    for (const d of batch) {
      const at = d.claimedUntil.getTime();
      byClaim.set(at, [...(byClaim.get(at) ?? []), d.outcome]);
    }
    for (const [claimedUntil, outcomes] of byClaim)
      await recordAttempts(ctx.db, outcomes, new Date(claimedUntil));
  };
  /** The next delivery whose subscription has a post free, taken off the queue. */
  const next = () => {
    const i = queue.findIndex((c) => (busy.get(c.subscription_id) ?? 0) < PER_ENDPOINT_AT_ONCE);
    return i < 0 ? undefined : queue.splice(i, 1)[0];
  };

  const worker = async () => {
    for (;;) {
      const c = next();
      if (c) {
        busy.set(c.subscription_id, (busy.get(c.subscription_id) ?? 0) + 1);
        const outcome = await attempt(ctx, keys.get(c.subscription_id), c);
        busy.set(c.subscription_id, busy.get(c.subscription_id)! - 1);
        if (starved?.has(c.subscription_id) && outstanding(c.subscription_id) < PER_ENDPOINT_AT_ONCE)
          starved = undefined;
        if (outcome) done.push({ outcome, claimedUntil: c.claimedUntil });
        await flush(false);
        wakeAll();
        continue;
      }
      if (!exhausted && !starved && queue.length < POSTS_AT_ONCE) {
        refilling ??= refill().finally(() => {
          refilling = undefined;
          wakeAll();
        });
        await refilling;
        continue;
      }
      // everything queued, or all that is due, waits for a subscription's posts in flight
      if (queue.length === 0 && ![...busy.values()].some((n) => n > 0)) return;
      await new Promise<void>((resolve) => waiting.add(resolve));
    }
  };
  try {
    await Promise.all(Array.from({ length: POSTS_AT_ONCE }, worker));
  } finally {
    await flush(true);
  }
  return taken;
}

/** Opens the signing keys of the claimed deliveries' subscriptions not yet open in this run. */
async function openKeys(ctx: AppContext, keys: Map<string, Key>, claimed: { subscription_id: string }[]) {
  const missing = [...new Set(claimed.map((c) => c.subscription_id))].filter((s) => !keys.has(s));
  if (missing.length === 0) return;
  const now = ctx.clock.now();
  for (const k of await sendingKeys(ctx.db, missing)) {
    const secrets = [ctx.crypto.decrypt(k.secret)];
    if (k.previous_secret && k.previous_secret_until && new Date(k.previous_secret_until) > now)
      secrets.push(ctx.crypto.decrypt(k.previous_secret));
    keys.set(k.id, { url: k.url, secrets });
  }
}

/** One delivery's attempt: posted signed, or failed unsent when it is past its day of retries. */
async function attempt(ctx: AppContext, k: Key | undefined, d: Claimed): Promise<AttemptOutcome | undefined> {
  if (!k) return undefined; // deleted meanwhile: its deliveries went with it
  const now = ctx.clock.now();
  // kept while paused for longer than its day of retries: failed, not sent late
  if (Date.parse(d.occurred_at) + WEBHOOK_RETRY_HOURS * 3_600_000 < now.getTime())
    return {
      id: d.id,
      subscriptionId: d.subscription_id,
      at: now,
      code: null,
      error: TOO_OLD,
      durationMs: 0,
      state: 'failed',
      next: null,
      tried: false,
    };
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = {
    [WEBHOOK_HEADERS.id]: d.event_id,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: signatureHeader(k.secrets, d.event_id, timestamp, d.payload),
  };
  const r = await postDelivery(k.url, headers, d.payload, ctx.config.webhooks.allowPrivate);
  const ok = r.error === null;
  ctx.metrics.webhookDeliveries.inc({ outcome: ok ? 'delivered' : 'failed' });
  return {
    id: d.id,
    subscriptionId: d.subscription_id,
    at: now,
    code: r.code,
    error: r.error,
    durationMs: r.durationMs,
    ...nextOf(ok, d.attempt_count, d.occurred_at, now),
    tried: true,
  };
}
