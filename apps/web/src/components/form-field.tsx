import type { InputHTMLAttributes } from 'react';

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

/** A labelled input with its error (and optional hint) under it, wired with aria-describedby. */
export function FormField({ id, name, label, value, error, hint, onValueChange, ...rest }: FieldProps) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy =
    [hint && !error ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onValueChange(e.target.value)}
        {...rest}
      />
      {hint && !error ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
