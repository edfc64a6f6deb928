import { CopyButton } from '../../../components/copy-button.tsx';
import { formatDateTime } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import type { CustomDomain } from '../api/site-settings-api.ts';

/** The DNS records a pending domain needs (type, name, value, each copyable) and its last check. */
export function DomainRecords({ domain }: { domain: CustomDomain }) {
  const t = useT('siteSettings');
  const d = domain.Domain;
  const titleId = `dns-records-${d.replace(/[^a-z0-9-]/gi, '-')}`;
  return (
    <section className="subsection dns-records" aria-labelledby={titleId}>
      <h3 id={titleId} className="subsection-heading">
        {t('dnsRecordsTitle', { domain: d })}
      </h3>
      <p className="muted">{t('dnsRecordsIntro')}</p>
      <div className="data-table">
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">{t('dnsRecordsTable', { domain: d })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('colType')}</th>
                <th scope="col">{t('colRecordName')}</th>
                <th scope="col">{t('colValue')}</th>
              </tr>
            </thead>
            <tbody>
              {domain.Records.map((r) => (
                <tr key={`${r.Type}-${r.Name}`}>
                  <td>{r.Type}</td>
                  <td>
                    <span className="copy-cell">
                      <code>{r.Name}</code>
                      <CopyButton text={r.Name} label={t('copyRecordName', { type: r.Type, domain: d })} />
                    </span>
                  </td>
                  <td>
                    <span className="copy-cell">
                      <code>{r.Value}</code>
                      <CopyButton text={r.Value} label={t('copyRecordValue', { type: r.Type, domain: d })} />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <dl className="detail-list detail-list-wide dns-check">
        <div>
          <dt>{t('lastChecked')}</dt>
          <dd>
            {domain.LastCheckedAt
              ? t('utcTime', { date: formatDateTime(domain.LastCheckedAt) })
              : t('notCheckedYet')}
          </dd>
        </div>
        <div>
          <dt>{t('lastCheckResult')}</dt>
          <dd>{domain.LastCheckResult ?? t('notCheckedYet')}</dd>
        </div>
      </dl>
    </section>
  );
}
