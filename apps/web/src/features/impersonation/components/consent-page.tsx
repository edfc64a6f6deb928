import { consentQuery } from '@sac/contract/impersonation-api';
import { useSearchParams } from 'react-router';
import { PublicPage } from '../../../components/public-page.tsx';
import { CaseValue } from '../../../components/reason-view.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useAnswerConsent, useConsentDetails } from '../api/impersonation-api.ts';
import styles from './consent-page.module.css';
import { useMinutes } from './request-details.tsx';
import { TagValues } from './tag-values.tsx';

/**
 * /impersonation/consent?token=: the public page the site owner opens from the consent email. It
 * shows who asks, why, with which roles and permissions and for how long, and records Allow or
 * Deny once; then thanks them with the server's message. A used or invalid link shows the server's
 * error text.
 */
export default function ConsentPage() {
  const t = useT('impersonation');
  const [params] = useSearchParams();
  const parsed = consentQuery.safeParse({ token: params.get('token') ?? '' });
  const token = parsed.success ? parsed.data.token : '';
  const details = useConsentDetails(token, parsed.success);
  const answer = useAnswerConsent();
  const d = details.data;

  let heading: string;
  let content: React.ReactNode;
  if (!parsed.success) {
    heading = t('consentInvalidHeading');
    content = (
      <p className="form-alert" role="alert">
        {parsed.error.issues[0]?.message}
      </p>
    );
  } else if (answer.isSuccess) {
    heading = t('consentDoneHeading');
    content = (
      <>
        <p className="notice notice-success" role="status">
          {answer.data.Message ?? (answer.variables.granted ? t('consentGranted') : t('consentDenied'))}
        </p>
        <p className="muted">{t('consentCloseHint')}</p>
      </>
    );
  } else if (details.isError) {
    heading = t('consentInvalidHeading');
    content = (
      <p className="form-alert" role="alert">
        {errorText(details.error, t('consentLinkInvalid'))}
      </p>
    );
  } else if (!d) {
    heading = t('consentKicker');
    content = <Skeleton label={t('consentLoading')} />;
  } else {
    heading = t('consentHeading', { app: d.AppName });
    const answered = d.Consent !== 'pending';
    content = (
      <>
        <p>{t('consentIntro', { who: d.RequestedBy, app: d.AppName })}</p>
        <ConsentFacts details={d} />
        <p className="notice notice-info">{t('consentReassure')}</p>
        {answer.isError ? (
          <p className="form-alert" role="alert">
            {errorText(answer.error)}
          </p>
        ) : null}
        {answered ? (
          <p className="form-alert" role="alert">
            {t('consentAnswered')}
          </p>
        ) : (
          <div className="consent-actions">
            <button
              type="button"
              className="button button-primary"
              disabled={answer.isPending}
              aria-busy={answer.isPending && answer.variables?.granted === true}
              onClick={() => answer.mutate({ token, granted: true })}
            >
              {t('consentAllow')}
            </button>
            <button
              type="button"
              className="button"
              disabled={answer.isPending}
              aria-busy={answer.isPending && answer.variables?.granted === false}
              onClick={() => answer.mutate({ token, granted: false })}
            >
              {t('consentDeny')}
            </button>
          </div>
        )}
        {answer.isPending ? (
          <p className="muted" role="status">
            {t('consentSending')}
          </p>
        ) : null}
        <p className={`field-hint ${styles.consentHelp}`}>{t('consentHelp')}</p>
      </>
    );
  }
  return (
    <PublicPage id="consent-heading" panelClass="consent-panel" kicker={t('consentKicker')} heading={heading}>
      {content}
    </PublicPage>
  );
}

/** What the owner is asked to allow: why, the roles and permissions, how long, the request's Id. */
function ConsentFacts({
  details: d,
}: {
  details: NonNullable<ReturnType<typeof useConsentDetails>['data']>;
}) {
  const t = useT('impersonation');
  const minutes = useMinutes();
  return (
    <dl className={styles.consentList}>
      {d.ReasonLabel ? (
        <div>
          <dt>{t('reasonCode')}</dt>
          <dd>{d.ReasonLabel}</dd>
        </div>
      ) : null}
      {d.CaseReference ? (
        <div>
          <dt>{t('caseReference')}</dt>
          <dd>
            <CaseValue shown={d} />
          </dd>
        </div>
      ) : null}
      <div>
        <dt>{t('consentWhy')}</dt>
        <dd>{d.Description}</dd>
      </div>
      <div>
        <dt>{t('consentRoles')}</dt>
        <dd>
          <TagValues values={d.ProxyRoles} />
        </dd>
      </div>
      <div>
        <dt>{t('consentPermissions')}</dt>
        <dd>
          <TagValues values={d.AdditionalPermissions} />
        </dd>
      </div>
      <div>
        <dt>{t('consentDuration')}</dt>
        <dd>{t('consentDurationValue', { duration: minutes(d.Duration) })}</dd>
      </div>
      <div>
        <dt>{t('consentRequestId')}</dt>
        <dd>{d.RequestId}</dd>
      </div>
    </dl>
  );
}
