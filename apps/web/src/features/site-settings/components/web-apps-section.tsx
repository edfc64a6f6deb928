import { appSettingsBody, SETTINGS_SAVED } from '@sac/contract/site-settings';
import type { FormEvent } from 'react';
import { ChangedMeanwhile, changedFields } from '../../../components/changed-meanwhile.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { QueryStatus } from '../../../components/query-status.tsx';
import { useApiAuth } from '../../../lib/api-auth.tsx';
import { callApiVersioned } from '../../../lib/api-client.ts';
import { useEditConflict } from '../../../lib/edit-conflict.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import {
  type AppSettings,
  useAppSettings,
  useAppSettingsVersion,
  useSaveAppSettings,
} from '../api/plan-info-api.ts';
import type { SiteRef } from '../api/site-query.ts';
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
  const readVersion = useAppSettingsVersion(site);
  const auth = useApiAuth();
  const conflict = useEditConflict<AppSettings>({ data: current, version: readVersion() }, async () => {
    // What is stored now, read without replacing this form (what was typed stays).
    const now = await callApiVersioned('appSettings', {
      query: { uid: site.uid, appId: site.appId },
      auth: auth.pair,
    });
    return { data: now.body.Data, version: now.etag };
  });
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
  const send = (ifMatch: string | undefined) => {
    const data = form.submit();
    if (!data || save.isPending) return;
    save.mutate(
      { data, ifMatch },
      {
        onSuccess: (answer) => {
          form.reset(form.values);
          toast.success(answer.Message || SETTINGS_SAVED);
        },
        onError: async (error) => {
          if (await conflict.refused(error)) return;
          form.serverFailed(error);
        },
      },
    );
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send(conflict.version);
  };
  const loadTheirs = () => {
    const theirs = conflict.loadTheirs();
    if (theirs) form.reset({ ProductionUrl: theirs.ProductionUrl, StagingUrl: theirs.StagingUrl });
  };
  const labels = { ProductionUrl: t('productionUrl'), StagingUrl: t('stagingUrl') };
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('webApps')}>
      {conflict.theirs ? (
        <ChangedMeanwhile
          changes={changedFields(conflict.filledFrom, conflict.theirs.data, labels)}
          onLoadTheirs={loadTheirs}
          onOverwrite={() => send(conflict.overwrite())}
          busy={save.isPending}
        />
      ) : null}
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
