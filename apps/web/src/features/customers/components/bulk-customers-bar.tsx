import { EXPORT_SELECTION_UIDS_MAX } from '@sac/contract/bulk';
import type { ListSort } from '@sac/contract/list-sort';
import { type BarAction, BulkBar, type Picks } from '../../../components/bulk-bar.tsx';
import { CsvExport } from '../../../components/file-export.tsx';
import { streamedFile } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { type CustomerSearch, searchQuery } from '../api/customers-api.ts';

/**
 * The bar over the customer search while some customers are selected (BulkBar), loaded apart from
 * the search (React.lazy, when a row is first picked): deactivate or activate the sites the
 * customers own (sites.write), over the customers picked or every customer the search matches
 * (its criterion and term, resolved by the API), and the search's own export of the selection
 * (SelectionExport).
 * `total` is how many the search matches, when it counted them all.
 */
export default function BulkCustomersBar({
  search,
  sort,
  total,
  picks,
  setPicks,
}: {
  search: CustomerSearch;
  /** The list's order: the export of the selection is in it. */
  sort: ListSort | undefined;
  total: number | undefined;
  picks: Picks;
  setPicks: (p: Picks) => void;
}) {
  const t = useT('customers');
  const writer = useCurrentUser().permissions.has('sites.write');
  const actions: BarAction[] = writer
    ? [
        { action: 'customer.deactivate-sites', label: t('bulkCustomersDeactivate'), danger: true },
        { action: 'customer.activate-sites', label: t('bulkCustomersActivate') },
      ]
    : [];
  return (
    <BulkBar
      label={t('bulkCustomersBarLabel')}
      words={{
        selected: (count) => t('bulkSelected', { count }),
        allSelected: (count) =>
          count === undefined ? t('bulkCustomersAllUncounted') : t('bulkCustomersAllSelected', { count }),
        selectAll: (count) =>
          count === undefined ? t('bulkCustomersSelectAllUncounted') : t('bulkCustomersSelectAll', { count }),
        clear: t('bulkClear'),
      }}
      total={total}
      picks={picks}
      setPicks={setPicks}
      actions={actions}
      more={<SelectionExport search={search} sort={sort} total={total} picks={picks} />}
      bodyOf={(action, p) => ({
        Action: action as 'customer.deactivate-sites' | 'customer.activate-sites',
        Selection: p.all
          ? { Kind: 'all', Search: { [search.criterion]: search.term } }
          : { Kind: 'rows', Uids: [...p.picked] },
      })}
    />
  );
}

/**
 * The search's own export of the selection: of all it matches when that is the selection ("all",
 * or every match picked), else of the customers picked (uids). The export takes at most
 * EXPORT_SELECTION_UIDS_MAX uids (the address's length), so a larger pick is told so before any
 * request and offered the export of all matching instead (decisions.md: one request, one file).
 */
function SelectionExport({
  search,
  sort,
  total,
  picks,
}: {
  search: CustomerSearch;
  sort: ListSort | undefined;
  total: number | undefined;
  picks: Picks;
}) {
  const t = useT('customers');
  const allMatching = picks.all || (total !== undefined && picks.picked.size >= total);
  const query = searchQuery(search, sort);
  if (allMatching || picks.picked.size <= EXPORT_SELECTION_UIDS_MAX)
    return (
      <CsvExport
        list={t('bulkCustomersExportOf')}
        download={streamedFile(
          'searchCustomerExport',
          allMatching ? query : { ...query, uids: [...picks.picked].join(',') },
        )}
      />
    );
  return (
    <>
      <p className="muted">
        {t('bulkCustomersExportOverMax', { max: EXPORT_SELECTION_UIDS_MAX, picked: picks.picked.size })}
      </p>
      <CsvExport
        list={t('bulkCustomersExportAllOf')}
        named
        download={streamedFile('searchCustomerExport', query)}
      />
    </>
  );
}
