import { useCallback, useState } from 'react';
import { ApiError, errorText } from './api-client.ts';
import { useLeaveGuard } from './leave-guard.ts';

/** The minimum of a zod schema the forms need (safeParse with issues). */
export interface Schema<Out> {
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

/**
 * A failed call's field errors by the form's fields, with the call's text on the field `byCode`
 * names for its code; undefined for a failure that is not the API's answer.
 */
function failedFields<K extends string>(
  error: unknown,
  fields: readonly K[],
  byCode: Partial<Record<number, K>>,
): FieldErrors<K> | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const found: FieldErrors<K> = serverFieldErrors(error.envelope?.FieldErrors, fields);
  const about = error.code === undefined ? undefined : byCode[error.code];
  return about ? { ...found, [about]: errorText(error) } : found;
}

/** A form's values: an object of fields (an interface or a record). */
type FormValues = object;

interface ContractFormOptions<V extends FormValues> {
  /** The values when the form owns them (a page, a dialog). */
  initial?: V;
  /** The values when a parent owns them (a step of a multi-step form), with its setter. */
  values?: V;
  onChange?: (next: V) => void;
  /**
   * When a field shows the schema's error: once the user changed or left it ('touched', the
   * default), or only after the first submit (sign-in screens, where a half-typed address is
   * not yet a mistake).
   */
  showErrors?: 'touched' | 'submit';
  /** Control ids are `${idPrefix}-${field}`. */
  idPrefix?: string;
  /**
   * Whether leaving with unsaved changes asks first (default). Off for forms whose values are
   * not a record's (sign-in, search) and for steps whose parent guards them.
   */
  leaveGuard?: boolean;
}

function omit<K extends string>(errors: FieldErrors<K>, fields: readonly K[]): FieldErrors<K> {
  const out = { ...errors };
  for (const f of fields) delete out[f];
  return out;
}

/** Whether two forms' values are the same, field by field (lists by their items). */
export function sameValues(before: FormValues, after: FormValues): boolean {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
    } else if (x !== y) return false;
  }
  return true;
}

/**
 * The one form hook: values validated by the contract's schema on every render (the submit button
 * can follow `valid`), errors shown per the `showErrors` rule, the server's field errors shown
 * until that field changes, and `dirty` against the values last loaded or saved (`reset`).
 * `submit()` returns the parsed (trimmed) data, or undefined with every error shown.
 */
export function useContractForm<V extends FormValues, Out>(
  schema: Schema<Out>,
  options: ContractFormOptions<V>,
) {
  type K = Extract<keyof V, string>;
  const [own, setOwn] = useState<V>(() => (options.initial ?? options.values) as V);
  const values = options.values ?? own;
  const onChange = options.onChange;
  const [baseline, setBaseline] = useState<V>(values);
  const [touched, setTouched] = useState<ReadonlySet<K>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors<K>>({});

  const dirty = !sameValues(values, baseline);
  const { leave } = useLeaveGuard(dirty && options.leaveGuard !== false);

  const r = validate<K | '', Out>(schema, values as Record<K | '', unknown>);
  const { '': whole, ...errors }: FieldErrors<K | ''> = r.ok ? {} : r.errors;
  const onTouch = (options.showErrors ?? 'touched') === 'touched';

  const touch = useCallback(
    (f: K) => {
      if (onTouch) setTouched((prev) => (prev.has(f) ? prev : new Set(prev).add(f)));
    },
    [onTouch],
  );

  /** Changes some fields at once (each counts as touched and drops its server error). */
  const patch = (changes: Partial<V>) => {
    const next = { ...values, ...changes };
    if (onChange) onChange(next);
    else setOwn(next);
    const changed = Object.keys(changes) as K[];
    for (const f of changed) touch(f);
    setServerErrors((prev) => (changed.some((f) => f in prev) ? omit(prev, changed) : prev));
  };
  const set = <F extends K>(f: F, value: V[F]) => patch({ [f]: value } as unknown as Partial<V>);

  const shown = (f: K): string | undefined =>
    serverErrors[f] ?? (submitted || touched.has(f) ? errors[f] : undefined);

  /** The props of a text or select control bound to one field. */
  const field = (f: K) => ({
    id: options.idPrefix ? `${options.idPrefix}-${f}` : f,
    name: f,
    value: String(values[f] ?? ''),
    error: shown(f),
    onValueChange: (v: string) => set(f, v as V[K]),
    onBlur: () => touch(f),
  });

  const submit = (): Out | undefined => {
    setSubmitted(true);
    return r.ok ? r.data : undefined;
  };

  /**
   * Shows a failed call's field errors; `byCode` puts the call's text on one field for codes
   * that are about that field (e.g. the email of a customer that already exists). Returns what
   * it shows.
   */
  const serverFailed = (error: unknown, byCode: Partial<Record<number, K>> = {}): FieldErrors<K> => {
    const shownNow = failedFields(error, Object.keys(values) as K[], byCode);
    if (shownNow) setServerErrors(shownNow);
    return shownNow ?? {};
  };

  /** New values (loaded or saved) become the clean state. */
  const reset = (next: V) => {
    if (onChange) onChange(next);
    else setOwn(next);
    setBaseline(next);
    setTouched(new Set());
    setSubmitted(false);
    setServerErrors({});
  };

  return {
    values,
    set,
    patch,
    field,
    shown,
    touch,
    submit,
    reset,
    serverFailed,
    setServerErrors,
    errors: errors as FieldErrors<K>,
    /** An error about the form as a whole (no field), after the first submit. */
    formError: submitted ? whole : undefined,
    submitted,
    valid: r.ok,
    data: r.ok ? r.data : undefined,
    dirty,
    /** Runs a navigation the form starts after saving, without asking about its changes. */
    leave,
  };
}
