import {
  criterionOf,
  SEARCH_CRITERIA,
  type SearchCriterion,
  SUBSTRING_MIN_LENGTH,
  searchCustomerQuery,
} from '@sac/contract/customers';
import { type FormEvent, useId } from 'react';
import { FormField } from '../../../components/form-field.tsx';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import type { CustomerSearch } from '../api/customers-api.ts';
import { emptyCriteria } from './customer-search.ts';
import styles from './customer-search-form.module.css';

/** The label phrase of each criterion's field. */
const LABELS = {
  customerName: 'customerName',
  emailid: 'emailAddress',
  apikey: 'apiKey',
  sitename: 'siteName',
  phone: 'phoneSearch',
  uid: 'uidSearch',
  apisecret: 'apiSecret',
} as const satisfies Record<SearchCriterion, string>;

/** Criteria whose short terms match only the start of the name (the API's prefix rule). */
const PREFIX_BELOW_MIN = new Set<SearchCriterion>(['customerName', 'sitename']);

/** The four fields of the spec, then phone and UID; the API secret is an advanced option. */
const MAIN = SEARCH_CRITERIA.filter((c) => c !== 'apisecret');

interface Props {
  /** The search shown now (from the address), prefilled. */
  initial: CustomerSearch | undefined;
  busy: boolean;
  onSearch: (search: CustomerSearch) => void;
  onClear: () => void;
}

/**
 * The customer search form: one labelled field per criterion, one criterion at a time (typing in a
 * field clears the others). Enter or Search submits; the contract's schema checks the term.
 */
export function CustomerSearchForm({ initial, busy, onSearch, onClear }: Props) {
  const t = useT('customers');
  const id = useId();
  const form = useContractForm(searchCustomerQuery, {
    initial: { ...emptyCriteria(), ...(initial ? { [initial.criterion]: initial.term } : {}) },
    showErrors: 'submit',
    leaveGuard: false,
  });

  /** Typing in a field clears the others and any error, until the next search. */
  const change = (criterion: SearchCriterion, value: string) =>
    form.reset({ ...emptyCriteria(), [criterion]: value });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (data) onSearch(criterionOf(data));
  };

  const clear = () => {
    form.reset(emptyCriteria());
    onClear();
  };

  const hintOf = (criterion: SearchCriterion) => {
    if (PREFIX_BELOW_MIN.has(criterion)) return t('shortTermHint', { n: SUBSTRING_MIN_LENGTH });
    return criterion === 'phone' ? t('phoneHint') : undefined;
  };

  const field = (criterion: SearchCriterion) => (
    <FormField
      key={criterion}
      id={`${id}-${criterion}`}
      name={criterion}
      label={t(LABELS[criterion])}
      value={form.values[criterion]}
      error={form.shown(criterion)}
      hint={hintOf(criterion)}
      onValueChange={(v) => change(criterion, v)}
      autoComplete="off"
      spellCheck={false}
      inputMode={criterion === 'phone' ? 'tel' : undefined}
    />
  );

  return (
    // biome-ignore lint/a11y/useSemanticElements: a search landmark; <search> is unknown to jsdom and older browsers.
    <form
      className="search-form"
      role="search"
      aria-label={t('searchFormLabel')}
      noValidate
      onSubmit={submit}
    >
      <div className={styles.searchGrid}>{MAIN.map(field)}</div>
      <details className={styles.searchAdvanced} open={initial?.criterion === 'apisecret'}>
        <summary>{t('advancedOptions')}</summary>
        <div className={styles.searchGrid}>{field('apisecret')}</div>
      </details>
      <p className="field-hint">{t('oneCriterionHint')}</p>
      {form.formError ? (
        <p className="form-alert" role="alert">
          {form.formError}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="button button-primary" aria-busy={busy || undefined}>
          {t('search')}
        </button>
        <button type="button" className="button" onClick={clear}>
          {t('clear')}
        </button>
      </div>
    </form>
  );
}
