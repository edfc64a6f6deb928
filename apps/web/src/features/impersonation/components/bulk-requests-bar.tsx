import type { DisplayStatus } from '@sac/contract/impersonation';
import { BulkBar, type Picks } from '../../../components/bulk-bar.tsx';
import { useT } from '../../../lib/i18n.tsx';

/**
 * The bar over the impersonation requests while some are selected (BulkBar): revoke grants and
 * reject pending requests, over the rows picked or every request the list shows under its status
 * filter. `total` is how many the list holds, once it has read them all.
 */
export function BulkRequestsBar({
  status,
  total,
  picks,
  setPicks,
}: {
  status: DisplayStatus | undefined;
  total: number | undefined;
  picks: Picks;
  setPicks: (p: Picks) => void;
}) {
  const t = useT('customers');
  return (
    <BulkBar
      label={t('bulkRequestsBarLabel')}
      words={{
        selected: (count) => t('bulkSelected', { count }),
        allSelected: (count) =>
          count === undefined ? t('bulkRequestsAllUncounted') : t('bulkRequestsAllSelected', { count }),
        selectAll: (count) =>
          count === undefined ? t('bulkRequestsSelectAllUncounted') : t('bulkRequestsSelectAll', { count }),
        clear: t('bulkClear'),
      }}
      total={total}
      picks={picks}
      setPicks={setPicks}
      actions={[
        { action: 'request.revoke', label: t('bulkRevoke'), danger: true },
        { action: 'request.reject', label: t('bulkReject'), danger: true },
      ]}
      bodyOf={(action, p) => ({
        Action: action as 'request.revoke' | 'request.reject',
        Selection: p.all
          ? { Kind: 'all', ...(status ? { Status: status } : {}) }
          : { Kind: 'rows', Ids: [...p.picked].map(Number) },
      })}
    />
  );
}
