import type { Site } from '@sac/contract/customers';
import { BulkBar, type Picks } from '../../../components/bulk-bar.tsx';
import { useT } from '../../../lib/i18n.tsx';

/** The owned sites' selection: the rows picked, or every site of the list ("all N"). */
export type SitePicks = Picks;

/** The bar over the owned sites while some are selected: deactivate and activate (BulkBar). */
export function BulkSitesBar({
  uid,
  sites,
  picks,
  setPicks,
}: {
  uid: string;
  sites: readonly Site[];
  picks: SitePicks;
  setPicks: (p: SitePicks) => void;
}) {
  const t = useT('customers');
  return (
    <BulkBar
      label={t('bulkBarLabel')}
      words={{
        selected: (count) => t('bulkSelected', { count }),
        allSelected: (count) => t('bulkAllSelected', { count: count ?? sites.length }),
        selectAll: (count) => t('bulkSelectAll', { count: count ?? sites.length }),
        clear: t('bulkClear'),
      }}
      total={sites.length}
      picks={picks}
      setPicks={setPicks}
      actions={[
        { action: 'site.deactivate', label: t('bulkDeactivate'), danger: true },
        { action: 'site.activate', label: t('bulkActivate') },
      ]}
      bodyOf={(action, p) => ({
        Action: action as 'site.deactivate' | 'site.activate',
        Uid: uid,
        Selection: p.all ? { Kind: 'all' } : { Kind: 'rows', AppIds: [...p.picked].map(Number) },
      })}
    />
  );
}
