import { RECENT_CUSTOMERS_KEPT } from '@sac/contract/dashboard';
import type { AppContext } from '../../app-context.ts';
import { outsideCalls } from '../../db/statement-log.ts';
import { type PendingView, recordCustomerViews } from './dashboard.repo.ts';

/**
 * The dashboard's "recently viewed customers", written behind the read that views them: opening
 * a customer puts the view in memory, and a batch of every pending view is written in one
 * statement of its own, FLUSH_MS after the first view of the batch and when the app closes. The
 * customer's GET commits nothing (it wrote an upsert and a delete on every call: a WAL flush per
 * read). The dashboard of this instance reads its pending views beside the table's, so a viewer
 * sees their own views at once; another instance sees them once the batch is written. A view is
 * lost only if the process dies within FLUSH_MS of it (kill -9): a recently-viewed list, not a
 * record.
 */
const FLUSH_MS = 1000;

/** Each staff member's pending views, customer → when; only their newest RECENT_CUSTOMERS_KEPT matter. */
type Pending = Map<string, Map<string, Date>>;

class RecentViews {
  private pending: Pending = new Map();
  private timer: NodeJS.Timeout | undefined;
  /** The batch being written: the next waits for it, so batches land in order. */
  private writing: Promise<void> = Promise.resolve();

  private readonly ctx: AppContext;

  constructor(ctx: AppContext) {
    this.ctx = ctx;
  }

  add(staffUid: string, customerUid: string, at: Date): void {
    let mine = this.pending.get(staffUid);
    if (!mine) {
      mine = new Map();
      this.pending.set(staffUid, mine);
    }
    const before = mine.get(customerUid);
    if (!before || before < at) mine.set(customerUid, at);
    if (mine.size > RECENT_CUSTOMERS_KEPT) mine.delete(oldest(mine));
    // The timer is no call's: its batch is not counted as the statements of the view that armed it.
    this.timer ??= outsideCalls(() => setTimeout(() => void this.flush().catch(() => {}), FLUSH_MS).unref());
  }

  /** This instance's views of `staffUid` not yet written. */
  of(staffUid: string): PendingView[] {
    return [...(this.pending.get(staffUid) ?? [])].map(([customerUid, at]) => ({
      staffUid,
      customerUid,
      at,
    }));
  }

  /** Writes every pending view in one statement; a batch that fails goes back to wait for the next. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    const views = [...batch].flatMap(([staffUid, mine]) =>
      [...mine].map(([customerUid, at]) => ({ staffUid, customerUid, at })),
    );
    const run = this.writing.then(async () => {
      if (views.length === 0) return;
      try {
        await recordCustomerViews(this.ctx.db, views);
      } catch (e) {
        for (const v of views) this.add(v.staffUid, v.customerUid, v.at);
        throw e;
      }
    });
    this.writing = run.catch(() => {});
    return run;
  }
}

function oldest(views: Map<string, Date>): string {
  let out = '';
  let at: Date | undefined;
  for (const [uid, when] of views) {
    if (!at || when < at || (when.getTime() === at.getTime() && uid > out)) {
      out = uid;
      at = when;
    }
  }
  return out;
}

const queues = new WeakMap<AppContext, RecentViews>();

/** The recently-viewed queue of one app. */
export function recentViews(ctx: AppContext): RecentViews {
  let q = queues.get(ctx);
  if (!q) {
    q = new RecentViews(ctx);
    queues.set(ctx, q);
  }
  return q;
}
