import type { SelectHTMLAttributes } from 'react';
import { FieldFrame } from './form-field.tsx';

export interface SelectOption {
  value: string;
  label: string;
}

interface SelectFieldProps
  extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name' | 'onChange' | 'value'> {
  id: string;
  name: string;
  label: string;
  value: string;
  options: readonly SelectOption[];
  /** A first, empty option ("Choose …"); selecting it gives ''. */
  placeholder?: string;
  error?: string;
  hint?: string;
  onValueChange: (value: string) => void;
}

/** A labelled select with its error (and optional hint) under it, wired with aria-describedby. */
export function SelectField({
  id,
  name,
  label,
  value,
  options,
  placeholder,
  error,
  hint,
  onValueChange,
  ...rest
}: SelectFieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      {(aria) => (
        <select
          id={id}
          name={name}
          value={value}
          {...aria}
          onChange={(e) => onValueChange(e.target.value)}
          {...rest}
        >
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}
