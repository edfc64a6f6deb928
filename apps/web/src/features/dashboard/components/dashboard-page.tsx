import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';

/** /dashboard: the spec's placeholder. */
export default function DashboardPage() {
  const t = useT('dashboard');
  const user = useCurrentUser();
  return (
    <section className="card" aria-labelledby="screen-title">
      <h1 id="screen-title">{t('heading')}</h1>
      <p className="lead">{t('placeholder')}</p>
      {user.name || user.email ? (
        <p className="muted">{t('welcome', { name: user.name || user.email })}</p>
      ) : null}
    </section>
  );
}
