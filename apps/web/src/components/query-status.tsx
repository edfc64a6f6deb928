import type { ReactNode } from 'react';
import { errorText } from '../lib/api-client.ts';
import { useT } from '../lib/i18n.tsx';
import { Skeleton } from './skeleton.tsx';

interface QueryLike {
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

/**
 * The loading, error and (optionally) empty lines of one query's section; renders nothing once
 * the data is there. The error line shows the server's text when it sent one.
 */
export function QueryStatus({
  query,
  empty,
  emptyText,
}: {
  query: QueryLike;
  /** True when the loaded data has nothing to show. */
  empty?: boolean;
  emptyText?: ReactNode;
}) {
  const common = useT('common');
  if (query.isError) {
    return (
      <p className="form-alert" role="alert">
        {errorText(query.error, common('tableFetchError'))}
      </p>
    );
  }
  if (query.isPending) {
    return <Skeleton />;
  }
  if (empty) return <p className="muted">{emptyText ?? common('tableEmpty')}</p>;
  return null;
}
