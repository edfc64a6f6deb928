import { createCustomObjectBody } from '@sac/contract/site-settings';
import type { FormEvent } from 'react';
import { FormField } from '../../../components/form-field.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { serverFieldErrors, useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useCreateCustomObject } from '../api/custom-objects-api.ts';
import type { SiteRef } from '../api/site-query.ts';
import registrationFieldsSectionStyles from './registration-fields-section.module.css';
import { SampleValidator } from './sample-validator.tsx';
import sectionStyles from './settings-section.module.css';

const FIELDS = ['Id', 'Name', 'SizeMB', 'Schema'] as const;
type Field = (typeof FIELDS)[number];
const EMPTY: Record<Field, string> = { Id: '', Name: '', SizeMB: '', Schema: '' };

/**
 * 'Add custom object': Id, Name, Size (in MB) and Schema (JSON), checked by the contract's schema
 * with the spec's messages on submit (then live). The server's Message is toasted and the new row
 * joins the table.
 */
export function AddCustomObjectForm({ site }: { site: SiteRef }) {
  const t = useT('siteSettings');
  const create = useCreateCustomObject(site);
  const form = useContractForm(createCustomObjectBody, { initial: EMPTY, showErrors: 'submit' });
  const field = (f: Field) => ({
    id: `custom-object-${f}`,
    name: f,
    value: form.values[f],
    error: form.shown(f),
    autoComplete: 'off',
    onValueChange: (v: string) => form.set(f, v),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || create.isPending) return;
    create.mutate(data, {
      onSuccess: (answer) => {
        toast.success(answer.Message);
        form.reset(EMPTY);
      },
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        const fields = serverFieldErrors(error.envelope?.FieldErrors, FIELDS);
        if (error.status === 409 && error.serverText) fields.Id = error.serverText;
        if (Object.keys(fields).length > 0) form.setServerErrors(fields);
      },
    });
  };
  return (
    <form
      className={sectionStyles.subsection}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="add-custom-object-title"
    >
      <h3 id="add-custom-object-title" className="subsection-heading">
        {t('addCustomObject')}
      </h3>
      <div className="form-grid">
        <FormField {...field('Id')} label={t('objectId')} hint={t('objectIdHint')} required />
        <FormField {...field('Name')} label={t('objectName')} required />
        <FormField
          {...field('SizeMB')}
          label={t('objectSize')}
          hint={t('objectSizeHint')}
          inputMode="numeric"
          required
        />
      </div>
      <TextAreaField
        {...field('Schema')}
        label={t('objectSchema')}
        hint={t('objectSchemaHint')}
        rows={8}
        className={registrationFieldsSectionStyles.codeInput}
        spellCheck={false}
        required
      />
      <SampleValidator site={site} schema={form.values.Schema} idPrefix="custom-object" />
      <div className="form-actions">
        <button type="submit" className="button button-primary" aria-busy={create.isPending}>
          {create.isPending ? t('saving') : t('addCustomObject')}
        </button>
      </div>
    </form>
  );
}
