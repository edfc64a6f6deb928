import { CopyableCode } from '../../../components/copy-button.tsx';
import { DetailList } from '../../../components/detail-list.tsx';
import { QueryStatus } from '../../../components/query-status.tsx';
import { formatDateTime } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useUserProfile } from '../api/customers-api.ts';

/** Account info of the customer view (userprofilebyuid); times in UTC. */
export function AccountInfoSection({ uid }: { uid: string }) {
  const t = useT('customers');
  const common = useT('common');
  const account = useUserProfile(uid);
  const a = account.data;
  const dash = t('notSet');
  return (
    <section className="card" aria-labelledby="account-info">
      <h2 id="account-info">{t('accountInfo')}</h2>
      <QueryStatus query={account} />
      {a ? (
        <DetailList
          layout="plain"
          items={[
            {
              label: t('uid'),
              value: <CopyableCode text={a.Uid} label={common('copyUid')} />,
            },
            { label: t('authEmail'), value: a.AuthEmail || dash },
            { label: t('accountCreated'), value: formatDateTime(a.CreatedDate) || dash },
            { label: t('timeZone'), value: a.TimeZone || dash },
            { label: t('status'), value: a.Status },
            { label: t('role'), value: a.Role },
            { label: t('emailVerified'), value: a.EmailVerified ? t('yes') : t('no') },
            { label: t('lastLogin'), value: formatDateTime(a.LastLoginDate) || t('never') },
            { label: t('ownedSiteCount'), value: a.OwnedSites },
            { label: t('sharedSiteCount'), value: a.SharedSites },
          ]}
        />
      ) : null}
    </section>
  );
}
