import { consolePaths } from '@sac/contract/console-paths';
import { addSiteBody, createCustomerBody } from '@sac/contract/customer-writes';
import type { Site } from '@sac/contract/customers';
import { ERRORS } from '@sac/contract/errors';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { ApiError, errorText } from '../../../lib/api-client.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useAddSite, useCreateCustomer } from '../api/customer-writes-api.ts';
import { TIME_ZONE_OPTIONS } from './time-zones.ts';
import { WizardStepForm } from './wizard-step-form.tsx';

export type CustomerValues = Record<
  'firstname' | 'lastname' | 'email' | 'organization' | 'phone' | 'timezone' | 'appname',
  string
>;
export const EMPTY_CUSTOMER: CustomerValues = {
  firstname: '',
  lastname: '',
  email: '',
  organization: '',
  phone: '',
  timezone: '',
  appname: '',
};

/** What step 1 hands on: the new site, its owner and its API secret (shown once). */
export interface CreatedSite {
  uid: string;
  site: Site;
  secret: string;
}

interface StepProps<V> {
  title: string;
  position: string;
  values: V;
  onChange: (values: V) => void;
  onCreated: (created: CreatedSite) => void;
}

/** The text of a failed step: which step, the server's text (else the fallback). */
export function useStepFailure() {
  const t = useT('customers');
  return (step: string, message: string) => t('stepFailed', { step, message });
}

/**
 * Step 1 of create-customer: the customer and their first site (POST /admin/customer). A customer
 * with that email already exists (940): the spec's text, with a link to the search.
 */
export function CreateCustomerStep({
  title,
  position,
  values,
  onChange,
  onCreated,
}: StepProps<CustomerValues>) {
  const t = useT('customers');
  const create = useCreateCustomer();
  const form = useContractForm(createCustomerBody, { values, onChange, idPrefix: 'wiz', leaveGuard: false });
  const field = form.field;
  const failed = useStepFailure();
  const [failure, setFailure] = useState<{ text: string; exists: boolean } | undefined>();

  const onSubmit = () => {
    const data = form.submit();
    if (!data) return;
    setFailure(undefined);
    create.mutate(
      { ...data, timezone: values.timezone || undefined },
      {
        onSuccess: (d) => {
          toast.success(t('customerCreated'));
          onCreated({ uid: d.Customer.Uid, site: d.Site, secret: d.ApiSecret });
        },
        onError: (error) => {
          const exists = error instanceof ApiError && error.code === ERRORS.customerExists.code;
          const text = exists ? t('customerExists') : errorText(error);
          form.serverFailed(error, { [ERRORS.siteNameTaken.code]: 'appname' });
          toast.error(text);
          setFailure({ text: failed(title, text), exists });
        },
      },
    );
  };

  return (
    <WizardStepForm
      title={title}
      position={position}
      failure={failure?.text}
      canSubmit={form.valid}
      busy={create.isPending}
      submitLabel={t('next')}
      onSubmit={onSubmit}
    >
      {failure?.exists ? (
        <p>
          <Link to={consolePaths.customerSearch()}>{t('goToSearch')}</Link>
        </p>
      ) : null}
      <div className="form-grid">
        <FormField {...field('firstname')} label={t('firstNameField')} autoComplete="off" required />
        <FormField {...field('lastname')} label={t('lastNameField')} autoComplete="off" required />
        <FormField {...field('email')} type="email" label={t('emailField')} autoComplete="off" required />
        <FormField {...field('organization')} label={t('organizationField')} autoComplete="off" />
        <FormField
          {...field('phone')}
          type="tel"
          inputMode="numeric"
          label={t('phoneField')}
          autoComplete="off"
        />
        <SelectField
          {...field('timezone')}
          label={t('timeZoneField')}
          placeholder={t('chooseTimeZone')}
          hint={t('timeZoneHint')}
          options={TIME_ZONE_OPTIONS}
        />
      </div>
      <FormField
        {...field('appname')}
        label={t('siteNameField')}
        hint={t('siteNameHint')}
        autoComplete="off"
        spellCheck={false}
        required
      />
    </WizardStepForm>
  );
}

/** Step 1 of add-site: the site name only; the customer is known by uid (POST /admin/site). */
export function AddSiteStep({
  uid,
  customerName,
  title,
  position,
  values,
  onChange,
  onCreated,
}: StepProps<{ appname: string }> & { uid: string; customerName?: string }) {
  const t = useT('customers');
  const add = useAddSite();
  const form = useContractForm(addSiteBody, { values, onChange, idPrefix: 'wiz', leaveGuard: false });
  const failed = useStepFailure();
  const [failure, setFailure] = useState<string | undefined>();

  const onSubmit = () => {
    const data = form.submit();
    if (!data) return;
    setFailure(undefined);
    add.mutate(
      { uid, body: data },
      {
        onSuccess: (d) => {
          toast.success(t('siteAdded'));
          onCreated({ uid, site: d.Site, secret: d.ApiSecret });
        },
        onError: (error) => {
          const text = errorText(error);
          form.serverFailed(error, { [ERRORS.siteNameTaken.code]: 'appname' });
          toast.error(text);
          setFailure(failed(title, text));
        },
      },
    );
  };

  return (
    <WizardStepForm
      title={title}
      position={position}
      failure={failure}
      canSubmit={form.valid}
      busy={add.isPending}
      submitLabel={t('next')}
      onSubmit={onSubmit}
    >
      {customerName ? <p>{t('addingSiteFor', { name: customerName })}</p> : null}
      <FormField
        {...form.field('appname')}
        label={t('siteNameField')}
        hint={t('siteNameHint')}
        autoComplete="off"
        spellCheck={false}
        required
      />
    </WizardStepForm>
  );
}
