import { NotAvailable } from '../../../components/not-available.tsx';
import type { team } from '../../../i18n/en/team.ts';
import { useT } from '../../../lib/i18n.tsx';

export default function TeamPlaceholder({ screen }: { screen: keyof typeof team }) {
  const t = useT('team');
  return <NotAvailable title={t(screen)} />;
}
