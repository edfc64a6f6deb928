import { formatLocalDateTime, formatRelative } from '../lib/date-format.ts';
import { useRelativeClock, useTimeZone } from '../lib/time-zone.ts';
import styles from './timestamp.module.css';

/**
 * A moment as people read it at a glance ('3 minutes ago'), with the exact time in the chosen
 * zone (the viewer's or UTC, from the user menu) on hover and on focus, and for screen readers.
 */
export function Timestamp({ value }: { value: string | null | undefined }) {
  const zone = useTimeZone();
  const now = useRelativeClock();
  if (!value) return null;
  const exact = formatLocalDateTime(value, zone);
  if (!exact) return null;
  const text = `${exact} (${zone})`;
  return (
    <time
      className={styles.timestamp}
      dateTime={value}
      title={text}
      data-exact={text}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: focus shows the exact time to keyboard users, as hover does
      tabIndex={0}
    >
      {formatRelative(value, now)}
      <span className="visually-hidden"> ({text})</span>
    </time>
  );
}
