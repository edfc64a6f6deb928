import type { AppContext } from '../src/app-context.ts';
import { deliverWebhooks } from '../src/modules/webhooks/webhook-delivery.service.ts';

/** A position in the trail, (transaction, id), as numbers that order as the fan-out orders. */
const position = (r: { txid: string; id: string } | undefined) =>
  r ? [BigInt(r.txid), BigInt(r.id)] : [0n, 0n];
const after = (a: bigint[], b: bigint[]) => a[0]! > b[0]! || (a[0] === b[0] && a[1]! >= b[1]!);

/**
 * Runs the webhook job until its fan-out has taken every trail row committed before the call, and
 * its sends with them. On PostgreSQL the fan-out takes rows only below the oldest transaction
 * running on the whole server (the trail's horizon), so one run beside another test file's
 * transaction may take none of them yet.
 */
export async function deliverAll(ctx: AppContext): Promise<void> {
  const last = position(
    (
      await ctx.db.query<{ txid: string; id: string }>(
        'SELECT txid::text AS txid, id::text AS id FROM activity_log ORDER BY txid DESC, id DESC LIMIT 1',
      )
    ).rows[0],
  );
  const deadline = Date.now() + 15_000;
  for (;;) {
    await deliverWebhooks(ctx);
    const cursor = position(
      (
        await ctx.db.query<{ txid: string; id: string }>(
          'SELECT txid::text AS txid, last_id::text AS id FROM webhook_fanout',
        )
      ).rows[0],
    );
    if (after(cursor, last)) return;
    if (Date.now() > deadline)
      throw new Error('the webhook fan-out did not reach the trail rows of the test in 15 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
