import { customerPasswordBody } from '@sac/contract/customer-writes';
import { MESSAGES } from '@sac/contract/messages';
import { generatePassword, isStrongPassword } from '@sac/contract/validation';
import { type FormEvent, useState } from 'react';
import { z } from 'zod';
import { Dialog } from '../../../components/dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useSetCustomerPassword } from '../api/customer-writes-api.ts';
import styles from './reset-password-dialog.module.css';

/** A generated password that satisfies the password rule (redrawn until it has both letter cases). */
export function strongGeneratedPassword(): string {
  for (;;) {
    const p = generatePassword();
    if (isStrongPassword(p)) return p;
  }
}

/** The password and its confirmation, which must match. */
const passwordForm = customerPasswordBody
  .extend({ confirm: z.string() })
  .refine((v) => v.confirm === v.password, { path: ['confirm'], message: MESSAGES.passwordsDoNotMatch });

/**
 * Reset a customer's password (PUT /admin/customer/password): password and confirmation, the
 * spec's password rule, and Generate, which fills both and shows the password so staff can pass
 * it on. Success toasts the server's Message.
 */
export function ResetPasswordDialog({
  uid,
  email,
  onClose,
}: {
  uid: string;
  email: string;
  onClose: () => void;
}) {
  const t = useT('customers');
  const setPassword = useSetCustomerPassword(uid);
  const [generated, setGenerated] = useState<string | undefined>();
  const form = useContractForm(passwordForm, { initial: { password: '', confirm: '' } });

  const set = (f: 'password' | 'confirm', v: string) => {
    setGenerated(undefined);
    form.set(f, v);
  };
  const generate = () => {
    const p = strongGeneratedPassword();
    form.patch({ password: p, confirm: p });
    setGenerated(p);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || setPassword.isPending) return;
    setPassword.mutate(
      { password: data.password },
      {
        onSuccess: (answer) => {
          toast.success(answer.Message || t('passwordSet'));
          onClose();
        },
      },
    );
  };

  return (
    <Dialog title={t('resetPasswordTitle')} onClose={onClose} busy={setPassword.isPending}>
      <form onSubmit={onSubmit} noValidate>
        <p>{t('resetPasswordIntro', { email })}</p>
        <FormField
          id="customer-password"
          name="password"
          type={generated ? 'text' : 'password'}
          label={t('newPasswordField')}
          autoComplete="new-password"
          value={form.values.password}
          error={form.shown('password')}
          onValueChange={(v) => set('password', v)}
          onBlur={() => form.touch('password')}
        />
        <FormField
          id="customer-password-confirm"
          name="confirmpassword"
          type={generated ? 'text' : 'password'}
          label={t('confirmPasswordField')}
          autoComplete="new-password"
          value={form.values.confirm}
          error={form.shown('confirm')}
          onValueChange={(v) => set('confirm', v)}
          onBlur={() => form.touch('confirm')}
        />
        <div className="field">
          <div>
            <button type="button" className="button" onClick={generate}>
              {t('generate')}
            </button>
          </div>
        </div>
        {generated ? (
          <div className="notice notice-info generated-password">
            <p>
              {t('generatedPassword')}{' '}
              <code className={styles.generatedPasswordValue} data-testid="generated-password">
                {generated}
              </code>
            </p>
            <p className="field-hint">{t('generatedPasswordHint')}</p>
          </div>
        ) : null}
        <div className="form-actions dialog-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={!form.valid || setPassword.isPending}
            aria-busy={setPassword.isPending}
          >
            {setPassword.isPending ? t('saving') : t('savePassword')}
          </button>
          <button type="button" className="button" disabled={setPassword.isPending} onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
