import { updateCustomerProfileBody } from '@sac/contract/customer-writes';
import type { CustomerProfile } from '@sac/contract/customers';
import { ERRORS } from '@sac/contract/errors';

import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { z } from 'zod';
import { ChangedMeanwhile, changedFields } from '../../../components/changed-meanwhile.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { useEditConflict } from '../../../lib/edit-conflict.ts';
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

/** The profile's edit conflict: the version it was read at, and reading theirs on a stale save. */
function useProfileConflict(profile: CustomerProfile) {
  const queryClient = useQueryClient();
  return useEditConflict<CustomerProfile>(
    {
      data: profile,
      version: queryClient.getQueryData<string | null>(customerKeys.profileVersion(profile.Uid)) ?? undefined,
    },
    async () => {
      await queryClient.refetchQueries({ queryKey: customerKeys.profile(profile.Uid), exact: true });
      return {
        data: queryClient.getQueryData<CustomerProfile>(customerKeys.profile(profile.Uid)) ?? profile,
        version:
          queryClient.getQueryData<string | null>(customerKeys.profileVersion(profile.Uid)) ?? undefined,
      };
    },
  );
}

/** A sign-in email that is the email follows it, until staff change it on its own. */
function useLinkedAuthEmail(
  profile: CustomerProfile,
  form: ReturnType<typeof useContractForm<ProfileValues, z.output<typeof schema>>>,
) {
  const [linked, setLinked] = useState(() => followsEmail(profile));
  const emailField = {
    ...form.field('Email'),
    onValueChange: (v: string) => form.patch(linked ? { Email: v, AuthEmail: v } : { Email: v }),
  };
  const authEmailField = {
    ...form.field('AuthEmail'),
    onValueChange: (v: string) => {
      setLinked(false);
      form.set('AuthEmail', v);
    },
  };

  return { linked, setLinked, emailField, authEmailField };
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
  const conflict = useProfileConflict(profile);
  const form = useContractForm(schema, { initial: valuesOf(profile), idPrefix: 'profile' });
  const email = useLinkedAuthEmail(profile, form);

  const save = (version: string | undefined) => {
    const data = form.submit();
    if (!data || update.isPending) return;
    // The sign-in email is sent only when it changes: an unchanged one is not rewritten.
    const { AuthEmail, ...rest } = data;
    const authChanged =
      AuthEmail !== undefined && AuthEmail.toLowerCase() !== conflict.filledFrom.AuthEmail.toLowerCase();
    update.mutate(
      { body: { data: authChanged ? { ...rest, AuthEmail } : rest }, ifMatch: version },
      {
        onSuccess: () => {
          toast.success(t('profileUpdated'));
          onClose();
        },
        onError: async (error) => {
          // A stale save keeps what was typed and says what moved.
          if (await conflict.refused(error)) return;
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
    save(conflict.version);
  };
  /** Their values replace the form's (what was typed is dropped); the next save is from them. */
  const loadTheirs = () => {
    const theirs = conflict.loadTheirs();
    if (!theirs) return;
    form.reset(valuesOf(theirs));
    email.setLinked(followsEmail(theirs));
  };
  /** The form's values are saved over theirs, knowingly: from the version just read. */
  const overwrite = () => save(conflict.overwrite());
  const labels = Object.fromEntries(
    Object.entries(FIELD_LABELS).map(([f, phrase]) => [f, t(phrase)]),
  ) as Record<keyof ProfileValues, string>;

  return (
    <Dialog title={t('editProfileTitle')} onClose={onClose} busy={update.isPending} wide>
      <form onSubmit={onSubmit} noValidate>
        {conflict.theirs ? (
          <ChangedMeanwhile
            changes={changedFields(valuesOf(conflict.filledFrom), valuesOf(conflict.theirs.data), labels)}
            onLoadTheirs={loadTheirs}
            onOverwrite={overwrite}
            busy={update.isPending}
          />
        ) : null}
        <ProfileFields form={form} email={email} savedTimeZone={profile.TimeZone} />
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

/** The profile's fields, in the order of the customer view. */
function ProfileFields({
  form,
  email,
  savedTimeZone,
}: {
  form: ReturnType<typeof useContractForm<ProfileValues, z.output<typeof schema>>>;
  email: ReturnType<typeof useLinkedAuthEmail>;
  savedTimeZone: string;
}) {
  const t = useT('customers');
  const field = form.field;
  return (
    <div className="form-grid">
      <FormField {...field('FirstName')} label={t('firstNameField')} autoComplete="off" required />
      <FormField {...field('LastName')} label={t('lastNameField')} autoComplete="off" required />
      <FormField {...email.emailField} type="email" label={t('emailField')} autoComplete="off" required />
      <FormField
        {...email.authEmailField}
        type="email"
        label={t('authEmailField')}
        hint={email.linked ? t('authEmailFollows') : t('authEmailHint')}
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
      <FormField {...field('ContactEmail')} type="email" label={t('contactEmailField')} autoComplete="off" />
      <SelectField
        {...field('TimeZone')}
        label={t('timeZoneField')}
        placeholder={t('chooseTimeZone')}
        options={timeZoneOptions(savedTimeZone)}
      />
    </div>
  );
}
