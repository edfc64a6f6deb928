import type { AppContext } from '../app-context.ts';
import { runWrite } from '../lib/write-path.ts';
import { holderExpiryMail, ownerExpiryMail } from './expiry-notices.mails.ts';

interface Claimed {
  id: number;
  app_name: string;
  holder_email: string | null;
  owner_email: string;
  owner_first_name: string;
  expires_at: Date;
}

/**
 * Approved impersonation grants whose time is up get one notice each: to the staff member who
 * held the grant (its holder, recorded at approval: the initiator; for a customer's own request,
 * the SuperAdmin who approved it), at the address they have now, and to the site owner. The rows are claimed and stamped in the one UPDATE that selects them,
 * so two runs at once (two instances, or a run that overlaps the next) never mail twice; a row
 * locked by another run is skipped rather than waited for. Answers how many grants were noticed.
 */
export async function sendExpiryNotices(ctx: AppContext, batch = 100): Promise<number> {
  const now = ctx.clock.now();
  // Through the write path: the claim and the mails it causes are one transaction, both kept or neither.
  const claimed = await runWrite(ctx.db, {
    change: async (tx) =>
      (
        await tx.query<Claimed>(
          `WITH due AS (
       SELECT id FROM impersonation_requests
       WHERE status = 'Approved' AND expiry_notified_at IS NULL AND expires_at <= $1 AND deleted_at IS NULL
       ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     UPDATE impersonation_requests r SET expiry_notified_at = $1
     FROM due, sites s JOIN customers c ON c.uid = s.owner_uid
     WHERE r.id = due.id AND s.app_id = r.app_id AND r.expiry_notified_at IS NULL
     RETURNING r.id, s.app_name, (SELECT h.email FROM staff h WHERE h.uid = r.holder_uid) AS holder_email,
       c.email AS owner_email, c.first_name AS owner_first_name, r.expires_at`,
          [now, batch],
        )
      ).rows,
    // The mails are the notice: the expiry itself changes no one's access (it ended at expires_at).
    trail: async (tx, claimed) => {
      for (const g of claimed) {
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
