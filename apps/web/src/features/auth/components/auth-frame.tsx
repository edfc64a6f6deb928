import { type ReactNode, useEffect } from 'react';
import publicPageStyles from '../../../components/public-page.module.css';
import { useProductName } from '../../../lib/footer-links.ts';
import { HTML_LANG, useLanguage } from '../../../lib/i18n.tsx';

/**
 * The frame every sign-in screen shares: brand, a card with the screen's heading (focused when the
 * screen opens), in the language the user chose there; `after` follows the card (the language switch).
 */
export function AuthFrame({
  heading,
  kicker,
  intro,
  after,
  children,
}: {
  heading: string;
  /** A line above the heading, naming the screen it belongs to. */
  kicker?: string;
  intro?: string;
  after?: ReactNode;
  children: ReactNode;
}) {
  const product = useProductName();
  const { language } = useLanguage();
  useEffect(() => {
    document.getElementById('auth-heading')?.focus({ preventScroll: true });
  }, []);
  return (
    <main className={publicPageStyles.authPage} lang={HTML_LANG[language]}>
      <div className={publicPageStyles.authPanel}>
        <div className={publicPageStyles.authBrand}>
          <span className={publicPageStyles.brandMark} aria-hidden="true" />
          <span className={publicPageStyles.brandName}>{product}</span>
        </div>
        <section className={publicPageStyles.authCard} aria-labelledby="auth-heading">
          {kicker ? <p className={publicPageStyles.authKicker}>{kicker}</p> : null}
          <h1 id="auth-heading" tabIndex={-1}>
            {heading}
          </h1>
          {intro ? <p className="muted">{intro}</p> : null}
          {children}
        </section>
        {after}
      </div>
    </main>
  );
}
