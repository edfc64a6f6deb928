import type { ImpersonationRequest } from '@sac/contract/impersonation-api';
import type { ReactNode } from 'react';
import { formatDateTimeMinutes } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
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
  return (n: number) => (n === 1 ? t('oneMinute') : t('minutes', { n: n.toLocaleString('en-US') }));
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Everything of one request: what was asked, the customer's consent, and the decision taken. */
export function RequestDetails({ request: r }: { request: ImpersonationRequest }) {
  const t = useT('impersonation');
  const utc = useUtcTime();
  const minutes = useMinutes();
  const decided = r.Action.Status !== 'Pending';
  return (
    <>
      <h3 className="dialog-subheading">{t('detailsHeading')}</h3>
      <dl className="detail-list detail-list-compact">
        <Item label={t('requestId')}>{r.Id}</Item>
        <Item label={t('appName')}>{r.AppName}</Item>
        <Item label={t('status')}>
          <StatusBadge status={r.Action.Status} />
        </Item>
        <Item label={t('priority')}>{t(`priority.${r.Request.Priority}`)}</Item>
        <Item label={t('requestedBy')}>{r.Initiator}</Item>
        <Item label={t('customerRequest')}>{r.IsCustomerRequest ? t('yes') : t('no')}</Item>
        <Item label={t('consent')}>{t(`consent.${r.Consent}`)}</Item>
        <Item label={t('duration')}>{minutes(r.Request.Duration)}</Item>
        <Item label={t('created')}>{utc(r.Request.RequestCreatedDate)}</Item>
        <Item label={t('modified')}>{utc(r.Request.RequestModifiedDate)}</Item>
      </dl>
      <dl className="detail-list detail-list-wide">
        <Item label={t('description')}>{r.Request.Description}</Item>
        <Item label={t('assignees')}>
          <TagValues values={r.Request.Assignees} />
        </Item>
        <Item label={t('requestedRoles')}>
          <TagValues values={r.Request.ProxyRoles} />
        </Item>
        <Item label={t('additionalPermissions')}>
          <TagValues values={r.Request.AdditionalPermissions} />
        </Item>
      </dl>
      {decided ? (
        <>
          <h3 className="dialog-subheading">{t('actionHeading')}</h3>
          <dl className="detail-list detail-list-compact">
            <Item label={t('actionTakenBy')}>{r.Action.ActionTakenBy ?? ''}</Item>
            <Item label={t('actionTakenAt')}>{utc(r.Action.ActionTakenAt)}</Item>
            {r.Action.ExpiresAt ? <Item label={t('expiresAt')}>{utc(r.Action.ExpiresAt)}</Item> : null}
          </dl>
          <dl className="detail-list detail-list-wide">
            {r.Action.ExpiresAt ? (
              <>
                <Item label={t('approvedRoles')}>
                  <TagValues values={r.Action.ApprovedProxyRoles} />
                </Item>
                <Item label={t('approvedPermissions')}>
                  <TagValues values={r.Action.ApprovedAdditionalPermissions} />
                </Item>
              </>
            ) : null}
            <Item label={t('comments')}>{r.Action.Reason || <span className="muted">{t('none')}</span>}</Item>
          </dl>
        </>
      ) : null}
    </>
  );
}
