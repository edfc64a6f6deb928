import { useT } from '../lib/i18n.tsx';
import styles from './skeleton.module.css';

/**
 * Grey lines shaped like the content while it loads (a screen: a title and paragraphs); screen
 * readers hear `label` ('Loading…' unless told) once, from a status region.
 */
export function Skeleton({
  lines = 3,
  label,
  screen = false,
}: {
  lines?: number;
  label?: string;
  screen?: boolean;
}) {
  const t = useT('common');
  return (
    <div
      className={screen ? `${styles.skeletonBlock} ${styles.skeletonScreen}` : styles.skeletonBlock}
      role="status"
    >
      <span className="visually-hidden">{label ?? t('loading')}</span>
      {screen ? <span className={`skeleton ${styles.skeletonTitle}`} aria-hidden="true" /> : null}
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder lines have no identity
        <span key={i} className="skeleton" aria-hidden="true" />
      ))}
    </div>
  );
}
