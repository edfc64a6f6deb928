import type { SuperUser } from '@sac/contract/team';
import { BulkBar, type Picks } from '../../../components/bulk-bar.tsx';
import { useT } from '../../../lib/i18n.tsx';

/**
 * The bar over the team list while some members are selected (BulkBar): resend their invitations,
 * the members picked or every member the list shows (it has no filter); the dry run says who has
 * no pending invitation, or is outside the viewer's rights.
 */
export function BulkInvitationsBar({
  members,
  picks,
  setPicks,
}: {
  members: readonly SuperUser[];
  picks: Picks;
  setPicks: (p: Picks) => void;
}) {
  const t = useT('team');
  return (
    <BulkBar
      label={t('bulkBarLabel')}
      words={{
        selected: (count) => t('bulkSelected', { count }),
        allSelected: (count) => t('bulkAllSelected', { count: count ?? members.length }),
        selectAll: (count) => t('bulkSelectAll', { count: count ?? members.length }),
        clear: t('bulkClear'),
      }}
      total={members.length}
      picks={picks}
      setPicks={setPicks}
      actions={[{ action: 'invitation.resend', label: t('bulkResend') }]}
      bodyOf={(_action, p) => ({
        Action: 'invitation.resend',
        Selection: p.all ? { Kind: 'all' } : { Kind: 'rows', Uids: [...p.picked] },
      })}
    />
  );
}
