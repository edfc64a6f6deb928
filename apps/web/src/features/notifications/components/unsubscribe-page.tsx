import { unsubscribeQuery } from '@sac/contract/notices';
import { useSearchParams } from 'react-router';
import { PublicPage } from '../../../components/public-page.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useUnsubscribe, useUnsubscribeDetails } from '../api/notices-api.ts';

/**
 * /unsubscribe?token=: the public page of an announcement's unsubscribe link. It names the
 * address (masked) and unsubscribes it from announcements on confirmation; incident and
 * maintenance notices still arrive. A forged or altered link shows the server's refusal.
 */
export default function UnsubscribePage() {
  const t = useT('notifications');
  const [params] = useSearchParams();
  const parsed = unsubscribeQuery.safeParse({ token: params.get('token') ?? '' });
  const token = parsed.success ? parsed.data.token : '';
  const details = useUnsubscribeDetails(token, parsed.success);
  const done = useUnsubscribe();

  let heading = t('unsubscribeHeading');
  let content: React.ReactNode;
  if (!parsed.success || details.isError) {
    heading = t('unsubscribeInvalidHeading');
    content = (
      <p className="form-alert" role="alert">
        {details.isError ? errorText(details.error, t('unsubscribeInvalid')) : t('unsubscribeInvalid')}
      </p>
    );
  } else if (done.isSuccess) {
    content = (
      <p className="notice notice-success" role="status">
        {t('unsubscribeDone', { email: done.data.Email })}
      </p>
    );
  } else if (!details.data) {
    content = <Skeleton label={t('unsubscribeLoading')} />;
  } else if (details.data.Unsubscribed) {
    content = (
      <p className="notice notice-info" role="status">
        {t('unsubscribeAlready', { email: details.data.Email })}
      </p>
    );
  } else {
    content = (
      <>
        <p>{t('unsubscribeIntro', { email: details.data.Email })}</p>
        {done.isError ? (
          <p className="form-alert" role="alert">
            {errorText(done.error)}
          </p>
        ) : null}
        <div className="consent-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={done.isPending}
            aria-busy={done.isPending}
            onClick={() => done.mutate(token)}
          >
            {done.isPending ? t('unsubscribing') : t('unsubscribeConfirm')}
          </button>
        </div>
      </>
    );
  }
  return (
    <PublicPage
      id="unsubscribe-heading"
      panelClass="consent-panel"
      kicker={t('unsubscribeKicker')}
      heading={heading}
    >
      {content}
    </PublicPage>
  );
}
