import { appSettingsBody, SETTINGS_SAVED } from '@sac/contract/site-settings';
import type { FormEvent } from 'react';
import { FormField } from '../../../components/form-field.tsx';
import { QueryStatus } from '../../../components/query-status.tsx';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import {
  type AppSettings,
  type SiteRef,
  useAppSettings,
  useSaveAppSettings,
} from '../api/site-settings-api.ts';
import type { SectionProps } from './section-props.ts';

const schema = appSettingsBody.shape.data;

/** Web apps: the production and staging URLs (both optional, URL-like); Save toasts 'Settings saved.'. */
export function WebAppsSection({ site, canWrite, headingId }: SectionProps) {
  const t = useT('siteSettings');
  const settings = useAppSettings(site);
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('webApps')}</h2>
      <p className="muted">{t('webAppsIntro')}</p>
      <QueryStatus query={settings} />
      {settings.data ? (
        <WebAppsForm key={settings.dataUpdatedAt} site={site} current={settings.data} canWrite={canWrite} />
      ) : null}
    </section>
  );
}

function WebAppsForm({
  site,
  current,
  canWrite,
}: {
  site: SiteRef;
  current: AppSettings;
  canWrite: boolean;
}) {
  const t = useT('siteSettings');
  const save = useSaveAppSettings(site);
  const form = useContractForm(schema, {
    initial: { ProductionUrl: current.ProductionUrl, StagingUrl: current.StagingUrl },
    idPrefix: 'web-apps',
  });
  const field = (f: 'ProductionUrl' | 'StagingUrl') => ({
    ...form.field(f),
    hint: t('urlHint'),
    readOnly: !canWrite,
    autoComplete: 'off',
    inputMode: 'url' as const,
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || save.isPending) return;
    save.mutate(data, {
      onSuccess: (answer) => {
        form.reset(form.values);
        toast.success(answer.Message || SETTINGS_SAVED);
      },
      onError: (error) => form.serverFailed(error),
    });
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('webApps')}>
      <div className="form-grid">
        <FormField {...field('ProductionUrl')} label={t('productionUrl')} />
        <FormField {...field('StagingUrl')} label={t('stagingUrl')} />
      </div>
      {canWrite ? (
        <div className="form-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={!form.valid || save.isPending}
            aria-busy={save.isPending}
          >
            {save.isPending ? t('saving') : t('save')}
          </button>
        </div>
      ) : null}
    </form>
  );
}
