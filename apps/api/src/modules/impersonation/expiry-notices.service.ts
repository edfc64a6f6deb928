import type { AppContext } from '../../app-context.ts';
import { runWrite, type WriteTx } from '../../lib/write-path.ts';
import { holderExpiryMail, ownerExpiryMail } from './expiry-notices.mails.ts';
import { claimExpiredGrants, claimExpiringGrants, type ExpiringGrant } from './expiry-notices.repo.ts';
import { logEvent } from './impersonation-steps.ts';

/**
 * Approved impersonation grants whose time is up get one notice each: to the staff member who
 * held the grant (its holder, recorded at approval: the initiator; for a customer's own request,
 * the SuperAdmin who approved it), at the address they have now, and to the site owner. The rows
 * are claimed and stamped in the one UPDATE that selects them (claimExpiredGrants), so two runs at
 * once (two instances, or a run that overlaps the next) never mail twice. A periodic job of the
 * API (ops/periodic.ts). Answers how many grants were noticed.
 */
export async function sendExpiryNotices(ctx: AppContext, batch = 100): Promise<number> {
  const now = ctx.clock.now();
  // Through the write path: the claim and the mails it causes are one transaction, both kept or neither.
  const claimed = await runWrite(ctx.db, {
    change: (tx) => claimExpiredGrants(tx, now, batch),
    // The mails are the notice: the expiry itself changes no one's access (it ended at expires_at).
    // The step is logged once, at the time the grant ended (impersonation.expire, a webhook event).
    trail: async (tx, claimed) => {
      for (const g of claimed) {
        await logEvent(tx, {
          requestId: Number(g.id),
          at: new Date(g.expires_at),
          actor: null,
          event: 'expire',
          status: 'Expired',
          details: { expiresAt: new Date(g.expires_at).toISOString() },
        });
        const ended = { requestId: g.id, appName: g.app_name, endedAt: new Date(g.expires_at) };
        const staff = g.holder_email;
        if (staff && staff !== g.owner_email)
          await ctx.mailer.send(tx, holderExpiryMail({ to: staff, ...ended }));
        await ctx.mailer.send(
          tx,
          ownerExpiryMail({ to: g.owner_email, firstName: g.owner_first_name, ...ended }),
        );
      }
    },
  });
  return claimed.length;
}

/**
 * Approved grants that end within `withinMs` and whose holder was not told yet, claimed and
 * stamped (`expiring_notified_at`) in the caller's write: the staff notifications' "grant expiring"
 * job (staff-notifications.service.ts) tells each holder once, whatever runs at once.
 */
export function claimGrantsExpiringSoon(
  tx: WriteTx,
  now: Date,
  withinMs: number,
  batch: number,
): Promise<ExpiringGrant[]> {
  return claimExpiringGrants(tx, now, withinMs, batch);
}
