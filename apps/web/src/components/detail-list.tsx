import type { ReactNode } from 'react';
import styles from './detail-list.module.css';

export interface DetailItem {
  label: ReactNode;
  value: ReactNode;
  /** Stable key; defaults to the label when it is text. */
  id?: string;
}

/**
 * A block of label/value pairs (`<dl>`). Items that are `false`, `null` or
 * `undefined` are left out, so optional rows can be written inline.
 */
export function DetailList({
  items,
  layout = 'compact',
  className,
  label,
}: {
  items: ReadonlyArray<DetailItem | false | null | undefined>;
  /** Compact: several short pairs a row; wide: one pair a row, for long values; plain: a grid of two. */
  layout?: 'compact' | 'wide' | 'plain';
  /** A class of the block's own, besides the layout's. */
  className?: string;
  /** An accessible name for the list, when the heading above does not give it one. */
  label?: string;
}) {
  return (
    <dl
      className={[
        styles.detailList,
        layout === 'plain' ? '' : styles[`detail-list-${layout}`],
        className ?? '',
      ]
        .filter(Boolean)
        .join(' ')}
      aria-label={label}
    >
      {items.map((item, i) =>
        item ? (
          <div key={item.id ?? (typeof item.label === 'string' ? item.label : i)}>
            <dt>{item.label}</dt>
            <dd>{item.value}</dd>
          </div>
        ) : null,
      )}
    </dl>
  );
}
