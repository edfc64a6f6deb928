import { AsyncLocalStorage } from 'node:async_hooks';

/*
 * Statements by kind, per call: what the reads-never-write and statement-budget tests hold each
 * endpoint to. db.ts tells `statementHook.sink` of every statement it sends and of every
 * transaction's begin and end; the sink is unset unless something records, so a statement in
 * production pays one property read and a null check.
 */

/** What a statement does to the database: reads it, writes it, or neither (SET, LISTEN…). */
type StatementKind = 'read' | 'write' | 'other';

/** One transaction as the sink follows it: whether a statement in it wrote. */
export interface TxMark {
  wrote: boolean;
}

export interface StatementSink {
  /** A statement, run alone (then it commits on its own) or in the transaction `tx`. */
  statement(sql: string, tx: TxMark | undefined): void;
  begin(): TxMark;
  /** The transaction's end: committed, or rolled back. */
  end(tx: TxMark, committed: boolean): void;
}

/** Read by db.ts on every statement; set only while statements are recorded. */
export const statementHook: { sink?: StatementSink } = {};

/** What the statements of one call did. */
export interface StatementCounts {
  /** Every statement sent but BEGIN, COMMIT and ROLLBACK. */
  statements: number;
  reads: number;
  writes: number;
  /** Transactions begun (BEGIN … COMMIT or ROLLBACK). */
  transactions: number;
  /**
   * Writes made durable: transactions committed with a write in them, and writes run alone (each
   * its own commit). A commit of a transaction that only read writes nothing (no WAL flush).
   */
  commits: number;
  /** The text of each write, for a failing test's message. */
  written: string[];
}

const WRITES =
  /\b(INSERT\s+INTO|UPDATE\s+(ONLY\s+)?[\w."]+(\s+(AS\s+)?\w+)?\s+SET|DELETE\s+FROM|MERGE\s+INTO)\b/i;
const READS = new Set(['SELECT', 'VALUES', 'TABLE', 'SHOW', 'EXPLAIN', 'FETCH']);
const NEITHER = new Set(['SET', 'RESET', 'LISTEN', 'UNLISTEN', 'DISCARD', 'DEALLOCATE', 'CLOSE']);

/**
 * The kind of a statement by its first word: SELECT and a WITH whose parts only select read;
 * session settings do neither; everything else (INSERT, UPDATE, DELETE, MERGE, DDL, COPY, LOCK,
 * NOTIFY…) counts as a write, so an unknown statement is never taken for a read.
 */
export function statementKind(sql: string): StatementKind {
  const text = sql.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/|\()*/, '');
  const word = /^[A-Za-z]+/.exec(text)?.[0]?.toUpperCase() ?? '';
  if (word === 'WITH') return WRITES.test(text) ? 'write' : 'read';
  if (READS.has(word)) return 'read';
  if (NEITHER.has(word)) return 'other';
  return 'write';
}

const calls = new AsyncLocalStorage<StatementCounts>();

const recordingSink: StatementSink = {
  statement(sql, tx) {
    const counts = calls.getStore();
    if (!counts) return;
    const kind = statementKind(sql);
    counts.statements++;
    if (kind === 'read') counts.reads++;
    if (kind !== 'write') return;
    counts.writes++;
    counts.written.push(sql.replace(/\s+/g, ' ').trim().slice(0, 120));
    if (tx) tx.wrote = true;
    else counts.commits++;
  },
  begin() {
    const counts = calls.getStore();
    if (counts) counts.transactions++;
    return { wrote: false };
  },
  end(tx, committed) {
    const counts = calls.getStore();
    if (counts && committed && tx.wrote) counts.commits++;
  },
};

/**
 * Runs `fn` (a call to the API, in tests) and answers it with the statements run in its async
 * context (`fn` sees them as they come): the request's own, authentication included, and none of another call or of
 * a background job (see outsideCalls).
 */
export async function recordStatements<T>(
  fn: (counts: StatementCounts) => Promise<T>,
): Promise<{ out: T; counts: StatementCounts }> {
  statementHook.sink = recordingSink;
  const counts: StatementCounts = {
    statements: 0,
    reads: 0,
    writes: 0,
    transactions: 0,
    commits: 0,
    written: [],
  };
  const out = await calls.run(counts, () => fn(counts));
  return { out, counts };
}

/**
 * Runs `fn` outside the recorded call it was started from: work a call leaves behind (a timer it
 * armed, a batch it queued) is not that call's.
 */
export const outsideCalls = <T>(fn: () => T): T => calls.exit(fn);
