import type { ReactNode } from 'react';
import styles from './day-chart.module.css';
/**
 * A small bar chart of counts per day, in plain SVG (no chart library: the route's budget and the
 * strict CSP). Colours come from the theme's variables; each bar names its day and count on hover,
 * and the whole chart is one image with a summary for screen readers.
 */
export function DayChart({
  days,
  label,
}: {
  days: ReadonlyArray<{ Day: string; Count: number }>;
  label: string;
}) {
  const max = Math.max(1, ...days.map((d) => d.Count));
  const width = days.length * 10;
  const height = 48;
  return (
    <svg
      className={styles.dayChart}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
    >
      <line className={styles.dayChartAxis} x1="0" y1={height - 0.5} x2={width} y2={height - 0.5} />
      {days.map((d, i) => {
        const h = d.Count === 0 ? 0 : Math.max(2, (d.Count / max) * (height - 4));
        return (
          <rect
            key={d.Day}
            className={styles.dayChartBar}
            x={i * 10 + 1.5}
            y={height - h}
            width="7"
            height={h}
          >
            <title>{`${d.Day}: ${d.Count}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}

/** Horizontal bars of a breakdown (plan, data center), longest first as given. */
export function BarList({ rows }: { rows: ReadonlyArray<{ key: string; label: ReactNode; count: number }> }) {
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <ul className={styles.barList}>
      {rows.map((r) => (
        <li key={r.key}>
          <span className={styles.barListLabel}>{r.label}</span>
          <span className={styles.barListCount}>{r.count.toLocaleString('en')}</span>
          <svg
            className={styles.barListTrack}
            viewBox="0 0 100 6"
            preserveAspectRatio="none"
            aria-hidden="true"
          >
            <rect className={styles.barListFill} width={(r.count / max) * 100} height="6" rx="1" />
          </svg>
        </li>
      ))}
    </ul>
  );
}
