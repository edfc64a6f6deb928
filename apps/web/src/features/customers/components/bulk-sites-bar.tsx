import type { BulkSelection } from '@sac/contract/bulk';
import type { Site } from '@sac/contract/customers';
import { useCallback, useState } from 'react';
import { useT } from '../../../lib/i18n.tsx';
import styles from './bulk.module.css';
import { BulkDialog } from './bulk-dialog.tsx';

/** The owned sites' selection: the rows picked, or every site of the list ("all N"). */
export interface SitePicks {
  picked: ReadonlySet<string>;
  all: boolean;
}

/**
 * The bar over the owned sites while some are selected: how many, "Select all N" once a whole
 * page is, the actions (deactivate, activate) and clearing; an action opens its dry run.
 */
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
  const [action, setAction] = useState<'site.deactivate' | 'site.activate' | undefined>();
  const [selection, setSelection] = useState<BulkSelection | undefined>();
  const clear = useCallback(() => setPicks({ picked: new Set(), all: false }), [setPicks]);
  const count = picks.all ? sites.length : picks.picked.size;
  if (count === 0 && !action) return null;
  const open = (a: 'site.deactivate' | 'site.activate') => {
    setSelection(picks.all ? { Kind: 'all' } : { Kind: 'rows', AppIds: [...picks.picked].map(Number) });
    setAction(a);
  };
  return (
    <section className={styles.bar} aria-label={t('bulkBarLabel')}>
      <p className={styles.count} aria-live="polite">
        {picks.all ? t('bulkAllSelected', { count }) : t('bulkSelected', { count })}
      </p>
      {!picks.all && count < sites.length ? (
        <button
          type="button"
          className="button button-small"
          onClick={() => setPicks({ picked: picks.picked, all: true })}
        >
          {t('bulkSelectAll', { count: sites.length })}
        </button>
      ) : null}
      <button
        type="button"
        className="button button-small button-danger"
        onClick={() => open('site.deactivate')}
      >
        {t('bulkDeactivate')}
      </button>
      <button type="button" className="button button-small" onClick={() => open('site.activate')}>
        {t('bulkActivate')}
      </button>
      <button type="button" className="button button-small" onClick={clear}>
        {t('bulkClear')}
      </button>
      {action && selection ? (
        <BulkDialog
          uid={uid}
          action={action}
          selection={selection}
          onClose={() => setAction(undefined)}
          onEnded={clear}
        />
      ) : null}
    </section>
  );
}
