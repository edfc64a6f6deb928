import type { BulkAction, BulkList, BulkSelection } from '@sac/contract/bulk';
import type { AppContext } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import type { NewItem } from './bulk.repo.ts';

/** Why an item is refused (its state, its version, the actor's scope or permission, gone), and the sentence shown. */
export interface Refusal {
  code: 'state' | 'version' | 'scope' | 'permission' | 'gone';
  reason: string;
}

/** An item refused under its lock: the run records it and goes on to the next. */
export class ItemRefused extends Error {
  readonly refusal: Refusal;
  constructor(refusal: Refusal) {
    super(refusal.reason);
    this.refusal = refusal;
  }
}

/** What an item's run is told of its job. */
export interface JobOfItem {
  id: number;
  action: BulkAction;
  /** The customer of a customer-sites job (the customer search's items each name theirs: its key). */
  uid: string | null;
  /** What each item's single action is given beyond its target (a comment). */
  params: Record<string, unknown>;
}

/** An item as the runner hands it over: its target and what the dry run saw of it. */
export interface ItemToRun {
  target: number;
  /** Its key when the list's ids are not numbers (a team member's uid), or its site's owner. */
  key?: string;
  seen: { status: string; version: number };
}

/**
 * A kind of bulk item: one list and its actions. Each kind gives how a selection resolves to
 * items (judged by the item's rule), the item's run (the single action's own service call, with
 * the same rule checked under that action's lock), and, when its actions are reversible, the items
 * of an undo. The job's machinery (plan, run, approval, cancel, undo, trail) is the same for all.
 */
export interface BulkKind<Body = unknown> {
  list: BulkList;
  /** The permission of the list's single actions: a caller without it may not handle its jobs. */
  permission: string;
  /** What the list's items are called in messages ("sites", "requests"). */
  noun: string;
  /** What is said when the selection names nothing. */
  none: string;
  /** What the job keeps of the body for its items beyond their targets (a comment). */
  params?(body: Body): Record<string, unknown>;
  /** What the job keeps of the selection (absent: the selection as asked). */
  kept?(body: Body): BulkSelection;
  /** The customer a job is about (customer-sites: the body's Uid), else null. */
  customerOf?(body: Body): string;
  /** The selection's items, at most `limit`, each planned to change or refused with the reason. */
  plan(ctx: AppContext, call: StaffCall, body: Body, limit: number): Promise<NewItem[]>;
  /** One item: the single action's own call; its refusal, or undefined when it changed. */
  run(ctx: AppContext, call: StaffCall, job: JobOfItem, item: ItemToRun): Promise<Refusal | undefined>;
  /** The items of the inverse job over those `jobId` changed, each judged as it is now. */
  undoItems?(tx: Queryable, jobId: number, inverse: BulkAction, call: StaffCall): Promise<NewItem[]>;
}
