import { useMemo } from 'react';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useLoginSessions } from '../api/customers-api.ts';
import { CUSTOMER_TABLE_PAGE_SIZE } from './customer-search.ts';

type Login = NonNullable<ReturnType<typeof useLoginSessions>['data']>[number];

/** Last login info (loginsessionbyuid): access type, browser, location (IP), date and time (UTC). */
export function LastLoginSection({ uid }: { uid: string }) {
  const t = useT('customers');
  const common = useT('common');
  const logins = useLoginSessions(uid);
  const columns = useMemo(
    (): Column<Login>[] => [
      { id: 'access', header: t('accessType'), sortValue: (r) => r.AccessType, cell: (r) => r.AccessType },
      { id: 'browser', header: t('browser'), sortValue: (r) => r.Browser, cell: (r) => r.Browser },
      {
        id: 'location',
        header: t('location'),
        cell: (r) =>
          r.Location ? t('locationWithIp', { location: r.Location, ip: r.ClientAddress }) : r.ClientAddress,
      },
      {
        id: 'date',
        header: t('dateTimeUtc'),
        sortValue: (r) => r.LoginDate,
        cell: (r) => formatDateTime(r.LoginDate),
      },
    ],
    [t],
  );
  return (
    <section className="card" aria-labelledby="last-login-info">
      <h2 id="last-login-info">{t('lastLoginInfo')}</h2>
      <DataTable
        label={t('lastLoginTableLabel')}
        columns={columns}
        rows={logins.data}
        rowKey={(r) => `${r.LoginDate}|${r.ClientAddress}|${r.Browser}`}
        isLoading={logins.isPending}
        error={logins.isError ? errorText(logins.error, common('tableFetchError')) : undefined}
        pageSize={CUSTOMER_TABLE_PAGE_SIZE}
        csvExport={{ name: 'last-logins' }}
      />
    </section>
  );
}
