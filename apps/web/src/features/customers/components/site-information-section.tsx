import { consolePaths } from '@sac/contract/console-paths';
import type { Site } from '@sac/contract/customers';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { CopyableCode } from '../../../components/copy-button.tsx';
import { type Column, DataTable, type RowSelection } from '../../../components/data-table.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { useOwnedSites, useSharedSites } from '../api/customers-api.ts';
import { BulkSitesBar, type SitePicks } from './bulk-sites-bar.tsx';
import { CUSTOMER_TABLE_PAGE_SIZE } from './customer-search.ts';
import { RotateSecretDialog } from './rotate-secret-dialog.tsx';
import { SiteDetailsDialog } from './site-details-dialog.tsx';
import styles from './site-information-section.module.css';
import { SiteStatusDialog } from './site-status-dialog.tsx';

/**
 * The owned and the shared sites' columns (the shared ones with the customer's role), with the
 * row actions the viewer may use; each action opens its dialog through its setter.
 */
function useSiteColumns(
  setDetails: (s: Site) => void,
  setStatusOf: (s: Site) => void,
  setSecretOf: (s: Site) => void,
) {
  const t = useT('customers');
  const common = useT('common');
  const { permissions } = useCurrentUser();
  const impersonate = permissions.has('impersonation.request');
  const configure = permissions.has('site-settings.read');
  const edit = permissions.has('sites.write');
  return useMemo(() => {
    const base = (withRole: boolean): Column<Site>[] => [
      { id: 'name', header: t('appName'), sortValue: (s) => s.AppName, cell: (s) => s.AppName },
      {
        id: 'apiKey',
        header: t('apiKey'),
        sortValue: (s) => s.ApiKey,
        cell: (s) => <CopyableCode text={s.ApiKey} label={common('copyApiKey', { site: s.AppName })} />,
      },
      ...(withRole
        ? [{ id: 'role', header: t('role'), sortValue: (s: Site) => s.Role, cell: (s: Site) => s.Role }]
        : []),
      { id: 'plan', header: t('plan'), sortValue: (s) => s.Plan, cell: (s) => s.Plan },
      {
        id: 'status',
        header: t('status'),
        sortValue: (s) => (s.Status === 'active' ? t('siteActive') : t('siteInactive')),
        cell: (s) => (s.Status === 'active' ? t('siteActive') : t('siteInactive')),
      },
      {
        id: 'actions',
        header: t('actions'),
        cell: (s) => (
          <div className={`row-actions ${styles.rowActionsWrap}`}>
            <button type="button" className="button button-small" onClick={() => setDetails(s)}>
              {t('details')}
            </button>
            {impersonate ? (
              <Link
                className="button button-small"
                to={consolePaths.impersonate({ uid: s.uid, appId: s.appId })}
              >
                {t('impersonate')}
              </Link>
            ) : null}
            {configure ? (
              <Link
                className="button button-small"
                to={consolePaths.siteConfiguration({ uid: s.uid, appId: s.appId })}
              >
                {t('configuration')}
              </Link>
            ) : null}
            {edit ? (
              <Link
                className="button button-small"
                to={consolePaths.editSite({ uid: s.uid, appId: s.appId })}
              >
                {t('edit')}
              </Link>
            ) : null}
            {edit && !withRole ? (
              <button
                type="button"
                className={
                  s.Status === 'active' ? 'button button-small button-danger' : 'button button-small'
                }
                onClick={() => setStatusOf(s)}
              >
                {s.Status === 'active' ? t('deactivate') : t('activate')}
              </button>
            ) : null}
            {edit && !withRole ? (
              <button type="button" className="button button-small" onClick={() => setSecretOf(s)}>
                {t('newSecret')}
              </button>
            ) : null}
          </div>
        ),
      },
    ];
    return { owned: base(false), shared: base(true) };
  }, [t, common, impersonate, configure, edit, setDetails, setStatusOf, setSecretOf]);
}

/**
 * Site information of the customer view: owned sites (apps) and shared sites (sharedapps), each
 * with Details and the actions the viewer may use (Impersonate, Configuration, Edit; owned sites
 * also Activate or Deactivate, after a confirmation).
 */
export function SiteInformationSection({ uid }: { uid: string }) {
  const t = useT('customers');
  const common = useT('common');
  const { permissions } = useCurrentUser();
  const owned = useOwnedSites(uid);
  const shared = useSharedSites(uid);
  const [details, setDetails] = useState<Site | undefined>();
  const [statusOf, setStatusOf] = useState<Site | undefined>();
  const [secretOf, setSecretOf] = useState<Site | undefined>();
  const edit = permissions.has('sites.write');
  const [picks, setPicks] = useState<SitePicks>({ picked: new Set(), all: false });

  const columns = useSiteColumns(setDetails, setStatusOf, setSecretOf);
  const selection: RowSelection<Site> | undefined = edit
    ? {
        picked: picks.all ? new Set((owned.data ?? []).map((s) => String(s.appId))) : picks.picked,
        onChange: (next) => setPicks({ picked: next, all: false }),
        rowLabel: (s) => t('bulkPickRow', { site: s.AppName }),
        pageLabel: t('bulkPickPage'),
      }
    : undefined;

  const tableError = (q: { isError: boolean; error: unknown }) =>
    q.isError ? errorText(q.error, common('tableFetchError')) : undefined;

  return (
    <section className="card" aria-labelledby="site-information">
      <div className="page-header">
        <h2 id="site-information">{t('siteInformation')}</h2>
        {edit ? (
          <Link className="button button-small" to={consolePaths.addSite({ uid })}>
            {t('addSite')}
          </Link>
        ) : null}
      </div>
      <h3 id="owned-sites">{t('ownedSites')}</h3>
      {edit ? <BulkSitesBar uid={uid} sites={owned.data ?? []} picks={picks} setPicks={setPicks} /> : null}
      <DataTable
        label={t('ownedSitesLabel')}
        columns={columns.owned}
        rows={owned.data}
        rowKey={(s) => String(s.appId)}
        isLoading={owned.isPending}
        error={tableError(owned)}
        pageSize={CUSTOMER_TABLE_PAGE_SIZE}
        csvExport={{ name: 'owned-sites' }}
        {...(selection ? { selection } : {})}
      />
      <h3 id="shared-sites" className="subsection-heading">
        {t('sharedSites')}
      </h3>
      <DataTable
        label={t('sharedSitesLabel')}
        columns={columns.shared}
        rows={shared.data}
        rowKey={(s) => String(s.appId)}
        isLoading={shared.isPending}
        error={tableError(shared)}
        pageSize={CUSTOMER_TABLE_PAGE_SIZE}
        csvExport={{ name: 'shared-sites' }}
      />
      {details ? <SiteDetailsDialog uid={uid} site={details} onClose={() => setDetails(undefined)} /> : null}
      {statusOf ? (
        <SiteStatusDialog uid={uid} site={statusOf} onClose={() => setStatusOf(undefined)} />
      ) : null}
      {secretOf ? (
        <RotateSecretDialog uid={uid} site={secretOf} onClose={() => setSecretOf(undefined)} />
      ) : null}
    </section>
  );
}
