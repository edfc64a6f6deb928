import { type ReactNode, useId } from 'react';

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
    <fieldset className={`checkbox-group radio-group${error ? ' has-error' : ''}`}>
      <legend id={`${id}-legend`}>{legend}</legend>
      <div
        className="checkbox-options"
        role="radiogroup"
        aria-labelledby={`${id}-legend`}
        aria-describedby={error ? errorId : undefined}
      >
        {options.map((o) => {
          const optionId = `${id}-${o.value}`;
          return (
            <div key={o.value} className="radio-option-block">
              <div className="checkbox-option">
                <input
                  id={optionId}
                  type="radio"
                  className="checkbox-input"
                  name={name}
                  value={o.value}
                  checked={value === o.value}
                  disabled={o.disabled}
                  aria-describedby={o.hint ? `${optionId}-hint` : undefined}
                  onChange={() => onChange(o.value)}
                />
                <label htmlFor={optionId}>{o.label}</label>
                {o.hint ? (
                  <p id={`${optionId}-hint`} className="field-hint checkbox-hint">
                    {o.hint}
                  </p>
                ) : null}
              </div>
              {renderChosen && value === o.value ? (
                <div className="radio-chosen">{renderChosen(o.value)}</div>
              ) : null}
            </div>
          );
        })}
      </div>
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
