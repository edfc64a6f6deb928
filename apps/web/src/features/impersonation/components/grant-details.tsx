import { useT } from '../../../lib/i18n.tsx';
import type { Grant } from '../../../lib/impersonation-mode.ts';
import { useUtcTime } from './request-details.tsx';
import { TagValues } from './tag-values.tsx';

/** What a grant allows: its roles, permissions, end and request. */
export function GrantDetails({ grant, layout }: { grant: Grant; layout: 'wide' | 'compact' }) {
  const t = useT('impersonation');
  const utc = useUtcTime();
  return (
    <dl className={`detail-list detail-list-${layout}`}>
      <div>
        <dt>{t('grantRoles')}</dt>
        <dd>
          <TagValues values={grant.Roles} />
        </dd>
      </div>
      <div>
        <dt>{t('grantPermissions')}</dt>
        <dd>
          <TagValues values={grant.Permissions} />
        </dd>
      </div>
      <div>
        <dt>{t('grantExpires')}</dt>
        <dd>{utc(grant.ExpiresAt)}</dd>
      </div>
      <div>
        <dt>{t('grantRequest')}</dt>
        <dd>{t('grantRequestId', { id: grant.RequestId })}</dd>
      </div>
    </dl>
  );
}
