import { useId } from 'react';
import styles from './checkbox-group.module.css';
import formFieldStyles from './form-field.module.css';

interface CheckboxOption {
  value: string;
  label: string;
  /** A short description shown under the option and announced with it. */
  hint?: string;
  /** This option alone cannot be changed now (the group's hint says why). */
  disabled?: boolean;
}

interface CheckboxGroupProps {
  legend: string;
  name: string;
  options: readonly CheckboxOption[];
  value: readonly string[];
  error?: string;
  onChange: (value: string[]) => void;
  /** Called when focus leaves the group. */
  onBlur?: () => void;
  disabled?: boolean;
  /** A note under the legend about the whole group (announced with it). */
  hint?: string;
}

/** A multi-select as a fieldset of checkboxes, with its error under it. */
export function CheckboxGroup({
  legend,
  name,
  options,
  value,
  error,
  onChange,
  onBlur,
  disabled,
  hint,
}: CheckboxGroupProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const toggle = (option: string, checked: boolean) => {
    const next = checked ? [...value, option] : value.filter((v) => v !== option);
    // Keep the options' order whatever the click order.
    onChange(options.map((o) => o.value).filter((v) => next.includes(v)));
  };
  return (
    <fieldset
      className={`${styles.checkboxGroup}${error ? ' has-error' : ''}`}
      aria-describedby={[hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined}
      disabled={disabled}
      onBlur={(e) => {
        if (onBlur && !e.currentTarget.contains(e.relatedTarget as Node | null)) onBlur();
      }}
    >
      <legend>{legend}</legend>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      <div className={styles.checkboxOptions}>
        {options.map((o) => {
          const optionId = `${id}-${o.value}`;
          return (
            <div key={o.value} className="checkbox-option">
              <input
                id={optionId}
                type="checkbox"
                className={styles.checkboxInput}
                name={name}
                value={o.value}
                checked={value.includes(o.value)}
                disabled={o.disabled}
                aria-describedby={o.hint ? `${optionId}-hint` : undefined}
                onChange={(e) => toggle(o.value, e.target.checked)}
              />
              <label htmlFor={optionId}>{o.label}</label>
              {o.hint ? (
                <p id={`${optionId}-hint`} className={`field-hint ${styles.checkboxHint}`}>
                  {o.hint}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      {error ? (
        <p id={errorId} className={formFieldStyles.fieldError}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
