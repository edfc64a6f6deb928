import { FOOTER_LINKS } from '../../lib/footer-links.ts';
import { useT } from '../../lib/i18n.tsx';

/** Footer with Terms, Privacy and System Status links. */
export function Footer() {
  const t = useT('chrome');
  const product = useT('common')('productName');
  return (
    <footer className="footer">
      <span className="muted">{t('copyright', { year: new Date().getFullYear(), product })}</span>
      <nav aria-label={t('footerNav')}>
        <a href={FOOTER_LINKS.terms} target="_blank" rel="noopener noreferrer">
          {t('terms')}
        </a>
        <a href={FOOTER_LINKS.privacy} target="_blank" rel="noopener noreferrer">
          {t('privacy')}
        </a>
        <a href={FOOTER_LINKS.systemStatus} target="_blank" rel="noopener noreferrer">
          {t('systemStatus')}
        </a>
      </nav>
    </footer>
  );
}
