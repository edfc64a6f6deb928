import type { ReactNode } from 'react';
import { useProductName } from '../lib/footer-links.ts';
import { useFocusedHeading } from '../lib/use-focused-heading.ts';

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
  panelClass: string;
  kicker: string;
  heading: string;
  children: ReactNode;
}) {
  const productName = useProductName();
  const headingRef = useFocusedHeading(heading);
  return (
    <main className="auth-page" lang="en">
      <div className={`auth-panel ${panelClass}`}>
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">{productName}</span>
        </div>
        <section className="auth-card" aria-labelledby={id}>
          <p className="auth-kicker">{kicker}</p>
          <h1 id={id} tabIndex={-1} ref={headingRef}>
            {heading}
          </h1>
          {children}
        </section>
      </div>
    </main>
  );
}
