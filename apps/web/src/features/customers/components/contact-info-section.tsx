import { useT } from '../../../lib/i18n.tsx';
import { useCustomerProfile } from '../api/customers-api.ts';
import { QueryStatus } from './query-status.tsx';

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
        <dl className="detail-list">
          <div>
            <dt>{t('firstName')}</dt>
            <dd>{p.FirstName || dash}</dd>
          </div>
          <div>
            <dt>{t('lastName')}</dt>
            <dd>{p.LastName || dash}</dd>
          </div>
          <div>
            <dt>{t('email')}</dt>
            <dd>{p.Email || dash}</dd>
          </div>
          <div>
            <dt>{t('organization')}</dt>
            <dd>{p.Organization || dash}</dd>
          </div>
          <div>
            <dt>{t('phoneNumber')}</dt>
            <dd>{p.PhoneNumber || dash}</dd>
          </div>
          <div>
            <dt>{t('contactEmail')}</dt>
            <dd>{p.ContactEmail || dash}</dd>
          </div>
        </dl>
      ) : null}
    </section>
  );
}
