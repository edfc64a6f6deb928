import { useT } from '../lib/i18n.tsx';
import styles from './reason-view.module.css';

/*
 * Why staff were given access: a request's or grant's reason and case, as every screen that shows
 * them renders them (the requests list, a request's details, the dashboard, the session banner,
 * the consent and site-access pages).
 */

/** A request's reason and case as the server answers them (null on requests made before codes). */
export interface ReasonShown {
  ReasonLabel: string | null;
  CaseReference: string | null;
  CaseUrl: string | null;
}

/**
 * The case or ticket reference: a link to the tracker when the server built one
 * (IMPERSONATION_CASE_URL), opened in a new tab without giving it this page; else its text.
 */
export function CaseValue({ shown }: { shown: ReasonShown }) {
  const t = useT('impersonation');
  if (!shown.CaseReference) return <span className="muted">{t('none')}</span>;
  if (!shown.CaseUrl) return <span className={styles.wrap}>{shown.CaseReference}</span>;
  return (
    <a
      className={styles.wrap}
      href={shown.CaseUrl}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t('caseLinkLabel', { case: shown.CaseReference })}
    >
      {shown.CaseReference}
    </a>
  );
}

/** The reason's words, or 'None' on an older request. */
export function ReasonValue({ shown }: { shown: ReasonShown }) {
  const t = useT('impersonation');
  return shown.ReasonLabel ? shown.ReasonLabel : <span className="muted">{t('none')}</span>;
}

/**
 * One line under a cell or a list's entry: 'Reason · case', the case linked as CaseValue; nothing
 * on an older request. `className` places it in its list's layout instead of a cell's.
 */
export function ReasonNote({
  shown,
  lead,
  className = styles.note,
}: {
  shown: ReasonShown;
  /** Words before the reason (what kind of access it was given for). */
  lead?: string;
  className?: string;
}) {
  if (!shown.ReasonLabel && !shown.CaseReference) return null;
  return (
    <span className={`muted ${className}`}>
      {lead ? `${lead} ` : null}
      {shown.ReasonLabel}
      {shown.ReasonLabel && shown.CaseReference ? ' · ' : null}
      {shown.CaseReference ? <CaseValue shown={shown} /> : null}
    </span>
  );
}
