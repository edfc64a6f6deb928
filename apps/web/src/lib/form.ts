import { useCallback, useState } from 'react';

/** The minimum of a zod schema the forms need (safeParse with issues). */
interface Schema<Out> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: Out }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** The first message per field of a failed parse, in the schema's words. */
export function validate<K extends string, Out>(
  schema: Schema<Out>,
  values: Record<K, unknown>,
): { ok: true; data: Out } | { ok: false; errors: FieldErrors<K> } {
  const r = schema.safeParse(values);
  if (r.success) return { ok: true, data: r.data };
  const errors: FieldErrors<K> = {};
  for (const issue of r.error.issues) {
    const field = String(issue.path[0] ?? '') as K;
    if (!(field in errors)) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

/**
 * Form state driven by a contract schema: values are validated on submit, then re-validated on
 * every change once the user has tried to submit. Values are trimmed by the schema.
 */
export function useSchemaForm<K extends string, Out>(schema: Schema<Out>, initial: Record<K, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<K>>({});
  const [submitted, setSubmitted] = useState(false);

  const setValue = useCallback(
    (field: K, value: string) => {
      setValues((prev) => {
        const next = { ...prev, [field]: value };
        if (submitted) {
          const r = validate(schema, next);
          setErrors(r.ok ? {} : r.errors);
        }
        return next;
      });
    },
    [schema, submitted],
  );

  /** Validates; returns the parsed (trimmed) data, or undefined with the errors shown. */
  const check = useCallback((): Out | undefined => {
    setSubmitted(true);
    const r = validate(schema, values);
    setErrors(r.ok ? {} : r.errors);
    return r.ok ? r.data : undefined;
  }, [schema, values]);

  const reset = useCallback((next: Record<K, string>) => {
    setValues(next);
    setErrors({});
    setSubmitted(false);
  }, []);

  return { values, errors, setValue, check, reset, setErrors };
}

/**
 * Live validation of a form whose values live elsewhere (a step of a multi-step form, a dialog):
 * the schema's errors on every render, shown for touched fields; errors the server sent per field
 * show until that field changes. `valid` disables the submit button.
 */
export function useLiveValidation<K extends string, Out>(schema: Schema<Out>, values: Record<K, unknown>) {
  const [touched, setTouched] = useState<ReadonlySet<K>>(() => new Set());
  const [serverErrors, setServerErrors] = useState<FieldErrors<K>>({});
  const r = validate(schema, values);
  const errors: FieldErrors<K> = r.ok ? {} : r.errors;
  const touch = useCallback((f: K) => setTouched((prev) => (prev.has(f) ? prev : new Set(prev).add(f))), []);
  /** Marks a field touched and forgets the server's error for it (call on change). */
  const changed = useCallback(
    (f: K) => {
      touch(f);
      setServerErrors((prev) => (f in prev ? { ...prev, [f]: undefined } : prev));
    },
    [touch],
  );
  const shown = (f: K): string | undefined => serverErrors[f] ?? (touched.has(f) ? errors[f] : undefined);
  return {
    valid: r.ok,
    data: r.ok ? r.data : undefined,
    errors,
    shown,
    touch,
    changed,
    setServerErrors,
  };
}

/** The server's FieldErrors by the form's field names ('data.Email' -> 'Email'). */
export function serverFieldErrors<K extends string>(
  fieldErrors: readonly { Field: string; Message: string }[] | undefined,
  fields: readonly K[],
): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const fe of fieldErrors ?? []) {
    const name = fe.Field.replace(/^data\./, '') as K;
    if (fields.includes(name) && !(name in out)) out[name] = fe.Message;
  }
  return out;
}
