import type { ReactNode } from 'react';
import { useProductName } from '../lib/footer-links.ts';
import { useFocusedHeading } from '../lib/use-focused-heading.ts';
import styles from './public-page.module.css';

/**
 * The frame of the pages a site owner opens from an email (consent, site access, unsubscribe): the sign-in
 * card's look, no console chrome, focus on the heading whenever it changes.
 */
export function PublicPage({
  id,
  panelClass,
  kicker,
  heading,
  children,
}: {
  id: string;
  panelClass: string | undefined;
  kicker: string;
  heading: string;
  children: ReactNode;
}) {
  const productName = useProductName();
  const headingRef = useFocusedHeading(heading);
  return (
    <main className={styles.authPage} lang="en">
      <div className={`${styles.authPanel} ${panelClass}`}>
        <div className={styles.authBrand}>
          <span className={styles.brandMark} aria-hidden="true" />
          <span className={styles.brandName}>{productName}</span>
        </div>
        <section className={styles.authCard} aria-labelledby={id}>
          <p className={styles.authKicker}>{kicker}</p>
          <h1 id={id} tabIndex={-1} ref={headingRef}>
            {heading}
          </h1>
          {children}
        </section>
      </div>
    </main>
  );
}
