import { type Column, DataTable } from '../../../components/data-table.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { type Integration, useIntegrations } from '../api/registration-api.ts';
import type { SectionProps } from './section-props.ts';

const PAGE_SIZE = 20;

/** Integrations: the site's integrations, their category and state, and an Enabled badge. Read-only. */
export function IntegrationsSection({ site, headingId }: SectionProps) {
  const t = useT('siteSettings');
  const common = useT('common');
  const integrations = useIntegrations(site);
  const columns: Column<Integration>[] = [
    { id: 'name', header: t('colName'), sortValue: (i) => i.Name, cell: (i) => i.Name },
    { id: 'category', header: t('colCategory'), sortValue: (i) => i.Category, cell: (i) => i.Category },
    { id: 'state', header: t('colState'), sortValue: (i) => i.State, cell: (i) => i.State },
    {
      id: 'enabled',
      header: t('colEnabled'),
      sortValue: (i) => (i.Enabled ? 0 : 1),
      csv: (i) => (i.Enabled ? 'Enabled' : 'Disabled'),
      cell: (i) => <EnabledBadge enabled={i.Enabled} />,
    },
  ];
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('integrations')}</h2>
      <p className="muted">{t('integrationsIntro')}</p>
      <DataTable
        label={t('integrationsTable')}
        columns={columns}
        rows={integrations.data}
        rowKey={(i) => i.Key}
        isLoading={integrations.isPending}
        error={integrations.isError ? errorText(integrations.error, common('tableFetchError')) : undefined}
        pageSize={PAGE_SIZE}
      />
    </section>
  );
}

/** 'Enabled' (green) or 'Disabled' (grey). */
export function EnabledBadge({ enabled }: { enabled: boolean }) {
  const t = useT('siteSettings');
  return (
    <span className={`status-badge ${enabled ? 'status-approved' : 'status-off'}`}>
      {enabled ? t('enabled') : t('disabled')}
    </span>
  );
}
