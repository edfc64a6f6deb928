import { CopyButton } from '../../../components/copy-button.tsx';
import { DetailList } from '../../../components/detail-list.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { formatDateTime } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import type { CustomDomain } from '../api/custom-domains-api.ts';
import styles from './domain-records.module.css';
import sectionStyles from './settings-section.module.css';

/** The DNS records a pending domain needs (type, name, value, each copyable) and its last check. */
export function DomainRecords({ domain }: { domain: CustomDomain }) {
  const t = useT('siteSettings');
  const d = domain.Domain;
  const titleId = `dns-records-${d.replace(/[^a-z0-9-]/gi, '-')}`;
  return (
    <section className={`${sectionStyles.subsection} dns-records`} aria-labelledby={titleId}>
      <h3 id={titleId} className="subsection-heading">
        {t('dnsRecordsTitle', { domain: d })}
      </h3>
      <p className="muted">{t('dnsRecordsIntro')}</p>
      <div className="data-table">
        <TableScroll label={t('dnsRecordsTable', { domain: d })}>
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
                    <span className={sectionStyles.copyCell}>
                      <code>{r.Name}</code>
                      <CopyButton text={r.Name} label={t('copyRecordName', { type: r.Type, domain: d })} />
                    </span>
                  </td>
                  <td>
                    <span className={sectionStyles.copyCell}>
                      <code>{r.Value}</code>
                      <CopyButton text={r.Value} label={t('copyRecordValue', { type: r.Type, domain: d })} />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </div>
      <DetailList
        layout="wide"
        className={styles.dnsCheck}
        items={[
          {
            label: t('lastChecked'),
            value: domain.LastCheckedAt
              ? t('utcTime', { date: formatDateTime(domain.LastCheckedAt) })
              : t('notCheckedYet'),
          },
          { label: t('lastCheckResult'), value: domain.LastCheckResult ?? t('notCheckedYet') },
        ]}
      />
    </section>
  );
}
