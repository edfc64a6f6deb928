import type { StaffSessionInfo } from '@sac/contract/auth';
import { BulkBar, type Picks } from '../../../components/bulk-bar.tsx';
import { useT } from '../../../lib/i18n.tsx';

/**
 * The bar over a colleague's sessions while some are selected (BulkBar): end them, the rows
 * picked or all their live sessions. The sessions list is per member, so the bulk end is too.
 */
export function BulkSessionsBar({
  uid,
  sessions,
  picks,
  setPicks,
}: {
  uid: string;
  sessions: readonly StaffSessionInfo[];
  picks: Picks;
  setPicks: (p: Picks) => void;
}) {
  const t = useT('customers');
  return (
    <BulkBar
      label={t('bulkSessionsBarLabel')}
      words={{
        selected: (count) => t('bulkSelected', { count }),
        allSelected: (count) => t('bulkSessionsAllSelected', { count: count ?? sessions.length }),
        selectAll: (count) => t('bulkSessionsSelectAll', { count: count ?? sessions.length }),
        clear: t('bulkClear'),
      }}
      total={sessions.length}
      picks={picks}
      setPicks={setPicks}
      actions={[{ action: 'session.end', label: t('bulkEndSessions'), danger: true }]}
      bodyOf={(_action, p) => ({
        Action: 'session.end',
        StaffUid: uid,
        Selection: p.all ? { Kind: 'all' } : { Kind: 'rows', Ids: [...p.picked].map(Number) },
      })}
    />
  );
}
