import { formatDateTime } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useUserProfile } from '../api/customers-api.ts';
import { QueryStatus } from './query-status.tsx';

/** Account info of the customer view (userprofilebyuid); times in UTC. */
export function AccountInfoSection({ uid }: { uid: string }) {
  const t = useT('customers');
  const account = useUserProfile(uid);
  const a = account.data;
  const dash = t('notSet');
  return (
    <section className="card" aria-labelledby="account-info">
      <h2 id="account-info">{t('accountInfo')}</h2>
      <QueryStatus query={account} />
      {a ? (
        <dl className="detail-list">
          <div>
            <dt>{t('uid')}</dt>
            <dd>
              <code>{a.Uid}</code>
            </dd>
          </div>
          <div>
            <dt>{t('authEmail')}</dt>
            <dd>{a.AuthEmail || dash}</dd>
          </div>
          <div>
            <dt>{t('accountCreated')}</dt>
            <dd>{formatDateTime(a.CreatedDate) || dash}</dd>
          </div>
          <div>
            <dt>{t('timeZone')}</dt>
            <dd>{a.TimeZone || dash}</dd>
          </div>
          <div>
            <dt>{t('status')}</dt>
            <dd>{a.Status}</dd>
          </div>
          <div>
            <dt>{t('role')}</dt>
            <dd>{a.Role}</dd>
          </div>
          <div>
            <dt>{t('emailVerified')}</dt>
            <dd>{a.EmailVerified ? t('yes') : t('no')}</dd>
          </div>
          <div>
            <dt>{t('lastLogin')}</dt>
            <dd>{formatDateTime(a.LastLoginDate) || t('never')}</dd>
          </div>
          <div>
            <dt>{t('ownedSiteCount')}</dt>
            <dd>{a.OwnedSites}</dd>
          </div>
          <div>
            <dt>{t('sharedSiteCount')}</dt>
            <dd>{a.SharedSites}</dd>
          </div>
        </dl>
      ) : null}
    </section>
  );
}
