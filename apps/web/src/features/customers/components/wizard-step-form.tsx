import { type FormEvent, type ReactNode, useEffect, useRef } from 'react';
import { useT } from '../../../lib/i18n.tsx';
import styles from './wizard-step-form.module.css';

interface WizardStepFormProps {
  /** The step's name: the form's heading. */
  title: string;
  /** 'Step n of 4'. */
  position: string;
  /** Set when the step's last save failed: says which step failed and why. */
  failure?: string;
  /** Disables Next (the form is invalid, or a save runs). */
  canSubmit: boolean;
  busy: boolean;
  /** The submit button's text when not busy ('Next' or 'Finish'). */
  submitLabel: string;
  onSubmit: () => void;
  onBack?: () => void;
  /** Submits once when shown (Finish saving the steps with unsaved changes, one after another). */
  autoSubmit?: boolean;
  children: ReactNode;
}

/** One step of the site form: heading, fields, the failure of its last save, Back and Next. */
export function WizardStepForm({
  title,
  position,
  failure,
  canSubmit,
  busy,
  submitLabel,
  onSubmit,
  onBack,
  autoSubmit = false,
  children,
}: WizardStepFormProps) {
  const t = useT('customers');
  const submitWhenShown = useRef(autoSubmit);
  const latestSubmit = useRef(onSubmit);
  latestSubmit.current = onSubmit;
  useEffect(() => {
    if (!submitWhenShown.current) return;
    submitWhenShown.current = false;
    // Invalid values show their errors there, and the chain stops on this step.
    latestSubmit.current();
  }, []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (canSubmit && !busy) onSubmit();
  };
  return (
    <form className={styles.wizardStep} onSubmit={submit} noValidate>
      <p className={`muted ${styles.wizardPosition}`}>{position}</p>
      <h2 id="wizard-step-title" tabIndex={-1}>
        {title}
      </h2>
      {failure ? (
        <div className={`form-alert ${styles.wizardFailure}`} role="alert">
          <p className={styles.wizardFailureText}>{failure}</p>
          <p className={styles.wizardFailureKept}>{t('stepFailedKept')}</p>
        </div>
      ) : null}
      {children}
      <div className="form-actions">
        {onBack ? (
          <button type="button" className="button" onClick={onBack} disabled={busy}>
            {t('back')}
          </button>
        ) : null}
        <button
          type="submit"
          className="button button-primary"
          disabled={!canSubmit || busy}
          aria-busy={busy}
        >
          {busy ? t('saving') : submitLabel}
        </button>
      </div>
    </form>
  );
}
