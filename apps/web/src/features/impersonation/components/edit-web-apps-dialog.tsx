import { siteBasicSettingsBody, trialDaysLeft } from '@sac/contract/customer-writes';
import { type FormEvent, useState } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { serverFieldErrors, useLiveValidation } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import type { ImpersonationSession } from '../../../lib/impersonation-mode.ts';
import { toast } from '../../../lib/toast-store.ts';
import { type BasicSettings, useImpersonatedSaveBasicSettings } from '../api/impersonated-site-api.ts';

const schema = siteBasicSettingsBody.shape.data;
const FIELDS = ['ProductionUrl', 'StagingUrl'] as const;
type Field = (typeof FIELDS)[number];
/**
 * 'Edit web apps' through the impersonation (ManageSettings): the production and staging URLs.
 * PUT site/basicsettings needs the plan too: the current plan and a running trial's days left go
 * along unchanged, which the server takes as no plan or trial change (that would need ManageBilling)
 * and keeps the stored trial end.
 */
export function EditWebAppsDialog({
  session,
  current,
  onClose,
}: {
  session: ImpersonationSession;
  current: BasicSettings;
  onClose: () => void;
}) {
  const t = useT('impersonation');
  const save = useImpersonatedSaveBasicSettings(session);
  const [values, setValues] = useState({
    ProductionUrl: current.ProductionUrl,
    StagingUrl: current.StagingUrl,
    Plan: current.Plan,
    TrialDays: trialDaysLeft(current, Date.now()),
  });
  const form = useLiveValidation<Field, (typeof schema)['_zod']['output']>(schema, values);
  const set = (f: Field, v: string) => {
    form.changed(f);
    setValues((prev) => ({ ...prev, [f]: v }));
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.data || save.isPending) {
      for (const f of FIELDS) form.touch(f);
      return;
    }
    save.mutate(
      { data: form.data },
      {
        onSuccess: () => {
          toast.success(t('webAppsSaved'));
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError)
            form.setServerErrors(serverFieldErrors(error.envelope?.FieldErrors, FIELDS));
        },
      },
    );
  };

  return (
    <Dialog title={t('editWebAppsTitle', { app: current.AppName })} onClose={onClose} busy={save.isPending}>
      <p className="muted">{t('editWebAppsIntro')}</p>
      <form onSubmit={onSubmit} noValidate>
        <FormField
          id="impersonated-production-url"
          name="ProductionUrl"
          type="url"
          label={t('productionUrl')}
          value={values.ProductionUrl}
          error={form.shown('ProductionUrl')}
          onValueChange={(v) => set('ProductionUrl', v)}
          onBlur={() => form.touch('ProductionUrl')}
        />
        <FormField
          id="impersonated-staging-url"
          name="StagingUrl"
          type="url"
          label={t('stagingUrl')}
          value={values.StagingUrl}
          error={form.shown('StagingUrl')}
          onValueChange={(v) => set('StagingUrl', v)}
          onBlur={() => form.touch('StagingUrl')}
        />
        <div className="form-actions dialog-actions">
          <button type="submit" className="button button-primary" aria-busy={save.isPending}>
            {save.isPending ? t('saving') : t('save')}
          </button>
          <button type="button" className="button" disabled={save.isPending} onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
