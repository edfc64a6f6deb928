import { useT } from '../lib/i18n.tsx';
import styles from './changed-meanwhile.module.css';

/** One field another editor changed: its label and the value they stored. */
export interface ChangedField {
  label: string;
  value: string;
}

/**
 * The notice over a form whose save was refused because someone else saved meanwhile: what they
 * changed, and the two ways on (load their values, or save what was typed over them).
 */
export function ChangedMeanwhile({
  changes,
  onLoadTheirs,
  onOverwrite,
  busy = false,
}: {
  changes: readonly ChangedField[];
  onLoadTheirs: () => void;
  onOverwrite: () => void;
  busy?: boolean;
}) {
  const t = useT('common');
  return (
    <div className={`notice ${styles.noticeWarning}`} role="alert">
      <p>
        <strong>{t('changedMeanwhileTitle')}</strong>{' '}
        {changes.length > 0 ? t('changedMeanwhileText') : t('changedMeanwhileNoFields')}
      </p>
      {changes.length > 0 ? (
        <ul className="changed-meanwhile">
          {changes.map((c) => (
            <li key={c.label}>
              {c.label}: {c.value === '' ? t('emptyValue') : c.value}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="form-actions">
        <button type="button" className="button" onClick={onLoadTheirs} disabled={busy}>
          {t('loadTheirValues')}
        </button>
        <button type="button" className="button button-primary" onClick={onOverwrite} disabled={busy}>
          {t('saveMineOverTheirs')}
        </button>
      </div>
    </div>
  );
}

/** The fields whose value differs between what the form was filled from and what is stored now. */
export function changedFields<T extends object>(
  before: T,
  now: T,
  labels: { readonly [K in keyof T]?: string },
  show: (value: T[keyof T]) => string = (v) => (Array.isArray(v) ? v.join(', ') : String(v ?? '')),
): ChangedField[] {
  return (Object.keys(labels) as (keyof T)[])
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(now[k]))
    .map((k) => ({ label: labels[k]!, value: show(now[k]) }));
}
