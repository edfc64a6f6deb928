import { NotAvailable } from '../../../components/not-available.tsx';
import type { customers } from '../../../i18n/en/customers.ts';
import { useT } from '../../../lib/i18n.tsx';

/** The pane of a customer screen whose issue has not landed yet (create, add/edit site, ...). */
export default function CustomerPlaceholder({ screen }: { screen: keyof typeof customers }) {
  const t = useT('customers');
  return <NotAvailable title={t(screen)} />;
}
