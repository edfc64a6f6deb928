import { type FormEvent, useState } from 'react';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useCreateServiceAccount, useStaffRoles } from '../api/api-tokens-api.ts';

/**
 * A new service account (SuperAdmins): a name and its roles. It never signs in; it owns API
 * tokens, made for it above with the owner picker, and shows in the team list marked as such.
 */
export function ServiceAccountCard() {
  const t = useT('apiTokens');
  const roles = useStaffRoles(true);
  const create = useCreateServiceAccount();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [errors, setErrors] = useState<{ name?: string; roles?: string }>({});
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const next = {
      ...(name.trim() === '' ? { name: t('serviceNameRequired') } : {}),
      ...(chosen.length === 0 ? { roles: t('serviceRolesRequired') } : {}),
    };
    setErrors(next);
    if (next.name || next.roles || create.isPending) return;
    create.mutate(
      { Name: name.trim(), Roles: chosen },
      {
        onSuccess: (made) => {
          toast.success(t('serviceCreated', { email: made.Email }));
          setName('');
          setChosen([]);
        },
      },
    );
  };
  return (
    <section className="card form-card" aria-labelledby="service-account-heading">
      <h2 id="service-account-heading">{t('serviceHeading')}</h2>
      <p className="muted">{t('serviceIntro')}</p>
      <form onSubmit={onSubmit} noValidate>
        <FormField
          id="service-account-name"
          name="service-name"
          label={t('name')}
          value={name}
          error={errors.name}
          maxLength={100}
          onValueChange={setName}
        />
        <CheckboxGroup
          legend={t('serviceRoles')}
          name="service-roles"
          options={(roles.data ?? []).map((r) => ({ value: r.Name, label: r.Name }))}
          value={chosen}
          error={errors.roles}
          onChange={setChosen}
        />
        <div className="form-actions">
          <button type="submit" className="button button-primary" aria-busy={create.isPending}>
            {create.isPending ? t('creating') : t('serviceCreate')}
          </button>
        </div>
      </form>
    </section>
  );
}
