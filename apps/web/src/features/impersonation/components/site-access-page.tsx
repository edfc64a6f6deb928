import type { ImpersonationRequest } from '@sac/contract/impersonation-api';
import { siteAccessQuery } from '@sac/contract/impersonation-api';
import { useSearchParams } from 'react-router';
import { CopyButton } from '../../../components/copy-button.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { PublicPage } from '../../../components/public-page.tsx';
import { ReasonNote } from '../../../components/reason-view.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { errorText, plainLinkTo } from '../../../lib/api-client.ts';
import { formatDateTimeMinutes } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { type SiteAccessStep, useSiteAccess } from '../api/impersonation-api.ts';
import consentPageStyles from './consent-page.module.css';
import { useUtcTime } from './request-details.tsx';
import styles from './site-access-page.module.css';
import { StatusBadge } from './status-badge.tsx';
import { TagValues } from './tag-values.tsx';

/** Rows per page of the two tables. */
const PAGE_SIZE = 10;

/** The events the owner sees in plain words; any other event is shown as the server names it. */
const EVENTS = [
  'request',
  'customer-request',
  'consent-granted',
  'consent-denied',
  'approve',
  'reject',
  'revoke',
  'edit',
  'delete',
  'session-start',
  'call',
  'call-refused',
  'expire',
  'break-glass',
  'break-glass-told',
  'break-glass-review',
] as const;
const isEvent = (v: string): v is (typeof EVENTS)[number] => EVENTS.includes(v as (typeof EVENTS)[number]);

/** An access holds until ExpiresAt only once approved (and still shows it after it expired). */
const HAS_APPROVED_UNTIL: readonly ImpersonationRequest['Action']['Status'][] = ['Approved', 'Expired'];

function useRequestColumns(): Column<ImpersonationRequest>[] {
  const t = useT('impersonation');
  const utc = useUtcTime();
  return [
    { id: 'request', header: t('siteAccessRequest'), sortValue: (r) => r.Id, cell: (r) => r.Id },
    {
      id: 'requestedBy',
      header: t('siteAccessRequestedBy'),
      cell: (r) => (
        <>
          <span className={styles.siteAccessWrap}>{r.Initiator}</span>
          {r.IsCustomerRequest ? (
            <span className={`muted ${styles.siteAccessNote}`}>{t('siteAccessYourRequest')}</span>
          ) : null}
        </>
      ),
    },
    {
      id: 'why',
      header: t('siteAccessWhy'),
      cell: (r) => (
        <>
          {r.BreakGlass ? (
            <span className="status-badge status-rejected">{t('siteAccessBreakGlass')}</span>
          ) : null}
          <span className={styles.siteAccessWrap}>{r.Request.Description}</span>
          <ReasonNote shown={r.Request} />
          {r.BreakGlass ? (
            <span className={`muted ${styles.siteAccessNote}`}>{t('siteAccessBreakGlassNote')}</span>
          ) : null}
        </>
      ),
    },
    {
      id: 'roles',
      header: t('siteAccessRoles'),
      cell: (r) => {
        const approved = r.Action.ApprovedProxyRoles.length > 0;
        const roles = approved ? r.Action.ApprovedProxyRoles : r.Request.ProxyRoles;
        const permissions = approved
          ? r.Action.ApprovedAdditionalPermissions
          : r.Request.AdditionalPermissions;
        return (
          <>
            <TagValues values={roles} />
            {permissions.length > 0 ? (
              <span className={`muted ${styles.siteAccessNote}`}>
                {t('siteAccessPermissions', { permissions: permissions.join(', ') })}
              </span>
            ) : null}
          </>
        );
      },
    },
    {
      id: 'status',
      header: t('siteAccessStatus'),
      sortValue: (r) => r.Action.Status,
      cell: (r) => <StatusBadge status={r.Action.Status} />,
    },
    {
      id: 'approvedUntil',
      header: t('siteAccessApprovedUntil'),
      cell: (r) =>
        (HAS_APPROVED_UNTIL.includes(r.Action.Status) && utc(r.Action.ExpiresAt)) || t('siteAccessNotSet'),
    },
  ];
}

function useStepColumns(): Column<SiteAccessStep>[] {
  const t = useT('impersonation');
  return [
    {
      id: 'date',
      header: t('siteAccessDate'),
      sortValue: (s) => s.Date,
      cell: (s) => formatDateTimeMinutes(s.Date),
    },
    {
      id: 'request',
      header: t('siteAccessRequest'),
      sortValue: (s) => s.RequestId,
      cell: (s) => (
        <>
          {s.RequestId}
          <ReasonNote shown={s} />
        </>
      ),
    },
    {
      id: 'step',
      header: t('siteAccessStep'),
      cell: (s) => (isEvent(s.Event) ? t(`siteAccessEvent.${s.Event}`) : s.Event),
    },
    {
      id: 'by',
      header: t('siteAccessBy'),
      cell: (s) => <span className={styles.siteAccessWrap}>{s.Actor || t('siteAccessNotSet')}</span>,
    },
    { id: 'from', header: t('siteAccessFrom'), cell: (s) => s.ClientAddress || t('siteAccessNotSet') },
  ];
}

/** The owner's own copy: every step as CSV or JSON, and the Atom feed, each behind the same link. */
function KeepYourOwnRecord({ token }: { token: string }) {
  const t = useT('impersonation');
  const feed = plainLinkTo('siteAccessFeed', { token });
  return (
    <section className={styles.siteAccessSection} aria-labelledby="site-access-keep">
      <h2 id="site-access-keep">{t('siteAccessKeepHeading')}</h2>
      <p>{t('siteAccessKeepIntro')}</p>
      <p className={styles.siteAccessDownloads}>
        <a className="button" href={plainLinkTo('siteAccessExport', { token, format: 'csv' })} download>
          {t('siteAccessDownloadCsv')}
        </a>
        <a className="button" href={plainLinkTo('siteAccessExport', { token, format: 'json' })} download>
          {t('siteAccessDownloadJson')}
        </a>
      </p>
      <div className="field">
        <label htmlFor="site-access-feed">{t('siteAccessFeedLabel')}</label>
        <span className={styles.siteAccessFeed}>
          <input
            id="site-access-feed"
            type="text"
            readOnly
            value={feed}
            onFocus={(e) => e.currentTarget.select()}
          />
          <CopyButton text={feed} label={t('siteAccessCopyFeed')} />
        </span>
      </div>
    </section>
  );
}

/** A stable key of a step (the log carries no id; the server sends it newest first). */
const stepKeys = (log: readonly SiteAccessStep[]) =>
  new Map(log.map((s, i) => [s, `${s.RequestId}-${s.Date}-${s.Event}-${i}`]));

/**
 * /impersonation/site-access?token=: the public page the site owner opens from the link in their
 * emails. It lists every request by the provider's support staff to access their site and every
 * step taken on them (consent, decisions, sessions, calls), with who took it and from where. An
 * invalid or expired link shows the server's error text.
 */
export default function SiteAccessPage() {
  const t = useT('impersonation');
  const [params] = useSearchParams();
  const parsed = siteAccessQuery.safeParse({ token: params.get('token') ?? '' });
  const token = parsed.success ? parsed.data.token : '';
  const access = useSiteAccess(token, parsed.success);
  const requestColumns = useRequestColumns();
  const stepColumns = useStepColumns();
  const d = access.data;

  let heading: string;
  let content: React.ReactNode;
  if (!parsed.success) {
    heading = t('siteAccessInvalidHeading');
    content = (
      <p className="form-alert" role="alert">
        {parsed.error.issues[0]?.message}
      </p>
    );
  } else if (access.isError) {
    heading = t('siteAccessInvalidHeading');
    content = (
      <p className="form-alert" role="alert">
        {errorText(access.error, t('siteAccessLinkInvalid'))}
      </p>
    );
  } else if (!d) {
    heading = t('siteAccessLoadingHeading');
    content = <Skeleton label={t('siteAccessLoading')} />;
  } else {
    heading = t('siteAccessHeading', { app: d.AppName });
    const keys = stepKeys(d.Log);
    content = (
      <>
        <p>{t('siteAccessIntro', { app: d.AppName })}</p>
        <p className="notice notice-info">{t('siteAccessReassure')}</p>
        <section className={styles.siteAccessSection} aria-labelledby="site-access-requests">
          <h2 id="site-access-requests">{t('siteAccessRequestsHeading')}</h2>
          <DataTable
            label={t('siteAccessRequestsHeading')}
            columns={requestColumns}
            rows={d.Requests}
            rowKey={(r) => String(r.Id)}
            isLoading={false}
            pageSize={PAGE_SIZE}
          />
        </section>
        <section className={styles.siteAccessSection} aria-labelledby="site-access-steps">
          <h2 id="site-access-steps">{t('siteAccessStepsHeading')}</h2>
          <DataTable
            label={t('siteAccessStepsHeading')}
            columns={stepColumns}
            rows={d.Log}
            rowKey={(s) => keys.get(s) ?? ''}
            isLoading={false}
            pageSize={PAGE_SIZE}
          />
        </section>
        <KeepYourOwnRecord token={token} />
        <p className={`field-hint ${consentPageStyles.consentHelp}`}>{t('siteAccessHelp')}</p>
      </>
    );
  }
  return (
    <PublicPage
      id="site-access-heading"
      panelClass={styles.siteAccessPanel}
      kicker={t('siteAccessKicker')}
      heading={heading}
    >
      {content}
    </PublicPage>
  );
}
