import type { TextareaHTMLAttributes } from 'react';

interface TextAreaFieldProps
  extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'name' | 'onChange' | 'value'> {
  id: string;
  name: string;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  onValueChange: (value: string) => void;
}

/** A labelled multi-line input with its error (and optional hint) under it, as FormField. */
export function TextAreaField({
  id,
  name,
  label,
  value,
  error,
  hint,
  onValueChange,
  ...rest
}: TextAreaFieldProps) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy =
    [hint && !error ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        value={value}
        rows={3}
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
