import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';

/** Loading and error lines of one configuration section (the server's text when it sent one). */
export function SectionStatus({
  query,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown };
}) {
  const t = useT('siteSettings');
  const common = useT('common');
  if (query.isError) {
    return (
      <p className="form-alert" role="alert">
        {errorText(query.error, common('tableFetchError'))}
      </p>
    );
  }
  if (query.isPending) {
    return (
      <p className="muted" role="status">
        {t('loading')}
      </p>
    );
  }
  return null;
}
