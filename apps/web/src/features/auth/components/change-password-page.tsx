import { changePasswordForm } from '@sac/contract/auth';
import type { FormEvent } from 'react';
import { FormField } from '../../../components/form-field.tsx';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useChangePassword } from '../api/auth-api.ts';

const EMPTY = { oldpassword: '', newpassword: '', confirmpassword: '' };

/** /account/change-password: old, new and confirmed password; toasts the server's message. */
export default function ChangePasswordPage() {
  const t = useT('auth');
  const change = useChangePassword();
  const form = useContractForm(changePasswordForm, { initial: EMPTY, showErrors: 'submit' });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || change.isPending) return;
    change.mutate(
      { oldpassword: data.oldpassword, newpassword: data.newpassword },
      {
        onSuccess: (answer) => {
          if (answer.Message) toast.success(answer.Message);
          form.reset(EMPTY);
        },
      },
    );
  };
  return (
    <section className="card form-card" aria-labelledby="screen-title">
      <h1 id="screen-title">{t('changePasswordHeading')}</h1>
      <p className="muted">{t('changePasswordIntro')}</p>
      <form onSubmit={onSubmit} noValidate>
        <FormField
          id="cp-old"
          name="oldpassword"
          type="password"
          label={t('oldPassword')}
          autoComplete="current-password"
          value={form.values.oldpassword}
          error={form.shown('oldpassword')}
          onValueChange={(v) => form.set('oldpassword', v)}
        />
        <FormField
          id="cp-new"
          name="newpassword"
          type="password"
          label={t('newPassword')}
          autoComplete="new-password"
          hint={t('passwordHint')}
          value={form.values.newpassword}
          error={form.shown('newpassword')}
          onValueChange={(v) => form.set('newpassword', v)}
        />
        <FormField
          id="cp-confirm"
          name="confirmpassword"
          type="password"
          label={t('confirmPassword')}
          autoComplete="new-password"
          value={form.values.confirmpassword}
          error={form.shown('confirmpassword')}
          onValueChange={(v) => form.set('confirmpassword', v)}
        />
        <div className="form-actions">
          <button type="submit" className="button button-primary" aria-busy={change.isPending}>
            {change.isPending ? t('changing') : t('changePassword')}
          </button>
        </div>
      </form>
    </section>
  );
}
