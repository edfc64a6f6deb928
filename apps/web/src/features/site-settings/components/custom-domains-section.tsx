import { useState } from 'react';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { DetailList } from '../../../components/detail-list.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import {
  type CustomDomain,
  useCustomDomains,
  useHubDomain,
  useVerifyCustomDomain,
} from '../api/custom-domains-api.ts';
import type { SiteRef } from '../api/site-query.ts';
import { AddCustomDomainForm } from './add-custom-domain-form.tsx';
import { DeleteDomainDialog } from './delete-domain-dialog.tsx';
import { DomainRecords } from './domain-records.tsx';
import type { SectionProps } from './section-props.ts';

const PAGE_SIZE = 10;

/**
 * Custom Domain: the hub domain, the site's domains with their status, 'Verify now' and 'Delete',
 * the DNS records each pending domain needs (copyable) with the last check, and 'Add custom domain'.
 */
export function CustomDomainsSection({ site, canWrite, headingId }: SectionProps) {
  const t = useT('siteSettings');
  const common = useT('common');
  const hub = useHubDomain();
  const domains = useCustomDomains(site);
  const [deleting, setDeleting] = useState<CustomDomain | undefined>();

  const columns: Column<CustomDomain>[] = [
    { id: 'domain', header: t('colDomain'), sortValue: (d) => d.Domain, cell: (d) => d.Domain },
    {
      id: 'status',
      header: t('colStatus'),
      sortValue: (d) => d.Status,
      cell: (d) => <DomainStatusBadge status={d.Status} />,
    },
  ];
  if (canWrite) {
    columns.push({
      id: 'actions',
      header: t('colActions'),
      cell: (d) => (
        <div className="row-actions">
          {d.Status === 'Pending Verification' ? <VerifyButton site={site} domain={d.Domain} /> : null}
          <button type="button" className="button button-small button-danger" onClick={() => setDeleting(d)}>
            {t('delete')}
          </button>
        </div>
      ),
    });
  }
  const pending = (domains.data ?? []).filter((d) => d.Status === 'Pending Verification');

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('customDomain')}</h2>
      <p className="muted">{t('customDomainsIntro')}</p>
      <DetailList
        items={[
          {
            label: t('hubDomain'),
            value: (
              <>
                {hub.data ? <code>{hub.data}</code> : null}
                {hub.isError ? errorText(hub.error) : null}
                {hub.isPending ? t('loading') : null}
              </>
            ),
          },
        ]}
      />
      <DataTable
        label={t('customDomainsTable')}
        columns={columns}
        rows={domains.data}
        rowKey={(d) => d.Domain}
        isLoading={domains.isPending}
        error={domains.isError ? errorText(domains.error, common('tableFetchError')) : undefined}
        pageSize={PAGE_SIZE}
      />
      {pending.map((d) => (
        <DomainRecords key={d.Domain} domain={d} />
      ))}
      {canWrite ? <AddCustomDomainForm site={site} /> : null}
      {deleting ? (
        <DeleteDomainDialog site={site} domain={deleting} onClose={() => setDeleting(undefined)} />
      ) : null}
    </section>
  );
}

function DomainStatusBadge({ status }: { status: CustomDomain['Status'] }) {
  const t = useT('siteSettings');
  const tone = status === 'Verified' ? 'status-approved' : 'status-pending';
  return <span className={`status-badge ${tone}`}>{t(`domainStatus.${status}`)}</span>;
}

/** 'Verify now': checks the DNS records; verified toasts success, otherwise the check's result. */
function VerifyButton({ site, domain }: { site: SiteRef; domain: string }) {
  const t = useT('siteSettings');
  const verify = useVerifyCustomDomain(site);
  const onClick = () => {
    if (verify.isPending) return;
    verify.mutate(domain, {
      onSuccess: (answer) => {
        if (answer.Data.Status === 'Verified') toast.success(answer.Message);
        else toast.warning(answer.Message);
      },
    });
  };
  return (
    <button type="button" className="button button-small" aria-busy={verify.isPending} onClick={onClick}>
      {verify.isPending ? t('verifying') : t('verifyNow')}
    </button>
  );
}
