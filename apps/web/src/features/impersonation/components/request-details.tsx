import type { ImpersonationRequest } from '@sac/contract/impersonation-api';
import { DetailList } from '../../../components/detail-list.tsx';
import { CaseValue, ReasonValue } from '../../../components/reason-view.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { formatDateTimeMinutes } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import logEntryDetailsStyles from './log-entry-details.module.css';
import { StatusBadge } from './status-badge.tsx';
import { TagValues } from './tag-values.tsx';

/** 'MM-DD-YYYY HH:mm UTC', or '' for a missing time. */
export function useUtcTime() {
  const t = useT('impersonation');
  return (value: string | null | undefined) => {
    const text = formatDateTimeMinutes(value);
    return text ? t('utc', { time: text }) : '';
  };
}

export function useMinutes() {
  const t = useT('impersonation');
  return (n: number) => t('minutes', { n });
}

/**
 * Everything of one request: what was asked, the customer's consent, and the decision taken. A
 * break-glass access is marked Emergency access (its reason and case are the request's own).
 */
export function RequestDetails({ request: r }: { request: ImpersonationRequest }) {
  const t = useT('impersonation');
  const minutes = useMinutes();
  const decided = r.Action.Status !== 'Pending';
  const none = <span className="muted">{t('none')}</span>;
  return (
    <>
      <h3 className={logEntryDetailsStyles.dialogSubheading}>{t('detailsHeading')}</h3>
      <DetailList
        items={[
          { label: t('requestId'), value: r.Id },
          { label: t('appName'), value: r.AppName },
          { label: t('status'), value: <StatusBadge status={r.Action.Status} /> },
          !!r.BreakGlass && {
            label: t('accessKind'),
            value: (
              <span className="status-badge status-rejected" data-testid="break-glass-mark">
                {t('siteAccessBreakGlass')}
              </span>
            ),
          },
          { label: t('priority'), value: t(`priority.${r.Request.Priority}`) },
          { label: t('reasonCode'), value: <ReasonValue shown={r.Request} /> },
          { label: t('caseReference'), value: <CaseValue shown={r.Request} /> },
          { label: t('requestedBy'), value: r.Initiator },
          { label: t('customerRequest'), value: r.IsCustomerRequest ? t('yes') : t('no') },
          { label: t('consent'), value: t(`consent.${r.Consent}`) },
          { label: t('duration'), value: minutes(r.Request.Duration) },
          { label: t('created'), value: <Timestamp value={r.Request.RequestCreatedDate} /> },
          { label: t('modified'), value: <Timestamp value={r.Request.RequestModifiedDate} /> },
        ]}
      />
      <DetailList
        layout="wide"
        items={[
          { label: t('description'), value: r.Request.Description },
          { label: t('assignees'), value: <TagValues values={r.Request.Assignees} /> },
          { label: t('requestedRoles'), value: <TagValues values={r.Request.ProxyRoles} /> },
          {
            label: t('additionalPermissions'),
            value: <TagValues values={r.Request.AdditionalPermissions} />,
          },
        ]}
      />
      {decided ? (
        <>
          <h3 className={logEntryDetailsStyles.dialogSubheading}>{t('actionHeading')}</h3>
          <DetailList
            items={[
              { label: t('actionTakenBy'), value: r.Action.ActionTakenBy ?? '' },
              { label: t('actionTakenAt'), value: <Timestamp value={r.Action.ActionTakenAt} /> },
              !!r.Action.ExpiresAt && {
                label: t('expiresAt'),
                value: <Timestamp value={r.Action.ExpiresAt} />,
              },
            ]}
          />
          <DetailList
            layout="wide"
            items={[
              !!r.Action.ExpiresAt && {
                label: t('approvedRoles'),
                value: <TagValues values={r.Action.ApprovedProxyRoles} />,
              },
              !!r.Action.ExpiresAt && {
                label: t('approvedPermissions'),
                value: <TagValues values={r.Action.ApprovedAdditionalPermissions} />,
              },
              { label: t('comments'), value: r.Action.Reason || none },
            ]}
          />
        </>
      ) : null}
    </>
  );
}
