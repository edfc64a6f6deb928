import { consolePaths } from '@sac/contract/console-paths';
import { TRIAL_ENDING_DAYS } from '@sac/contract/dashboard';
import { sortParam, TRIAL_SORT_KEYS } from '@sac/contract/list-sort';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DataCenterName } from '../../../components/data-center-name.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { everyPage, NextPageError, pagedTableProps } from '../../../components/paged-table.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { formatLocalDateTime } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useListView } from '../../../lib/list-view.ts';
import { useRelativeClock, useTimeZone } from '../../../lib/time-zone.ts';
import { type EndingTrial, readTrialsEnding, useTrialsEnding } from '../api/dashboard-api.ts';

const PAGE_SIZE = 10;
/** The export reads the list in the API's largest pages. */
const TRIALS_EXPORT_PAGE = 200;
/** The windows offered, in days (the API takes 1 to 90). */
const WINDOWS = [1, 3, 7, 14, 30, 60, 90] as const;
/** The list's own order: soonest end first. */
const SOONEST_FIRST = { key: 'ends', descending: false } as const;
const DAY_MS = 86_400_000;

/** The window in days, kept in the address (?days=): one of WINDOWS, else the card's 7. */
function useWindow(): [number, (days: number) => void] {
  const [search, setSearch] = useSearchParams();
  const raw = Number(search.get('days'));
  const days = (WINDOWS as readonly number[]).includes(raw) ? raw : TRIAL_ENDING_DAYS;
  const set = (next: number) =>
    setSearch(
      (prev) => {
        const params = new URLSearchParams(prev);
        if (next === TRIAL_ENDING_DAYS) params.delete('days');
        else params.set('days', String(next));
        params.delete('page');
        return params;
      },
      { replace: true },
    );
  return [days, set];
}

/** Whole days until the end, counted down: "3 days left", or "less than a day" on the last day. */
function DaysLeft({ endsAt }: { endsAt: string }) {
  const t = useT('dashboard');
  const now = useRelativeClock();
  const days = Math.floor((Date.parse(endsAt) - now) / DAY_MS);
  return <>{days < 1 ? t('lessThanADay') : t('daysLeft', { count: days })}</>;
}

/**
 * /manage-customer/trials-ending?days=: the sites whose trial ends within the chosen window (7
 * days by default, the dashboard card's), soonest first or latest first, 10 a page, read 50 at a
 * time, exported whole as CSV. The dashboard's trials card links here.
 */
export default function TrialsEndingPage() {
  const t = useT('dashboard');
  const common = useT('common');
  const zone = useTimeZone();
  const [days, setDays] = useWindow();
  const view = useListView(true, TRIAL_SORT_KEYS);
  const sort = view.sort ? sortParam(view.sort) : undefined;
  const { list, rows } = useTrialsEnding(days, sort);

  const columns = useMemo<Column<EndingTrial>[]>(
    () => [
      {
        id: 'site',
        header: t('colSite'),
        csv: (s) => s.AppName,
        cell: (s) => (
          <Link to={consolePaths.siteConfiguration({ uid: s.OwnerUid, appId: s.AppId })}>{s.AppName}</Link>
        ),
      },
      {
        id: 'customer',
        header: t('colCustomer'),
        csv: (s) => s.CustomerName,
        cell: (s) => <Link to={consolePaths.customerView({ uid: s.OwnerUid })}>{s.CustomerName}</Link>,
      },
      { id: 'plan', header: t('colPlan'), csv: (s) => s.Plan, cell: (s) => s.Plan },
      {
        id: 'dataCenter',
        header: t('colDataCenter'),
        csv: (s) => s.DataCenter ?? '',
        cell: (s) => <DataCenterName code={s.DataCenter} name={s.DataCenterName} />,
      },
      {
        id: 'ends',
        header: t('colTrialEnds', { zone }),
        csv: (s) => s.TrialEndsAt,
        cell: (s) => <time dateTime={s.TrialEndsAt}>{formatLocalDateTime(s.TrialEndsAt, zone)}</time>,
      },
      { id: 'left', header: t('colDaysLeft'), cell: (s) => <DaysLeft endsAt={s.TrialEndsAt} /> },
    ],
    [t, zone],
  );

  return (
    <section className="card list-screen" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('trialsList')}</h1>
          <p className="muted">{t('trialsListIntro')}</p>
        </div>
      </div>
      <div className="table-toolbar">
        <SelectField
          id="trials-window"
          name="days"
          label={t('trialsWindow')}
          options={WINDOWS.map((d) => ({ value: String(d), label: t('trialsWindowDays', { count: d }) }))}
          value={String(days)}
          onValueChange={(v) => setDays(Number(v))}
        />
      </div>
      <DataTable
        key={`${days}:${sort ?? ''}`}
        label={t('trialsTable')}
        columns={columns}
        rows={rows}
        rowKey={(s) => String(s.AppId)}
        {...pagedTableProps(list, rows !== undefined, common('tableFetchError'))}
        pageSize={PAGE_SIZE}
        view={view}
        ownOrder={SOONEST_FIRST}
        csvExport={{
          name: 'trials-ending',
          readAll: everyPage(readTrialsEnding(days, sort, TRIALS_EXPORT_PAGE)),
        }}
      />
      <NextPageError list={list} fetchError={common('tableFetchError')} />
    </section>
  );
}
