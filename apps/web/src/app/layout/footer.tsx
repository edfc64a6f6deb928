import { footerLinks, useProductName } from '../../lib/footer-links.ts';
import { useT } from '../../lib/i18n.tsx';
import styles from './footer.module.css';

/** Footer with Terms, Privacy and System Status links. */
export function Footer() {
  const t = useT('chrome');
  const product = useProductName();
  const links = footerLinks();
  return (
    <footer className={styles.footer}>
      <span className="muted">{t('copyright', { year: new Date().getFullYear(), product })}</span>
      <nav aria-label={t('footerNav')}>
        <a href={links.terms} target="_blank" rel="noopener noreferrer">
          {t('terms')}
        </a>
        <a href={links.privacy} target="_blank" rel="noopener noreferrer">
          {t('privacy')}
        </a>
        <a href={links.systemStatus} target="_blank" rel="noopener noreferrer">
          {t('systemStatus')}
        </a>
      </nav>
    </footer>
  );
}
