import type { DisplayStatus } from '@sac/contract/impersonation';
import type { ListSort } from '@sac/contract/list-sort';
import { BulkBar, type Picks } from '../../../components/bulk-bar.tsx';
import { CsvExport } from '../../../components/file-export.tsx';
import { streamedFile } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { listQuery } from '../api/impersonation-api.ts';

/**
 * The bar over the impersonation requests while some are selected (BulkBar): revoke grants and
 * reject pending requests, over the rows picked or every request the list shows under its status
 * filter. `total` is how many the list holds, once it has read them all.
 */
export function BulkRequestsBar({
  status,
  sort,
  total,
  picks,
  setPicks,
}: {
  status: DisplayStatus | undefined;
  /** The list's order: the export of the selection is in it. */
  sort: ListSort | undefined;
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
      more={
        // the list's own export: of the rows picked (ids), or of all matching its filter
        <CsvExport
          list={t('bulkRequestsExportOf')}
          download={streamedFile('impersonationRequestsExport', {
            ...listQuery(status, sort),
            ...(picks.all ? {} : { ids: [...picks.picked].join(',') }),
          })}
        />
      }
      bodyOf={(action, p) => ({
        Action: action as 'request.revoke' | 'request.reject',
        Selection: p.all
          ? { Kind: 'all', ...(status ? { Status: status } : {}) }
          : { Kind: 'rows', Ids: [...p.picked].map(Number) },
      })}
    />
  );
}
