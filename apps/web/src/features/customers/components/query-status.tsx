import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';

/** Loading and error lines of one section of the customer view (the section's data follows). */
export function QueryStatus({ query }: { query: { isPending: boolean; isError: boolean; error: unknown } }) {
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
        {common('loading')}
      </p>
    );
  }
  return null;
}
