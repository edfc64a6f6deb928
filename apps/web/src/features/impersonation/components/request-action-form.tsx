import type { ImpersonationRequest } from '@sac/contract/impersonation-api';
import { type FormEvent, type ReactNode, useId } from 'react';
import { type Schema, useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import styles from './request-action-form.module.css';

/** What the request popup gives each action form. */
export interface RequestActionProps {
  request: ImpersonationRequest;
  /** Back to the request's details. */
  onBack: () => void;
  /** The action is done: the popup closes. */
  onDone: () => void;
}

/** The part of a mutation an action form calls: its answer's Message is shown as a toast. */
interface ActionCall<Vars> {
  isPending: boolean;
  mutate: (
    vars: Vars,
    options: { onSuccess: (answer: { Message: string }) => void; onError?: (error: Error) => void },
  ) => void;
}

/**
 * The state of one action form: its values through the one form hook (validated by the action's
 * contract schema), and `send`, which calls the action once at a time with the parsed values,
 * shows the answer's message and closes the popup without asking about the sent values.
 */
export function useRequestActionForm<V extends object, Out, Vars>(
  schema: Schema<Out>,
  initial: V,
  call: ActionCall<Vars>,
  onDone: () => void,
) {
  const form = useContractForm(schema, { initial });
  const send = (toVars: (data: Out) => Vars, onError?: (error: Error) => void) => {
    const data = form.submit();
    if (data === undefined || call.isPending) return;
    call.mutate(toVars(data), {
      onSuccess: (answer) => {
        toast.success(answer.Message);
        form.leave(onDone);
      },
      onError,
    });
  };
  return { form, send, busy: call.isPending };
}

interface RequestActionFormProps {
  /** The question or summary above the fields. */
  intro?: ReactNode;
  children?: ReactNode;
  /** The submit button: its words, and whether it reads as a confirmation or a danger. */
  submit: { label: string; busyLabel?: string; tone: 'primary' | 'danger' };
  busy: boolean;
  /** Why the submit button is disabled (shown above the buttons), or undefined when it is not. */
  blocked?: string;
  /** Back takes the focus when the form opens (a confirmation without fields). */
  focusBack?: boolean;
  onSubmit: () => void;
  onBack: () => void;
}

/** The one frame of the request popup's action forms: intro, fields, then submit and Back. */
export function RequestActionForm({
  intro,
  children,
  submit,
  busy,
  blocked,
  focusBack,
  onSubmit,
  onBack,
}: RequestActionFormProps) {
  const t = useT('impersonation');
  const hintId = useId();
  const onFormSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (blocked === undefined) onSubmit();
  };
  return (
    <form onSubmit={onFormSubmit} noValidate>
      {intro ? <p>{intro}</p> : null}
      {children}
      {blocked !== undefined ? (
        <p id={hintId} className="field-hint">
          {blocked}
        </p>
      ) : null}
      <div className={styles.actions}>
        <button
          type="submit"
          className={submit.tone === 'primary' ? 'button button-primary' : 'button button-danger-solid'}
          disabled={blocked !== undefined}
          aria-describedby={blocked !== undefined ? hintId : undefined}
          aria-busy={busy}
        >
          {busy ? (submit.busyLabel ?? t('working')) : submit.label}
        </button>
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={onBack}
          data-autofocus={focusBack || undefined}
        >
          {t('back')}
        </button>
      </div>
    </form>
  );
}
