import { type ReactNode, useId } from 'react';
import checkboxGroupStyles from './checkbox-group.module.css';
import formFieldStyles from './form-field.module.css';
import styles from './radio-group.module.css';

interface RadioOption {
  value: string;
  label: string;
  /** A short description shown under the option and announced with it. */
  hint?: string;
  disabled?: boolean;
}

interface RadioGroupProps {
  legend: string;
  name: string;
  options: readonly RadioOption[];
  value: string;
  error?: string;
  onChange: (value: string) => void;
  /** Shown under the chosen option (its own fields). */
  renderChosen?: (value: string) => ReactNode;
}

/** A single choice as a fieldset of radio buttons (role=radiogroup), with its error under it. */
export function RadioGroup({ legend, name, options, value, error, onChange, renderChosen }: RadioGroupProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset className={`${checkboxGroupStyles.checkboxGroup} radio-group${error ? ' has-error' : ''}`}>
      <legend id={`${id}-legend`}>{legend}</legend>
      <div
        className={checkboxGroupStyles.checkboxOptions}
        role="radiogroup"
        aria-labelledby={`${id}-legend`}
        aria-describedby={error ? errorId : undefined}
      >
        {options.map((o) => {
          const optionId = `${id}-${o.value}`;
          return (
            <div key={o.value} className={styles.radioOptionBlock}>
              <div className="checkbox-option">
                <input
                  id={optionId}
                  type="radio"
                  className={checkboxGroupStyles.checkboxInput}
                  name={name}
                  value={o.value}
                  checked={value === o.value}
                  disabled={o.disabled}
                  aria-describedby={o.hint ? `${optionId}-hint` : undefined}
                  onChange={() => onChange(o.value)}
                />
                <label htmlFor={optionId}>{o.label}</label>
                {o.hint ? (
                  <p id={`${optionId}-hint`} className={`field-hint ${checkboxGroupStyles.checkboxHint}`}>
                    {o.hint}
                  </p>
                ) : null}
              </div>
              {renderChosen && value === o.value ? (
                <div className={styles.radioChosen}>{renderChosen(o.value)}</div>
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
