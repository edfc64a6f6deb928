import { NotAvailable } from '../../../components/not-available.tsx';
import { useT } from '../../../lib/i18n.tsx';

/** /manage-notifications: placeholder (spec section 2). */
export default function NotificationsPage() {
  const t = useT('notifications');
  return <NotAvailable title={t('heading')} />;
}
