import { NotAvailable } from '../../../components/not-available.tsx';
import type { impersonation } from '../../../i18n/en/impersonation.ts';
import { useT } from '../../../lib/i18n.tsx';

export default function ImpersonationPlaceholder({ screen }: { screen: keyof typeof impersonation }) {
  const t = useT('impersonation');
  return <NotAvailable title={t(screen)} />;
}
