import { useT } from '../lib/i18n.tsx';

/** The content pane of a screen that a later release fills. */
export function NotAvailable({ title }: { title: string }) {
  const t = useT('common');
  return (
    <section className="card empty-state" aria-labelledby="screen-title">
      <h1 id="screen-title">{title}</h1>
      <p>{t('notAvailable')}</p>
      <p className="muted">{t('notAvailableDetail')}</p>
    </section>
  );
}
