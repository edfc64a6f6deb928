import { NOTICE_SITES_MAX } from '@sac/contract/notices';
import { useEffect, useId, useState } from 'react';
import formFieldStyles from '../../../components/form-field.module.css';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { type PickedSite, useSiteOptions } from '../api/notices-api.ts';
import styles from './site-picker.module.css';

/** The search waits for the typing to pause this long before it asks the server. */
const SEARCH_DELAY_MS = 250;

function useDebounced(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/**
 * The sites a notice goes to: found by customer or site name (the server's search, at most 20 a
 * time), chosen ones shown by name as chips that can be removed. The notice still carries their
 * AppIds (the contract's audience); `named` keeps the names of the chosen ones for the chips.
 */
export function SitePicker({
  value,
  named,
  error,
  onChange,
  onBlur,
}: {
  value: number[];
  named: ReadonlyMap<number, PickedSite>;
  error?: string | undefined;
  onChange: (ids: number[], site?: PickedSite) => void;
  /** The choice was touched (a site added or removed): its error may show from now on. */
  onBlur: () => void;
}) {
  const t = useT('notifications');
  const id = useId();
  const [typed, setTyped] = useState('');
  const term = useDebounced(typed.trim());
  const found = useSiteOptions(term);
  const chosen = new Set(value);
  const full = value.length >= NOTICE_SITES_MAX;
  const results = (found.data ?? []).filter((s) => !chosen.has(s.AppId));
  const labelOf = (appId: number) => named.get(appId)?.AppName ?? `#${appId}`;

  return (
    <fieldset className={styles.sitePicker} aria-describedby={`${id}-hint`}>
      <legend>{t('sitesLegend')}</legend>
      <p className="muted" id={`${id}-hint`}>
        {t('siteSearchHint', { max: NOTICE_SITES_MAX })}
      </p>
      <h3 className={styles.sitePickerHeading} id={`${id}-chosen`}>
        {t('sitesChosen', { count: value.length })}
      </h3>
      {value.length === 0 ? (
        <p className="muted">{t('sitesChosenNone')}</p>
      ) : (
        <ul className="tag-list" aria-labelledby={`${id}-chosen`}>
          {value.map((appId) => (
            <li key={appId} className={`tag ${styles.chip}`} title={t('siteIdTitle', { id: appId })}>
              {labelOf(appId)}
              <button
                type="button"
                className={styles.chipRemove}
                aria-label={t('siteRemove', { site: labelOf(appId) })}
                onClick={() => {
                  onChange(value.filter((x) => x !== appId));
                  onBlur();
                }}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="field">
        <label htmlFor={`${id}-search`}>{t('siteSearch')}</label>
        <input
          id={`${id}-search`}
          type="search"
          value={typed}
          autoComplete="off"
          disabled={full}
          onChange={(e) => setTyped(e.target.value)}
        />
      </div>
      <SiteResults
        term={term}
        found={found}
        results={results}
        full={full}
        onAdd={(site) => {
          onChange([...value, site.AppId], site);
          onBlur();
        }}
      />
      {/* Under the results, so that its appearing never moves a result from under the pointer. */}
      {error ? (
        <p className={formFieldStyles.fieldError} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** What the search found: searching, none, all chosen already, or the sites to add. */
function SiteResults({
  term,
  found,
  results,
  full,
  onAdd,
}: {
  term: string;
  found: ReturnType<typeof useSiteOptions>;
  results: PickedSite[];
  full: boolean;
  onAdd: (site: PickedSite) => void;
}) {
  const t = useT('notifications');
  return (
    <div aria-live="polite">
      {term === '' ? null : found.isError ? (
        <p className="form-alert">{errorText(found.error)}</p>
      ) : !found.data || found.isPlaceholderData ? (
        <p className="muted">{t('siteSearching')}</p>
      ) : found.data.length === 0 ? (
        <p className="muted">{t('siteNoMatch', { term })}</p>
      ) : results.length === 0 ? (
        <p className="muted">{t('siteAllChosen')}</p>
      ) : (
        <ul className={styles.results} aria-label={t('siteResults')}>
          {results.map((s) => (
            <li key={s.AppId}>
              <button
                type="button"
                className={styles.result}
                disabled={full}
                aria-label={t('siteAdd', { site: s.AppName, owner: s.OwnerName })}
                onClick={() => onAdd(s)}
              >
                <span className={styles.resultName}>{s.AppName}</span>
                <span className="muted">{t('siteOwner', { name: s.OwnerName, email: s.OwnerEmail })}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
