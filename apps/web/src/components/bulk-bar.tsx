import type { BulkAction, BulkDryRunBody } from '@sac/contract/bulk';
import { type ReactNode, useState } from 'react';
import styles from './bulk.module.css';
import { BulkDialog } from './bulk-dialog.tsx';

/** A list's selection: the rows picked (their keys), or every row matching the list's filter ("all N"). */
export interface Picks {
  picked: ReadonlySet<string>;
  all: boolean;
}
export const NO_PICKS: Picks = { picked: new Set(), all: false };

/** One action of the bar: its button's label, and whether it takes something away. */
export interface BarAction {
  action: BulkAction;
  label: string;
  danger?: boolean;
}

/**
 * The bar over any list while some rows are selected: how many, "Select all N matching" once a
 * whole page is (N is how many the list holds under its filter, bounded by the API's bound), the
 * list's actions and clearing; an action opens its dry run (BulkDialog), with the body the list
 * makes of the selection.
 */
export function BulkBar({
  label,
  words,
  total,
  picks,
  setPicks,
  actions,
  bodyOf,
  more,
}: {
  /** The region's name ("Bulk actions on the selected sites"). */
  label: string;
  /**
   * The list's sentences: rows selected, all selected, the offer to select all (their count
   * undefined when the list has not read them all: the dry run counts them).
   */
  words: {
    selected(count: number): string;
    allSelected(count: number | undefined): string;
    selectAll(count: number | undefined): string;
    clear: string;
  };
  /** How many rows the list holds under its filter; undefined: more than it has read. */
  total: number | undefined;
  picks: Picks;
  setPicks: (p: Picks) => void;
  actions: readonly BarAction[];
  /** The dry run's body of an action over the selection. */
  bodyOf: (action: BulkAction, picks: Picks) => BulkDryRunBody;
  /** What the bar offers beyond the jobs: the export of the selection (it changes nothing, so no dry run). */
  more?: ReactNode;
}) {
  const [body, setBody] = useState<BulkDryRunBody | undefined>();
  const count = picks.all ? total : picks.picked.size;
  if (count === 0 && !body) return null;
  const clear = () => setPicks(NO_PICKS);
  return (
    <section className={styles.bar} aria-label={label}>
      <p className={styles.count} aria-live="polite">
        {picks.all ? words.allSelected(count) : words.selected(picks.picked.size)}
      </p>
      {!picks.all && (total === undefined || picks.picked.size < total) ? (
        <button
          type="button"
          className="button button-small"
          onClick={() => setPicks({ picked: picks.picked, all: true })}
        >
          {words.selectAll(total)}
        </button>
      ) : null}
      {actions.map((a) => (
        <button
          key={a.action}
          type="button"
          className={a.danger ? 'button button-small button-danger' : 'button button-small'}
          onClick={() => setBody(bodyOf(a.action, picks))}
        >
          {a.label}
        </button>
      ))}
      {more}
      <button type="button" className="button button-small" onClick={clear}>
        {words.clear}
      </button>
      {body ? <BulkDialog body={body} onClose={() => setBody(undefined)} onEnded={clear} /> : null}
    </section>
  );
}
