import { updateCustomerProfileBody } from '@sac/contract/customer-writes';
import type { CustomerProfile } from '@sac/contract/customers';
import { ERRORS } from '@sac/contract/errors';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { z } from 'zod';
import { Dialog } from '../../../components/dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useUpdateCustomerProfile } from '../api/customer-writes-api.ts';
import { customerKeys } from '../api/customers-api.ts';
import { timeZoneOptions } from './time-zones.ts';

const schema = updateCustomerProfileBody.shape.data;
type ProfileValues = z.input<typeof schema>;

/** The phrase of each field's label. */
const FIELD_LABELS = {
  FirstName: 'firstNameField',
  LastName: 'lastNameField',
  Email: 'emailField',
  AuthEmail: 'authEmailField',
  Organization: 'organizationField',
  PhoneNumber: 'phoneField',
  ContactEmail: 'contactEmailField',
  TimeZone: 'timeZoneField',
} as const;

const valuesOf = (p: CustomerProfile): ProfileValues => ({
  FirstName: p.FirstName,
  LastName: p.LastName,
  Email: p.Email,
  AuthEmail: p.AuthEmail || p.Email,
  Organization: p.Organization,
  PhoneNumber: p.PhoneNumber,
  ContactEmail: p.ContactEmail,
  TimeZone: p.TimeZone,
});
/** A sign-in email that is the email (or none) follows the email as it is typed. */
const followsEmail = (p: CustomerProfile) =>
  !p.AuthEmail || p.AuthEmail.toLowerCase() === p.Email.toLowerCase();

const FIELDS = Object.keys(valuesOf({} as CustomerProfile)) as (keyof ProfileValues)[];

/** What another editor saved meanwhile: the fields whose stored value moved since the form was filled. */
function changedMeanwhile(before: CustomerProfile, now: CustomerProfile) {
  const a = valuesOf(before);
  const b = valuesOf(now);
  return FIELDS.filter((f) => a[f] !== b[f]).map((f) => ({ field: f, value: b[f] ?? '' }));
}

/**
 * Edit a customer's profile (PUT /admin/customerprofile, naming the version the form was filled
 * from in If-Match). Phone and email rules of spec section 5; a failure toasts the server's text
 * else 'Error updating customer profile.'; the answer replaces the cached profile. When another
 * editor saved in between (412, 930), what was typed stays, what they changed is listed, and the
 * user loads their values or saves over them.
 */
export function EditProfileDialog({ profile, onClose }: { profile: CustomerProfile; onClose: () => void }) {
  const t = useT('customers');
  const update = useUpdateCustomerProfile(profile.Uid);
  const queryClient = useQueryClient();
  // The stored profile and version this form was filled from: a save names that version, so
  // another editor's save in between is reported here instead of being silently undone.
  const [base, setBase] = useState(() => ({
    profile,
    version: queryClient.getQueryData<string | null>(customerKeys.profileVersion(profile.Uid)) ?? undefined,
  }));
  const [conflict, setConflict] = useState<
    | { latest: CustomerProfile; version: string | undefined; changed: ReturnType<typeof changedMeanwhile> }
    | undefined
  >();
  const form = useContractForm(schema, { initial: valuesOf(profile), idPrefix: 'profile' });
  const field = form.field;
  // A sign-in email that is the email follows it, until staff change it on its own.
  const [linked, setLinked] = useState(() => followsEmail(profile));
  const emailField = {
    ...field('Email'),
    onValueChange: (v: string) => form.patch(linked ? { Email: v, AuthEmail: v } : { Email: v }),
  };
  const authEmailField = {
    ...field('AuthEmail'),
    onValueChange: (v: string) => {
      setLinked(false);
      form.set('AuthEmail', v);
    },
  };

  const save = (version: string | undefined) => {
    const data = form.submit();
    if (!data || update.isPending) return;
    // The sign-in email is sent only when it changes: an unchanged one is not rewritten.
    const { AuthEmail, ...rest } = data;
    const authChanged =
      AuthEmail !== undefined && AuthEmail.toLowerCase() !== base.profile.AuthEmail.toLowerCase();
    update.mutate(
      { body: { data: authChanged ? { ...rest, AuthEmail } : rest }, ifMatch: version },
      {
        onSuccess: () => {
          toast.success(t('profileUpdated'));
          onClose();
        },
        onError: async (error) => {
          if (error instanceof ApiError && error.code === ERRORS.conflict.code) {
            // Keep what was typed; read what is stored now and say what moved.
            await queryClient.refetchQueries({ queryKey: customerKeys.profile(profile.Uid), exact: true });
            const latest = queryClient.getQueryData<CustomerProfile>(customerKeys.profile(profile.Uid));
            const latestVersion =
              queryClient.getQueryData<string | null>(customerKeys.profileVersion(profile.Uid)) ?? undefined;
            if (latest)
              setConflict({
                latest,
                version: latestVersion,
                changed: changedMeanwhile(base.profile, latest),
              });
            return;
          }
          form.serverFailed(error, {
            [ERRORS.customerEmailTaken.code]: 'Email',
            [ERRORS.customerAuthEmailTaken.code]: 'AuthEmail',
          });
        },
      },
    );
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save(base.version);
  };
  /** Their values replace the form's (what was typed is dropped); the next save is from them. */
  const loadTheirs = () => {
    if (!conflict) return;
    setBase({ profile: conflict.latest, version: conflict.version });
    form.reset(valuesOf(conflict.latest));
    setLinked(followsEmail(conflict.latest));
    setConflict(undefined);
  };
  /** The form's values are saved over theirs, knowingly: from the version just read. */
  const overwrite = () => {
    if (!conflict) return;
    setBase({ profile: conflict.latest, version: conflict.version });
    setConflict(undefined);
    save(conflict.version);
  };

  return (
    <Dialog title={t('editProfileTitle')} onClose={onClose} busy={update.isPending} wide>
      <form onSubmit={onSubmit} noValidate>
        {conflict ? (
          <div className="notice notice-warning" role="alert">
            <p>
              <strong>{t('changedMeanwhileTitle')}</strong> {t('changedMeanwhileText')}
            </p>
            {conflict.changed.length > 0 ? (
              <ul className="changed-meanwhile">
                {conflict.changed.map((c) => (
                  <li key={c.field}>
                    {t(FIELD_LABELS[c.field])}: {c.value === '' ? t('emptyValue') : c.value}
                  </li>
                ))}
              </ul>
            ) : null}
            <div className="form-actions">
              <button type="button" className="button" onClick={loadTheirs}>
                {t('loadTheirValues')}
              </button>
              <button type="button" className="button button-primary" onClick={overwrite}>
                {t('saveMineOverTheirs')}
              </button>
            </div>
          </div>
        ) : null}
        <div className="form-grid">
          <FormField {...field('FirstName')} label={t('firstNameField')} autoComplete="off" required />
          <FormField {...field('LastName')} label={t('lastNameField')} autoComplete="off" required />
          <FormField {...emailField} type="email" label={t('emailField')} autoComplete="off" required />
          <FormField
            {...authEmailField}
            type="email"
            label={t('authEmailField')}
            hint={linked ? t('authEmailFollows') : t('authEmailHint')}
            autoComplete="off"
            required
          />
          <FormField {...field('Organization')} label={t('organizationField')} autoComplete="off" />
          <FormField
            {...field('PhoneNumber')}
            type="tel"
            inputMode="numeric"
            label={t('phoneField')}
            autoComplete="off"
          />
          <FormField
            {...field('ContactEmail')}
            type="email"
            label={t('contactEmailField')}
            autoComplete="off"
          />
          <SelectField
            {...field('TimeZone')}
            label={t('timeZoneField')}
            placeholder={t('chooseTimeZone')}
            options={timeZoneOptions(profile.TimeZone)}
          />
        </div>
        <div className="form-actions dialog-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={!form.valid || update.isPending}
            aria-busy={update.isPending}
          >
            {update.isPending ? t('saving') : t('save')}
          </button>
          <button type="button" className="button" disabled={update.isPending} onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
