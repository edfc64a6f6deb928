import type { Db } from '../../db/db.ts';
import { outsideCalls } from '../../db/statement-log.ts';
import { recordTokenUses } from './api-tokens.repo.ts';

/**
 * Each token's last use and address, written behind the calls as the recently viewed customers
 * are (dashboard/recent-views.ts): a call notes its token's use in memory, at most once a minute
 * per token, and a batch of the noted uses is written in one statement of its own FLUSH_MS later
 * (and when the app closes). A token's read calls write nothing in their own request.
 */
const FLUSH_MS = 1000;
/** How often one token's use is written at most. */
const NOTE_EVERY_MS = 60_000;

export class TokenUses {
  private pending = new Map<number, { at: Date; address: string }>();
  /** When each token's use was last noted here (ms), so a busy token is written once a minute. */
  private noted = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly db: Db;
  private readonly write: typeof recordTokenUses;

  /** `write`: the statement that records a batch (staff tokens' by default, or the SCIM tokens'). */
  constructor(db: Db, write: typeof recordTokenUses = recordTokenUses) {
    this.db = db;
    this.write = write;
  }

  note(id: number, at: Date, address: string): void {
    const last = this.noted.get(id);
    if (last !== undefined && at.getTime() - last < NOTE_EVERY_MS) return;
    if (this.noted.size >= 10_000) this.noted.clear();
    this.noted.set(id, at.getTime());
    this.pending.set(id, { at, address });
    this.timer ??= outsideCalls(() => setTimeout(() => void this.flush().catch(() => {}), FLUSH_MS).unref());
  }

  /** Writes every noted use in one statement; a batch that fails is dropped (a last use, not a record). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const uses = [...this.pending].map(([id, u]) => ({ id, ...u }));
    this.pending = new Map();
    const run = this.writing.then(() => (uses.length > 0 ? this.write(this.db, uses) : undefined));
    this.writing = run.catch(() => {});
    return run;
  }
}
