import { DetailList } from '../../../components/detail-list.tsx';
import { CaseValue, ReasonValue } from '../../../components/reason-view.tsx';
import { useT } from '../../../lib/i18n.tsx';
import type { Grant } from '../../../lib/impersonation-mode.ts';
import { useUtcTime } from './request-details.tsx';
import { TagValues } from './tag-values.tsx';

/**
 * What a grant allows and why: its roles, permissions, end, request, reason and case; a break-glass
 * one is marked.
 */
export function GrantDetails({ grant, layout }: { grant: Grant; layout: 'wide' | 'compact' }) {
  const t = useT('impersonation');
  const utc = useUtcTime();
  return (
    <DetailList
      layout={layout}
      items={[
        !!grant.BreakGlass && {
          label: t('accessKind'),
          value: <span className="status-badge status-rejected">{t('siteAccessBreakGlass')}</span>,
        },
        { label: t('grantRoles'), value: <TagValues values={grant.Roles} /> },
        { label: t('grantPermissions'), value: <TagValues values={grant.Permissions} /> },
        { label: t('grantExpires'), value: utc(grant.ExpiresAt) },
        { label: t('grantRequest'), value: t('grantRequestId', { id: grant.RequestId }) },
        { label: t('reasonCode'), value: <ReasonValue shown={grant} /> },
        { label: t('caseReference'), value: <CaseValue shown={grant} /> },
      ]}
    />
  );
}
