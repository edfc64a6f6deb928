import type { SearchCriterion } from '@sac/contract/customers';
import { countingStatements, type Queryable } from '../../db/db.ts';
import { searchCounted } from './customer-search.repo.ts';
import type { SearchCount, SearchPosition } from './search-sql.ts';

/**
 * Searches of every kind, run on an embedded (PGlite) database once the server answers and before
 * /readyz says it is ready (server.ts, ops/start-steps.ts).
 *
 * PGlite is PostgreSQL compiled to WebAssembly, and V8 compiles WebAssembly lazily: each function
 * on first call with its baseline compiler, and again, optimized, once it has run hot. A fresh
 * process's first few hundred searches therefore ran partly on unoptimized code, and one in ten
 * took 5–10 ms instead of 1 (docs/decisions.md, performance). A PostgreSQL server keeps its
 * compiled code and caches across API restarts; PGlite starts from nothing with the process.
 *
 * One query at a time, yielding to the event loop between them so that a shutdown signal is heard;
 * it stops after `budgetMs` or `maxQueries`, or when `stopped()` says so.
 */
export interface WarmUpOptions {
  budgetMs: number;
  maxQueries: number;
  stopped: () => boolean;
}

/**
 * Searches enough to warm the engine: in SQL at 1M customers, the first 200 real searches after
 * 100 warm-up searches had p95 2.3 ms, after 200 1.2 ms (9.2 ms with none).
 */
export const WARM_UP_MAX_QUERIES = 200;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Common first letter pairs of names and emails. */
const PAIRS = [
  'an',
  'ma',
  'jo',
  'da',
  'el',
  'ka',
  'ro',
  'sa',
  'li',
  'be',
  'ch',
  'mi',
  'st',
  'la',
  'ha',
  'to',
];
/** Common three-letter (and longer) runs of names and site names. */
const SUBSTRINGS = ['ann', 'son', 'ert', 'mar', 'ell', 'ton', 'ria', 'ine', 'app', 'shop', 'web', 'dev'];

/** The searches of one round: mostly the short prefixes that must answer in a few milliseconds. */
function* round(i: number): Generator<{ criterion: SearchCriterion; term: string }> {
  const letter = LETTERS[i % LETTERS.length]!;
  const pair = PAIRS[i % PAIRS.length]!;
  yield { criterion: 'customerName', term: letter };
  yield { criterion: 'customerName', term: pair };
  yield { criterion: 'emailid', term: `${pair}${letter}` };
  yield { criterion: 'emailid', term: `${letter}${pair}@example.com` };
  if (i % 4 === 0) yield { criterion: 'customerName', term: SUBSTRINGS[(i / 4) % SUBSTRINGS.length]! };
  if (i % 8 === 0) yield { criterion: 'sitename', term: SUBSTRINGS[(i / 8) % SUBSTRINGS.length]! };
  if (i % 8 === 4) yield { criterion: 'sitename', term: letter };
}

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function warmUpSearch(
  db: Queryable,
  opts: WarmUpOptions,
): Promise<{ queries: number; ms: number }> {
  const started = performance.now();
  // a search sends one to four statements (its count, its tiers): each counts as a query
  let queries = 0;
  const counting = countingStatements(db, () => queries++);
  const done = () =>
    opts.stopped() || queries >= opts.maxQueries || performance.now() - started >= opts.budgetMs;
  for (let i = 0; !done(); i++) {
    for (const { criterion, term } of round(i)) {
      if (done()) break;
      let from: { at: SearchPosition; count: SearchCount } | undefined;
      // a first page (and its count), and every other round the page after it (the cursor's query)
      for (let page = 0; page < (i % 2 === 0 ? 2 : 1); page++) {
        await nextTick();
        if (done()) break;
        const found = await searchCounted(counting, criterion, term, from);
        if (!found.next) break;
        from = { at: found.next, count: found.count };
      }
    }
  }
  return { queries, ms: performance.now() - started };
}
