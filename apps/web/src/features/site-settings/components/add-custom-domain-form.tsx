import { domainBody } from '@sac/contract/site-settings';
import type { FormEvent } from 'react';
import { FormField } from '../../../components/form-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useAddCustomDomain } from '../api/custom-domains-api.ts';
import type { SiteRef } from '../api/site-query.ts';
import sectionStyles from './settings-section.module.css';

/**
 * 'Add custom domain'. An empty name: 'Domain name is required.' under the field and, on submit,
 * 'Custom Domain cannot be an empty value'; a malformed one: the contract's message. The new domain
 * joins the table (pending) with its DNS records; the server's Message is toasted.
 */
export function AddCustomDomainForm({ site }: { site: SiteRef }) {
  const t = useT('siteSettings');
  const add = useAddCustomDomain(site);
  const form = useContractForm(domainBody, { initial: { domain: '' } });
  const empty = form.values.domain.trim() === '';
  const shown = form.shown('domain');
  const fieldError = shown && empty ? t('domainNameRequired') : shown;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || add.isPending) return;
    add.mutate(data.domain, {
      onSuccess: (answer) => {
        toast.success(answer.Message);
        form.reset({ domain: '' });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409 && error.serverText)
          form.setServerErrors({ domain: error.serverText });
      },
    });
  };
  return (
    <form
      className={sectionStyles.subsection}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="add-custom-domain-title"
    >
      <h3 id="add-custom-domain-title" className="subsection-heading">
        {t('addCustomDomain')}
      </h3>
      <div className="inline-form">
        <FormField
          id="custom-domain-name"
          name="domain"
          label={t('domainName')}
          value={form.values.domain}
          error={fieldError}
          hint={t('domainNameHint')}
          autoComplete="off"
          required
          onValueChange={(v) => form.set('domain', v)}
          onBlur={() => form.touch('domain')}
        />
        <button type="submit" className="button button-primary" aria-busy={add.isPending}>
          {add.isPending ? t('saving') : t('addCustomDomain')}
        </button>
      </div>
      {form.submitted && empty ? (
        <p className="form-alert" role="alert">
          {t('customDomainEmpty')}
        </p>
      ) : null}
    </form>
  );
}
