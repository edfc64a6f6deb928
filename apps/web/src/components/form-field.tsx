import type { InputHTMLAttributes, ReactNode } from 'react';
import styles from './form-field.module.css';

interface FieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'onChange' | 'value'> {
  id: string;
  name: string;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  onValueChange: (value: string) => void;
}

/** The aria attributes a control gets from its frame. */
export interface ControlAria {
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * What every labelled control shares: the label, the hint or the error under the control, and
 * the aria attributes that tie them to it. `children` renders the control with those attributes.
 */
export function FieldFrame({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: (aria: ControlAria) => ReactNode;
}) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy =
    [hint && !error ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && !error ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className={styles.fieldError}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input with its error (and optional hint) under it, wired with aria-describedby. */
export function FormField({ id, name, label, value, error, hint, onValueChange, ...rest }: FieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      {(aria) => (
        <input
          id={id}
          name={name}
          value={value}
          {...aria}
          onChange={(e) => onValueChange(e.target.value)}
          {...rest}
        />
      )}
    </FieldFrame>
  );
}
