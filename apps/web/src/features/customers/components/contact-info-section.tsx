import { DetailList } from '../../../components/detail-list.tsx';
import { QueryStatus } from '../../../components/query-status.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { useCustomerProfile } from '../api/customers-api.ts';

/** Contact info of the customer view (customerprofilebyuid). */
export function ContactInfoSection({ uid }: { uid: string }) {
  const t = useT('customers');
  const profile = useCustomerProfile(uid);
  const p = profile.data;
  const dash = t('notSet');
  return (
    <section className="card" aria-labelledby="contact-info">
      <h2 id="contact-info">{t('contactInfo')}</h2>
      <QueryStatus query={profile} />
      {p ? (
        <DetailList
          layout="plain"
          items={[
            { label: t('firstName'), value: p.FirstName || dash },
            { label: t('lastName'), value: p.LastName || dash },
            { label: t('email'), value: p.Email || dash },
            { label: t('organization'), value: p.Organization || dash },
            { label: t('phoneNumber'), value: p.PhoneNumber || dash },
            { label: t('contactEmail'), value: p.ContactEmail || dash },
          ]}
        />
      ) : null}
    </section>
  );
}
