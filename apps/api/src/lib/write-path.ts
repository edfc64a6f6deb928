import type { Db, Queryable } from '../db/db.ts';
import { claimVersionOrRefuse } from './record-version.ts';

declare const inWritePath: unique symbol;

/**
 * A transaction of the write path: only runWrite makes one, so a function that takes a WriteTx
 * (the staff trail's writes) can only run inside a write, with its change, under its lock.
 */
export type WriteTx = Queryable & { readonly [inWritePath]: true };

/**
 * One write, as the write path runs it: every step in one transaction, so the change is kept
 * with its trail row or not at all. A failure at any step (a refusal, a conflict, a trail insert
 * that fails) rolls everything back.
 */
export interface Write<Locked, Done> {
  /**
   * Locks the named record for the transaction and answers it, refusing (throws) a record that
   * is not there or not the caller's: the checks that decide whether the write may run are made
   * here, under the lock, so no other write can change their answer before this one commits.
   * Left out when the change is one statement on its one record, which holds that row itself.
   */
  lock?(tx: WriteTx): Promise<Locked>;
  /** The record whose version guards the write (record_versions), and the version the caller read. */
  version?: { record: string; expected: number | undefined };
  /** The change; `version` is the record's new version when the write is versioned. */
  change(tx: WriteTx, locked: Locked, version: number | undefined): Promise<Done>;
  /**
   * The staff-trail row of the change, and any outbox or notification rows it sends. `{ none }`
   * only for a change that is no one's business but its actor's (a notification marked read),
   * saying why.
   */
  trail: ((tx: WriteTx, done: Done, locked: Locked) => Promise<void>) | { none: string };
}

/**
 * Runs a write: the lock of its record, the version check (412, 930 when the record moved on),
 * the change, the trail row and the outbox rows, committed together.
 */
export function runWrite<Locked, Done>(db: Db, w: Write<Locked, Done>): Promise<Done> {
  return db.transaction(async (queryable) => {
    const tx = queryable as WriteTx;
    const locked = (await w.lock?.(tx)) as Locked;
    const version = w.version
      ? await claimVersionOrRefuse(tx, w.version.record, w.version.expected)
      : undefined;
    const done = await w.change(tx, locked, version);
    if (typeof w.trail === 'function') await w.trail(tx, done, locked);
    return done;
  });
}
