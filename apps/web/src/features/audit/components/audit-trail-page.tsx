import { AUDIT_RESULTS, type AuditResult } from '@sac/contract/audit';
import { AUDIT_SORT_KEYS, sortParam } from '@sac/contract/list-sort';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ActionWords } from '../../../components/action-words.tsx';
import { CopyableCode } from '../../../components/copy-button.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { DetailList } from '../../../components/detail-list.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { FieldFrame, FormField } from '../../../components/form-field.tsx';
import { NextPageError, pagedTableProps } from '../../../components/paged-table.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { formatLocalDateTime, viewerTimeZone } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useListView } from '../../../lib/list-view.ts';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { type AuditEvent, useAuditTrail } from '../api/audit-api.ts';
import styles from './audit-trail-page.module.css';
import { ExportPanel } from './export-panel.tsx';
import { ACTIONS_BY_AREA } from './trail-actions.ts';
import {
  type FilterErrors,
  type FilterForm,
  filterErrors,
  formFromParams,
  paramsFromForm,
  queryFromParams,
  RANGES,
  type RangeId,
} from './trail-filters.ts';

/** The trail's own order: its Time column, descending. */
const NEWEST_FIRST = { key: 'time', descending: true } as const;

/** Rows a page of the table shows; the server answers 50 at a time. */
const ROWS_PER_PAGE = 25;

const RANGE_LABELS = {
  any: 'rangeAny',
  '1h': 'rangeHour',
  '24h': 'range24h',
  '7d': 'range7d',
  '30d': 'range30d',
  custom: 'rangeCustom',
} as const satisfies Record<RangeId, string>;

/**
 * /manage-superuser/audit-trail: the staff audit trail, newest first, with filters kept in the
 * address, keyset paging, row details and the export of the filtered trail.
 */
export default function AuditTrailPage() {
  const t = useT('audit');
  const common = useT('common');
  const zone = useTimeZone();
  const [params, setParams] = useSearchParams();
  const view = useListView(true, AUDIT_SORT_KEYS);
  // The filters alone: the page and the order live beside them in the address.
  const filters = new URLSearchParams(params);
  filters.delete('page');
  filters.delete('sort');
  const paramsKey = filters.toString();
  const sort = view.sort ? sortParam(view.sort) : undefined;
  // A preset range counts back from when the filters were applied (or the page was opened).
  const query = useMemo(
    () => ({ ...queryFromParams(new URLSearchParams(paramsKey), Date.now()), ...(sort ? { sort } : {}) }),
    [paramsKey, sort],
  );
  const trail = useAuditTrail(query);
  const rows = useMemo(() => trail.data?.pages.flatMap((p) => p.Data), [trail.data]);
  const [open, setOpen] = useState<AuditEvent | undefined>();

  const columns = useAuditColumns(zone, setOpen);

  return (
    <section className="card audit-trail list-screen" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('auditTrail')}</h1>
          <p className="muted">{t('intro')}</p>
        </div>
      </div>
      <Filters
        key={paramsKey}
        initial={formFromParams(params)}
        onApply={(f) => {
          // New filters start at the first page, in the order chosen.
          const next = paramsFromForm(f);
          if (sort) next.set('sort', sort);
          setParams(next);
        }}
      />
      <div className="table-toolbar">
        <button
          type="button"
          className="button button-small"
          aria-busy={trail.isFetching}
          onClick={() => void trail.refetch()}
        >
          {trail.isFetching && !trail.isPending ? t('refreshing') : t('refresh')}
        </button>
      </div>
      <DataTable
        key={`table-${paramsKey}:${sort ?? ''}`}
        label={t('tableLabel')}
        columns={columns}
        rows={rows}
        rowKey={(e) => e.Id}
        {...pagedTableProps(trail, rows !== undefined, common('tableFetchError'))}
        pageSize={ROWS_PER_PAGE}
        view={view}
        ownOrder={NEWEST_FIRST}
      />
      <NextPageError list={trail} fetchError={common('tableFetchError')} />
      <ExportPanel query={query} />
      {open ? <EventDialog e={open} zone={zone} onClose={() => setOpen(undefined)} /> : null}
    </section>
  );
}

/** The trail's columns; Details opens the event's dialog through `onDetails`. */
function useAuditColumns(zone: string, onDetails: (e: AuditEvent) => void) {
  const t = useT('audit');
  return useMemo(
    (): Column<AuditEvent>[] => [
      {
        id: 'time',
        header: t('time', { zone }),
        cell: (e) => <Timestamp value={e.At} />,
      },
      { id: 'actor', header: t('actorColumn'), cell: (e) => e.ActorEmail ?? t('systemActor') },
      {
        id: 'action',
        header: t('action'),
        cell: (e) => (
          <>
            <ActionWords action={e.Action} />
            {e.ImpersonationRequestId !== null && !e.Action.startsWith('impersonation.') ? (
              <span className={`muted ${styles.auditVia}`}>
                {t('viaImpersonation', { id: e.ImpersonationRequestId })}
              </span>
            ) : null}
          </>
        ),
      },
      { id: 'result', header: t('result'), cell: (e) => <ResultBadge result={e.Result} /> },
      { id: 'target', header: t('target'), cell: (e) => <TargetCell e={e} /> },
      { id: 'address', header: t('clientAddress'), cell: (e) => e.ClientAddress ?? t('none') },
      {
        id: 'details',
        header: t('details'),
        cell: (e) => (
          <button
            type="button"
            className="button button-small"
            aria-label={t('showDetails', { id: e.Id })}
            onClick={() => onDetails(e)}
          >
            {t('details')}
          </button>
        ),
      },
    ],
    [t, zone, onDetails],
  );
}

const RESULT_WORDS = { done: 'resultDone', refused: 'resultRefused', failed: 'resultFailed' } as const;
const RESULT_LOOK = { done: styles.resultDone, refused: styles.resultRefused, failed: styles.resultFailed };

/** Done, Refused or Failed, as a badge; done is plain so the others stand out. */
function ResultBadge({ result }: { result: AuditResult }) {
  const t = useT('audit');
  return <span className={`status-badge ${RESULT_LOOK[result]}`}>{t(RESULT_WORDS[result])}</span>;
}

/**
 * The customer, site and staff member an event touched, by name, each id on hover; the customer and
 * the site link to the trail filtered to them. A target deleted since reads the name the event
 * recorded, marked deleted.
 */
function TargetCell({ e }: { e: AuditEvent }) {
  const t = useT('audit');
  const gone = e.TargetGone ? <span className="muted"> {t('deleted')}</span> : null;
  const parts = [];
  if (e.CustomerUid) {
    const name = e.CustomerName ?? t('customerUnknown');
    parts.push(
      <Link
        key="c"
        to={`?customer=${e.CustomerUid}`}
        className={styles.auditTarget}
        title={t('customerTitle', { uid: e.CustomerUid })}
        aria-label={t('customerNamed', { name, uid: e.CustomerUid })}
      >
        {name}
      </Link>,
    );
  }
  if (e.AppId !== null) {
    const name = e.SiteName ?? t('siteLabel', { appId: e.AppId });
    parts.push(
      <Link
        key="s"
        to={`?appId=${e.AppId}`}
        className={styles.auditTarget}
        title={t('siteTitle', { appId: e.AppId })}
        aria-label={t('siteNamed', { name, appId: e.AppId })}
      >
        {name}
      </Link>,
    );
  }
  if (e.TargetType === 'staff' && e.TargetId) {
    parts.push(
      <span key="st" className={styles.auditTarget} title={t('staffTitle', { uid: e.TargetId })}>
        {e.StaffName ?? t('staffUnknown')}
        {gone}
      </span>,
    );
  } else if (parts.length === 0 && e.TargetId) {
    parts.push(
      <span key="t" className={styles.auditTarget}>
        {e.TargetType ? `${e.TargetType} ` : ''}
        {e.TargetId}
      </span>,
    );
  } else if (gone && parts.length) {
    parts.push(<span key="g">{gone}</span>);
  }
  return parts.length ? <span className={styles.auditTargets}>{parts}</span> : t('none');
}

function EventDialog({ e, zone, onClose }: { e: AuditEvent; zone: string; onClose: () => void }) {
  const t = useT('audit');
  const common = useT('common');
  const none = t('none');
  return (
    <Dialog title={t('detailsTitle', { id: e.Id })} onClose={onClose} wide>
      <DetailList
        layout="wide"
        items={[
          { label: t('time', { zone }), value: `${formatLocalDateTime(e.At, zone)} (${e.At})` },
          { label: t('actor'), value: e.ActorEmail ?? t('systemActor') },
          {
            label: t('action'),
            value: (
              <>
                <ActionWords action={e.Action} /> <code>{e.Action}</code>
              </>
            ),
          },
          { label: t('result'), value: <ResultBadge result={e.Result} /> },
          { label: t('target'), value: e.TargetId ? `${e.TargetType ?? ''} ${e.TargetId}`.trim() : none },
          {
            label: t('customer'),
            value: e.CustomerUid ? `${e.CustomerName ?? t('customerUnknown')} (${e.CustomerUid})` : none,
          },
          { label: t('site'), value: e.AppId !== null ? `${e.SiteName ?? ''} (${e.AppId})`.trim() : none },
          { label: t('clientAddress'), value: e.ClientAddress ?? none },
          {
            label: t('requestId'),
            value: e.RequestId ? <CopyableCode text={e.RequestId} label={common('copyRequestId')} /> : none,
          },
          { label: t('impersonation'), value: e.ImpersonationRequestId ?? none },
        ]}
      />
      <h3>{t('details')}</h3>
      <pre className={styles.auditDetails}>{JSON.stringify(e.Details, null, 2)}</pre>
      <div className="form-actions">
        <button type="button" className="button" onClick={onClose}>
          {t('close')}
        </button>
      </div>
    </Dialog>
  );
}

/** The filter form; Apply puts the filters in the address, which the trail is read from. */
function Filters({ initial, onApply }: { initial: FilterForm; onApply: (f: FilterForm) => void }) {
  const t = useT('audit');
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FilterErrors>({});
  const set = (k: keyof FilterForm) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    const found = filterErrors(form, { customRange: t('rangeInvalid') });
    setErrors(found);
    if (Object.keys(found).length === 0) onApply(form);
  };
  return (
    <form className={styles.auditFilters} aria-label={t('filters')} onSubmit={submit} noValidate>
      <div className="form-grid">
        <FormField
          id="audit-actor"
          name="actor"
          type="email"
          label={t('actor')}
          value={form.actor}
          error={errors.actor}
          onValueChange={set('actor')}
        />
        <ActionPicker value={form.action} error={errors.action} onValueChange={set('action')} />
        <SelectField
          id="audit-result"
          name="result"
          label={t('result')}
          value={form.result}
          placeholder={t('anyResult')}
          options={AUDIT_RESULTS.map((r) => ({ value: r, label: t(RESULT_WORDS[r]) }))}
          onValueChange={set('result')}
        />
        <FormField
          id="audit-customer"
          name="customer"
          label={t('customer')}
          value={form.customer}
          hint={t('customerHint')}
          error={errors.customer}
          spellCheck={false}
          onValueChange={set('customer')}
        />
        <FormField
          id="audit-site"
          name="appId"
          label={t('site')}
          inputMode="numeric"
          value={form.appId}
          error={errors.appId}
          onValueChange={set('appId')}
        />
        <SelectField
          id="audit-range"
          name="range"
          label={t('range')}
          value={form.range}
          options={RANGES.map((r) => ({ value: r, label: t(RANGE_LABELS[r]) }))}
          onValueChange={(v) => setForm((f) => ({ ...f, range: v as RangeId }))}
        />
        {form.range === 'custom' ? <CustomRangeFields form={form} errors={errors} set={set} /> : null}
        <FormField
          id="audit-text"
          name="q"
          type="search"
          label={t('text')}
          hint={t('textHint')}
          value={form.q}
          error={errors.q}
          onValueChange={set('q')}
        />
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary">
          {t('apply')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            setErrors({});
            onApply(formFromParams(new URLSearchParams()));
          }}
        >
          {t('clear')}
        </button>
      </div>
    </form>
  );
}

/** From and To of a custom range, in the viewer's zone. */
function CustomRangeFields({
  form,
  errors,
  set,
}: {
  form: FilterForm;
  errors: FilterErrors;
  set: (k: keyof FilterForm) => (v: string) => void;
}) {
  const t = useT('audit');
  const zone = viewerTimeZone();
  return (
    <>
      <FormField
        id="audit-from"
        name="from"
        type="datetime-local"
        label={t('from', { zone })}
        value={form.from}
        error={errors.from}
        onValueChange={set('from')}
      />
      <FormField
        id="audit-to"
        name="to"
        type="datetime-local"
        label={t('to', { zone })}
        value={form.to}
        error={errors.to}
        onValueChange={set('to')}
      />
    </>
  );
}

/**
 * The Action filter: the actions in words, grouped by area, and a search box that narrows them by
 * their words or their code (the chosen action stays listed).
 */
function ActionPicker({
  value,
  error,
  onValueChange,
}: {
  value: string;
  error?: string;
  onValueChange: (v: string) => void;
}) {
  const t = useT('audit');
  const words = useT('auditActions');
  const [search, setSearch] = useState('');
  const searchId = useId();
  const needle = search.trim().toLowerCase();
  const groups = ACTIONS_BY_AREA.map((g) => ({
    ...g,
    actions: g.actions.filter(
      (a) => a === value || !needle || a.includes(needle) || words(a).toLowerCase().includes(needle),
    ),
  })).filter((g) => g.actions.length > 0);
  const shown = groups.reduce((n, g) => n + g.actions.length, 0);
  return (
    <div className={styles.actionPicker}>
      <FieldFrame id="audit-action" label={t('action')} error={error}>
        {(aria) => (
          <select
            id="audit-action"
            name="action"
            value={value}
            {...aria}
            onChange={(e) => onValueChange(e.target.value)}
          >
            <option value="">{t('anyAction')}</option>
            {groups.map((g) => (
              <optgroup key={g.area} label={words(g.area)}>
                {g.actions.map((a) => (
                  <option key={a} value={a} title={a}>
                    {words(a)}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        )}
      </FieldFrame>
      <div className={`field ${styles.actionSearch}`}>
        <label className="visually-hidden" htmlFor={searchId}>
          {t('actionSearch')}
        </label>
        <input
          id={searchId}
          type="search"
          placeholder={t('actionSearch')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {needle ? (
        <p className={`muted ${styles.actionCount}`} aria-live="polite">
          {shown === 0 ? t('actionSearchNone') : t('actionSearchCount', { n: shown })}
        </p>
      ) : null}
    </div>
  );
}
