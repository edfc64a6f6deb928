import { consolePaths } from '@sac/contract/console-paths';
import type { CustomerSummary } from '@sac/contract/customers';
import { ERRORS } from '@sac/contract/errors';
import { CUSTOMER_SORT_KEYS, type ListSort, sortParam } from '@sac/contract/list-sort';
import { MESSAGES } from '@sac/contract/messages';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { Picks } from '../../../components/bulk-bar.tsx';
import { type Column, DataTable, type RowSelection } from '../../../components/data-table.tsx';
import { ApiError, errorText, streamedFile } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useListView } from '../../../lib/list-view.ts';
import { type CustomerSearch, searchQuery, useCustomerSearch } from '../api/customers-api.ts';
import {
  CUSTOMER_TABLE_PAGE_SIZE,
  type SearchLocationState,
  searchFromLocation,
  searchQueryString,
} from './customer-search.ts';
import { CustomerSearchForm } from './customer-search-form.tsx';
import styles from './search-customer-page.module.css';

const fullName = (c: CustomerSummary) => c.FullName || `${c.FirstName} ${c.LastName}`.trim();

/**
 * The bulk bar and its dialogs load apart, when a row is first picked: the search's first view
 * holds the row boxes only (its size is measured on the wire, e2e/transfer-size.spec.ts).
 */
const BulkCustomersBar = lazy(() => import('./bulk-customers-bar.tsx'));
const NO_PICKS: Picks = { picked: new Set(), all: false };
/** A site-name search lists its owners by name unless asked otherwise: the Customer Name column's order. */
const SITE_OWNERS_ORDER: ListSort = { key: 'name', descending: false };

/** The text of a failed search: 927 is the spec's not-found text; others the server's text. */
function searchErrorText(error: unknown, notFound: string): string {
  if (error instanceof ApiError && error.code === ERRORS.notFound.code) return notFound;
  return errorText(error, MESSAGES.tableFetchError);
}

/** "205 results"; past the count's limit "More than 1,000 results". */
function resultCount(t: ReturnType<typeof useT<'customers'>>, total: number, more: boolean): string {
  if (more) return t('resultCountMore', { n: total.toLocaleString('en-US') });
  return t('resultCount', { n: total });
}

/** The results' columns; a customer's View link returns to this search (`fromSearch`). */
function useCustomerColumns(fromSearch: string) {
  const t = useT('customers');
  return useMemo((): Column<CustomerSummary>[] => {
    // The view returns here with this search (not for an API secret: that is never in the address).
    const back: SearchLocationState = { fromSearch };
    return [
      { id: 'name', header: t('customerName'), cell: fullName },
      { id: 'status', header: t('status'), cell: (row) => row.Status },
      { id: 'role', header: t('role'), cell: (row) => row.Role },
      { id: 'created', header: t('createdDate'), cell: (row) => formatDate(row.CreatedDate) },
      { id: 'modified', header: t('modifiedDate'), cell: (row) => formatDate(row.ModifiedDate) },
      {
        id: 'action',
        header: t('action'),
        cell: (row) => (
          <Link to={consolePaths.customerView({ uid: row.Uid })} state={back}>
            {t('view')}
          </Link>
        ),
      },
    ];
  }, [t, fromSearch]);
}

/**
 * The search's row boxes and bulk bar (deactivate or activate the customers' sites, export the
 * selection): the picks, kept until the search or its order changes (a pick of another search is
 * not what the list shows). The bar (loaded apart) is mounted from the first pick on, so a dialog it
 * opened stays when its job clears the picks. `result.total`: how many the search matches, when it
 * counted them all.
 */
function useCustomerPicks(
  search: CustomerSearch | undefined,
  searchKey: string,
  sort: ListSort | undefined,
  result: { rows: CustomerSummary[] | undefined; total: number | undefined },
) {
  const t = useT('customers');
  const { rows } = result;
  const [picks, setPicks] = useState<Picks>(NO_PICKS);
  const [barShown, showBar] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search clears the selection
  useEffect(() => setPicks(NO_PICKS), [searchKey]);
  const selection: RowSelection<CustomerSummary> = {
    picked: picks.all ? new Set((rows ?? []).map((r) => r.Uid)) : picks.picked,
    onChange: (next) => {
      showBar(true);
      setPicks({ picked: next, all: false });
    },
    rowLabel: (c) => t('bulkCustomersPickRow', { name: fullName(c) || c.Email }),
    pageLabel: t('bulkCustomersPickPage'),
  };
  const bar =
    barShown && search ? (
      <Suspense fallback={null}>
        <BulkCustomersBar
          search={search}
          sort={sort}
          total={result.total}
          picks={picks}
          setPicks={setPicks}
        />
      </Suspense>
    ) : null;
  return { selection, bar };
}

/**
 * /manage-customer/search-customer: search by one criterion, results 10 a page, fetched 50 at a
 * time (Next on the last loaded page fetches the next 50). The search lives
 * in the address (?customerName=...), so Back from a customer's view returns to the results.
 * Rows can be picked (a page, or all the search matches) for a bulk action on their sites or an
 * export of them.
 */
export default function SearchCustomerPage() {
  const t = useT('customers');
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const search = searchFromLocation(params, location.state);
  const view = useListView(true, CUSTOMER_SORT_KEYS);
  const result = useCustomerSearch(search, view.sort);
  const searchKey = search
    ? `${search.criterion}:${search.term}:${view.sort ? sortParam(view.sort) : ''}`
    : '';
  const rows = useMemo(() => result.data?.pages.flatMap((p) => p.Data), [result.data]);
  const first = result.data?.pages[0];
  const loadingFirst = result.isFetching && !result.isFetchingNextPage;
  const { selection, bar } = useCustomerPicks(search, searchKey, view.sort, {
    rows,
    total: first && !first.Capped ? first.Total : undefined,
  });

  const onSearch = (next: CustomerSearch) => {
    if (search && next.criterion === search.criterion && next.term === search.term) {
      void result.refetch();
      return;
    }
    const state: SearchLocationState | null =
      next.criterion === 'apisecret' ? { apisecret: next.term } : null;
    navigate({ search: searchQueryString(next) }, { state });
  };

  const columns = useCustomerColumns(location.search);

  return (
    <section className="card list-screen" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('searchCustomer')}</h1>
          <p className="muted">{t('searchIntro')}</p>
        </div>
      </div>
      <CustomerSearchForm
        key={location.key}
        initial={search}
        busy={loadingFirst}
        onSearch={onSearch}
        onClear={() => navigate({ search: '' })}
      />
      <div className={styles.searchResults}>
        {search ? (
          <>
            <ResultCountLine total={first} loading={loadingFirst} />
            {bar}
            <DataTable
              key={searchKey}
              label={t('resultsLabel')}
              columns={columns}
              rows={rows}
              rowKey={(row) => row.Uid}
              selection={selection}
              isLoading={loadingFirst}
              error={
                result.isError && !result.isFetchNextPageError
                  ? searchErrorText(result.error, t('searchNotFound'))
                  : undefined
              }
              pageSize={CUSTOMER_TABLE_PAGE_SIZE}
              view={view}
              ownOrder={search.criterion === 'sitename' ? SITE_OWNERS_ORDER : undefined}
              csvExport={{ download: streamedFile('searchCustomerExport', searchQuery(search, view.sort)) }}
              total={first ? { count: first.Total, more: first.Capped } : undefined}
              more={
                result.hasNextPage
                  ? { load: () => result.fetchNextPage(), loading: result.isFetchingNextPage }
                  : undefined
              }
            />
            {rows && rows.length === 0 && !result.isError ? (
              <p className="muted" role="status">
                {t(
                  search.criterion === 'customerName' || search.criterion === 'sitename'
                    ? 'noMatchName'
                    : 'noMatchKey',
                )}
              </p>
            ) : null}
            {result.isFetchNextPageError ? (
              <p className="form-alert" role="alert">
                {searchErrorText(result.error, t('searchNotFound'))}
              </p>
            ) : null}
          </>
        ) : (
          <p className="muted">{t('searchPrompt')}</p>
        )}
      </div>
    </section>
  );
}

/** The count of results, its line kept empty while the first results load. */
function ResultCountLine({
  total,
  loading,
}: {
  total: { Data: unknown[]; Total: number; Capped: boolean } | undefined;
  loading: boolean;
}) {
  const t = useT('customers');
  if (total && total.Data.length > 0)
    return (
      <p className="muted" role="status">
        {resultCount(t, total.Total, total.Capped)}
      </p>
    );
  // The count's line is kept while the results load, so they do not push the page.
  return loading ? (
    <p className="muted" aria-hidden="true">
      {'\u00a0'}
    </p>
  ) : null;
}
