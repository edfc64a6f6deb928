import { updateCustomerProfileBody } from '@sac/contract/customer-writes';
import type { CustomerProfile } from '@sac/contract/customers';
import { ERRORS } from '@sac/contract/errors';
import { type FormEvent, useState } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useUpdateCustomerProfile } from '../api/customer-writes-api.ts';
import { timeZoneOptions } from './time-zones.ts';

const schema = updateCustomerProfileBody.shape.data;

/**
 * Edit a customer's profile (PUT /admin/customerprofile; every field is sent). Phone and email
 * rules of spec section 5; a failure toasts the server's text (e.g. the 940 one) else 'Error
 * updating customer profile.'; the answer replaces the cached profile.
 */
export function EditProfileDialog({ profile, onClose }: { profile: CustomerProfile; onClose: () => void }) {
  const t = useT('customers');
  const update = useUpdateCustomerProfile(profile.Uid);
  const form = useContractForm(schema, {
    initial: {
      FirstName: profile.FirstName,
      LastName: profile.LastName,
      Email: profile.Email,
      AuthEmail: profile.AuthEmail || profile.Email,
      Organization: profile.Organization,
      PhoneNumber: profile.PhoneNumber,
      ContactEmail: profile.ContactEmail,
      TimeZone: profile.TimeZone,
    },
    idPrefix: 'profile',
  });
  const field = form.field;
  // A sign-in email that is the email follows it, until staff change it on its own.
  const [linked, setLinked] = useState(
    !profile.AuthEmail || profile.AuthEmail.toLowerCase() === profile.Email.toLowerCase(),
  );
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

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || update.isPending) return;
    // The sign-in email is sent only when it changes: an unchanged one is not rewritten.
    const { AuthEmail, ...rest } = data;
    const authChanged =
      AuthEmail !== undefined && AuthEmail.toLowerCase() !== profile.AuthEmail.toLowerCase();
    update.mutate(
      { data: authChanged ? { ...rest, AuthEmail } : rest },
      {
        onSuccess: () => {
          toast.success(t('profileUpdated'));
          onClose();
        },
        onError: (error) =>
          form.serverFailed(error, {
            [ERRORS.customerEmailTaken.code]: 'Email',
            [ERRORS.customerAuthEmailTaken.code]: 'AuthEmail',
          }),
      },
    );
  };

  return (
    <Dialog title={t('editProfileTitle')} onClose={onClose} busy={update.isPending} wide>
      <form onSubmit={onSubmit} noValidate>
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
