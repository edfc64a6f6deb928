import type { StaffSessionInfo } from '@sac/contract/auth';
import { errorText } from '../lib/api-client.ts';
import { useT } from '../lib/i18n.tsx';
import { type Column, DataTable, type RowSelection } from './data-table.tsx';
import styles from './sessions-table.module.css';
import { Timestamp } from './timestamp.tsx';

/**
 * A staff account's live sessions: started, last used, address, browser, this one; an End button
 * on each (but the one making the call: signing out ends that).
 */
export function SessionsTable({
  label,
  rows,
  isLoading,
  error,
  ending,
  onEnd,
  heldBack,
  selection,
}: {
  label: string;
  rows: readonly StaffSessionInfo[] | undefined;
  isLoading: boolean;
  error: unknown;
  /** The session being ended, if any. */
  ending: number | undefined;
  onEnd: (session: StaffSessionInfo) => void;
  /** The id of the text saying why no session may be ended now; the End buttons are disabled. */
  heldBack?: string | undefined;
  /** Row checkboxes, for a bulk end (a colleague's sessions). */
  selection?: RowSelection<StaffSessionInfo> | undefined;
}) {
  const t = useT('common');
  const columns: Column<StaffSessionInfo>[] = [
    {
      id: 'browser',
      header: t('sessionBrowser'),
      sortValue: (s) => s.Browser,
      cell: (s) => (
        <>
          {s.Browser}
          {s.Current ? <span className={`tag ${styles.sessionCurrent}`}>{t('sessionThisOne')}</span> : null}
          {s.ImpersonatedSite ? (
            <span className="muted"> {t('sessionImpersonating', { site: s.ImpersonatedSite })}</span>
          ) : null}
        </>
      ),
    },
    {
      id: 'address',
      header: t('sessionAddress'),
      sortValue: (s) => s.ClientAddress,
      cell: (s) => s.ClientAddress ?? '',
    },
    {
      id: 'started',
      header: t('sessionStarted'),
      sortValue: (s) => s.StartedAt,
      cell: (s) => <Timestamp value={s.StartedAt} />,
    },
    {
      id: 'used',
      header: t('sessionLastUsed'),
      sortValue: (s) => s.LastUsedAt,
      cell: (s) => <Timestamp value={s.LastUsedAt} />,
    },
    {
      id: 'actions',
      header: t('sessionActions'),
      cell: (s) =>
        s.Current ? null : (
          <button
            type="button"
            className="button button-small button-danger"
            disabled={ending !== undefined || heldBack !== undefined}
            aria-describedby={heldBack}
            aria-busy={ending === s.Id}
            onClick={() => onEnd(s)}
          >
            {t('sessionEnd')}
          </button>
        ),
    },
  ];
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={rows}
      rowKey={(s) => String(s.Id)}
      isLoading={isLoading}
      error={error ? errorText(error, t('tableFetchError')) : undefined}
      pageSize={20}
      selection={selection}
    />
  );
}
