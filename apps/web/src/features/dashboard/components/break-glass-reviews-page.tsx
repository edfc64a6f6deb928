import {
  BREAK_GLASS_CLOSED_DAYS,
  type BreakGlassReviewItem,
  BREAK_GLASS_REVIEW_STATES as STATES,
} from '@sac/contract/break-glass';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { NextPageButton, NextPageError } from '../../../components/paged-table.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { type BreakGlassReviewState, useBreakGlassReviews } from '../api/dashboard-api.ts';
import { BreakGlassReviewRow, CloseReviewDialog } from './break-glass-review-row.tsx';
import impersonationCardsStyles from './impersonation-cards.module.css';

const STATE_LABEL = {
  open: 'breakGlassStateOpen',
  closed: 'breakGlassStateClosed',
  all: 'breakGlassStateAll',
} as const;

const NONE = { open: 'breakGlassNone', closed: 'breakGlassNoneClosed', all: 'breakGlassNoneAll' } as const;

/** The filter, kept in the address (?state=closed|all; open when absent). */
function useStateFilter(): [BreakGlassReviewState, (s: BreakGlassReviewState) => void] {
  const [search, setSearch] = useSearchParams();
  const raw = search.get('state');
  const state = STATES.find((s) => s === raw) ?? 'open';
  const set = (next: BreakGlassReviewState) =>
    setSearch(
      (prev) => {
        const params = new URLSearchParams(prev);
        if (next === 'open') params.delete('state');
        else params.set('state', next);
        return params;
      },
      { replace: true },
    );
  return [state, set];
}

/**
 * /manage-superuser/impersonation/break-glass-reviews?state=: every open break-glass review, the
 * oldest first (overdue ones in red), or those closed in the last 30 days, or both; 50 at a time,
 * Load more for the next. The rows and the close-with-note dialog are the dashboard card's.
 */
export default function BreakGlassReviewsPage() {
  const t = useT('dashboard');
  const common = useT('common');
  const [state, setState] = useStateFilter();
  const { list, rows } = useBreakGlassReviews(state);
  const [closing, setClosing] = useState<BreakGlassReviewItem | undefined>();
  const overdue = rows?.filter((r) => r.Overdue).length ?? 0;
  return (
    <section className="card list-screen" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('breakGlassTitle')}</h1>
          <p className="muted">{t('breakGlassPageIntro', { days: BREAK_GLASS_CLOSED_DAYS })}</p>
        </div>
      </div>
      <div className="table-toolbar">
        <SelectField
          id="break-glass-state"
          name="state"
          label={t('breakGlassFilter')}
          value={state}
          options={STATES.map((s) => ({
            value: s,
            label: t(STATE_LABEL[s], { days: BREAK_GLASS_CLOSED_DAYS }),
          }))}
          onValueChange={(v) => setState(v as BreakGlassReviewState)}
        />
      </div>
      {list.isPending ? <Skeleton lines={4} /> : null}
      {list.isError && !rows ? (
        <p className="form-alert" role="alert">
          {errorText(list.error, common('tableFetchError'))}
        </p>
      ) : null}
      {rows && overdue > 0 ? (
        <p className="form-alert" data-testid="break-glass-page-overdue">
          {t('breakGlassOverdueShown', { count: overdue })}
        </p>
      ) : null}
      {rows && rows.length === 0 ? (
        <p className="muted">{t(NONE[state], { days: BREAK_GLASS_CLOSED_DAYS })}</p>
      ) : null}
      {rows && rows.length > 0 ? (
        <ul className={impersonationCardsStyles.dashboardList} aria-label={t('breakGlassPageListLabel')}>
          {rows.map((r) => (
            <BreakGlassReviewRow key={r.RequestId} item={r} onClose={setClosing} />
          ))}
        </ul>
      ) : null}
      <NextPageError list={list} fetchError={common('tableFetchError')} />
      <NextPageButton list={list} label={t('breakGlassLoadMore')} />
      {closing ? <CloseReviewDialog item={closing} onClose={() => setClosing(undefined)} /> : null}
    </section>
  );
}
