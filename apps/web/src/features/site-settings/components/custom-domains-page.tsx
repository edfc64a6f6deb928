import { consolePaths } from '@sac/contract/console-paths';
import { DOMAIN_SORT_KEYS, sortParam } from '@sac/contract/list-sort';
import { DOMAIN_LIST_FILTERS, type DomainListFilter } from '@sac/contract/site-settings';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { everyPage, NextPageError, pagedTableProps } from '../../../components/paged-table.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { useListView } from '../../../lib/list-view.ts';
import { type ListedDomain, readEverySiteDomains, useEverySiteDomains } from '../api/custom-domains-api.ts';
import styles from './custom-domains-page.module.css';

const PAGE_SIZE = 10;
/** The export reads the list in the API's largest pages. */
const DOMAIN_EXPORT_PAGE = 200;
/** The list's own order: by domain, A to Z. */
const BY_DOMAIN = { key: 'domain', descending: false } as const;
const isFilter = (v: string | null): v is DomainListFilter =>
  DOMAIN_LIST_FILTERS.includes(v as DomainListFilter);

/** The status filter, kept in the address (?status=): the dashboard's card links here with it. */
function useDomainFilter(): [DomainListFilter | undefined, (f: DomainListFilter | undefined) => void] {
  const [search, setSearch] = useSearchParams();
  const raw = search.get('status');
  const set = (f: DomainListFilter | undefined) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (f) next.set('status', f);
        else next.delete('status');
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  return [isFilter(raw) ? raw : undefined, set];
}

/** A domain's status as a badge; a failing one with the time it began failing. */
function DomainStatus({ domain: d }: { domain: ListedDomain }) {
  const t = useT('siteSettings');
  if (d.FailingSince)
    return (
      <>
        <span className="status-badge status-rejected">{t('domainFailing')}</span>
        <span className={`muted ${styles.domainCheck}`}>
          {t('failingSince')} <Timestamp value={d.FailingSince} />
        </span>
      </>
    );
  return (
    <span className={`status-badge ${d.Status === 'Verified' ? 'status-approved' : 'status-pending'}`}>
      {t(`domainStatus.${d.Status}`)}
    </span>
  );
}

/** When a domain was last checked, with what the check found while it is not verified. */
function LastCheck({ domain: d }: { domain: ListedDomain }) {
  const t = useT('siteSettings');
  if (!d.LastCheckedAt) return <span className="muted">{t('neverChecked')}</span>;
  return (
    <>
      <Timestamp value={d.LastCheckedAt} />
      {d.LastCheckResult && (d.FailingSince || d.Status !== 'Verified') ? (
        <span className={`muted ${styles.domainCheck}`}>{d.LastCheckResult}</span>
      ) : null}
    </>
  );
}

/**
 * /manage-customer/custom-domains: every site's custom domains by name (or by status or when
 * added, ordered by the server), filtered by status (pending verification, failing re-checks,
 * verified), 10 a page, read 50 at a time. Each links
 * to its site's custom-domain settings, where it is verified or removed.
 */
export default function CustomDomainsPage() {
  const t = useT('siteSettings');
  const common = useT('common');
  const [status, setStatus] = useDomainFilter();
  const view = useListView(true, DOMAIN_SORT_KEYS);
  const sort = view.sort ? sortParam(view.sort) : undefined;
  const { list, rows } = useEverySiteDomains(status, sort);

  const columns = useMemo<Column<ListedDomain>[]>(
    () => [
      { id: 'domain', header: t('colDomain'), cell: (d) => d.Domain, csv: (d) => d.Domain },
      {
        id: 'site',
        header: t('colSite'),
        csv: (d) => d.AppName,
        cell: (d) => (
          <Link
            to={consolePaths.siteConfiguration({
              uid: d.OwnerUid,
              appId: d.AppId,
              section: 'custom-domains',
            })}
            aria-label={t('openSiteDomains', { app: d.AppName, domain: d.Domain })}
          >
            {d.AppName}
          </Link>
        ),
      },
      {
        id: 'status',
        header: t('colStatus'),
        csv: (d) => (d.FailingSince ? t('domainFailing') : t(`domainStatus.${d.Status}`)),
        cell: (d) => <DomainStatus domain={d} />,
      },
      {
        id: 'created',
        header: t('colAdded'),
        csv: (d) => d.CreatedAt,
        cell: (d) => <Timestamp value={d.CreatedAt} />,
      },
      {
        id: 'checked',
        header: t('colLastCheck'),
        csv: (d) => d.LastCheckedAt,
        cell: (d) => <LastCheck domain={d} />,
      },
    ],
    [t],
  );

  return (
    <section className="card list-screen" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('everySiteDomains')}</h1>
          <p className="muted">{t('everySiteDomainsIntro')}</p>
        </div>
      </div>
      <div className="table-toolbar">
        <SelectField
          id="domains-status"
          name="status"
          label={t('domainFilter')}
          placeholder={t('domainFilterAll')}
          options={DOMAIN_LIST_FILTERS.map((f) => ({ value: f, label: t(`domainFilter.${f}`) }))}
          value={status ?? ''}
          onValueChange={(v) => setStatus(isFilter(v) ? v : undefined)}
        />
      </div>
      <DataTable
        key={`${status ?? 'all'}:${sort ?? ''}`}
        label={t('everySiteDomainsTable')}
        columns={columns}
        rows={rows}
        rowKey={(d) => d.Domain}
        {...pagedTableProps(list, rows !== undefined, common('tableFetchError'))}
        pageSize={PAGE_SIZE}
        view={view}
        ownOrder={BY_DOMAIN}
        csvExport={{
          name: 'custom-domains',
          readAll: everyPage(readEverySiteDomains(status, sort, DOMAIN_EXPORT_PAGE)),
        }}
      />
      <NextPageError list={list} fetchError={common('tableFetchError')} />
    </section>
  );
}
