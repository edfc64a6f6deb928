import styles from './stepper.module.css';
export interface StepItem {
  id: string;
  label: string;
  /** Done steps show a check mark. */
  done?: boolean;
  /** Steps that can be opened are buttons; others plain text. */
  enabled?: boolean;
}

interface StepperProps {
  label: string;
  steps: readonly StepItem[];
  current: string;
  /** Text read after a done step's name (e.g. 'done'). */
  doneText: string;
  onSelect: (id: string) => void;
}

/**
 * The steps of a multi-step form, in order (an ordered list). The current step carries
 * aria-current="step"; a step that can be opened is a button named by the step's label.
 */
export function Stepper({ label, steps, current, doneText, onSelect }: StepperProps) {
  return (
    <nav aria-label={label} className={styles.stepper}>
      <ol>
        {steps.map((s, i) => {
          const isCurrent = s.id === current;
          const cls = `${styles.stepperItem}${isCurrent ? ' is-current' : ''}${s.done ? ' is-done' : ''}`;
          const content = (
            <>
              <span className={styles.stepperNumber} aria-hidden="true">
                {s.done && !isCurrent ? '✓' : i + 1}
              </span>
              <span className="stepper-label">{s.label}</span>
            </>
          );
          return (
            <li key={s.id} className={cls} aria-current={isCurrent ? 'step' : undefined}>
              {s.enabled && !isCurrent ? (
                <button
                  type="button"
                  className={styles.stepperButton}
                  aria-describedby={s.done ? `${s.id}-done` : undefined}
                  onClick={() => onSelect(s.id)}
                >
                  {content}
                </button>
              ) : (
                <span className={styles.stepperButton}>{content}</span>
              )}
              {s.done ? (
                <span id={`${s.id}-done`} className="visually-hidden">
                  {doneText}
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
