import { type ReactNode, useEffect, useRef, useState } from 'react';
import styles from './table-scroll.module.css';

/**
 * The box a table scrolls in when it is wider than the screen. Only while it overflows is it a
 * named region in the Tab order, so a keyboard user can scroll it with the arrow keys (WCAG
 * 2.1.1; axe's scrollable-region-focusable) without every table adding a Tab stop.
 * data-scroll-box marks it for the browser specs' page-width check, which skips what scrolls here.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => setOverflows(box.scrollWidth > box.clientWidth + 1);
    measure();
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    const table = box.firstElementChild;
    if (table) observer.observe(table);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      className={styles.tableScroll}
      data-scroll-box
      {...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
    >
      {children}
    </div>
  );
}
