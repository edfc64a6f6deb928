import type { InputHTMLAttributes } from 'react';
import styles from './checkbox-field.module.css';
import checkboxGroupStyles from './checkbox-group.module.css';

interface CheckboxFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'onChange' | 'checked' | 'type'> {
  id: string;
  name: string;
  label: string;
  checked: boolean;
  hint?: string;
  onCheckedChange: (checked: boolean) => void;
}

/** One labelled checkbox (an on/off setting), with an optional hint wired by aria-describedby. */
export function CheckboxField({
  id,
  name,
  label,
  checked,
  hint,
  onCheckedChange,
  ...rest
}: CheckboxFieldProps) {
  const hintId = `${id}-hint`;
  return (
    <div className={`field checkbox-option ${styles.checkboxField}`}>
      <input
        id={id}
        name={name}
        type="checkbox"
        className={checkboxGroupStyles.checkboxInput}
        checked={checked}
        aria-describedby={hint ? hintId : undefined}
        onChange={(e) => onCheckedChange(e.target.checked)}
        {...rest}
      />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={hintId} className={`field-hint ${checkboxGroupStyles.checkboxHint}`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
