import type { TextareaHTMLAttributes } from 'react';
import { FieldFrame } from './form-field.tsx';

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
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      {(aria) => (
        <textarea
          id={id}
          name={name}
          value={value}
          rows={3}
          {...aria}
          onChange={(e) => onValueChange(e.target.value)}
          {...rest}
        />
      )}
    </FieldFrame>
  );
}
