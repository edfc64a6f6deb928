import { ERRORS } from '@sac/contract/errors';
import { appSettingsBody, SETTINGS_SAVED } from '@sac/contract/site-settings';
import { type FormEvent, useState } from 'react';
import { FormField } from '../../../components/form-field.tsx';
import { QueryStatus } from '../../../components/query-status.tsx';
import { useApiAuth } from '../../../lib/api-auth.tsx';
import { ApiError, callApiVersioned } from '../../../lib/api-client.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import {
  type AppSettings,
  type SiteRef,
  useAppSettings,
  useAppSettingsVersion,
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
  const readVersion = useAppSettingsVersion(site);
  const auth = useApiAuth();
  // The version the form was filled at; a save names it (If-Match).
  const [version, setVersion] = useState(readVersion);
  const [theirs, setTheirs] = useState<{ data: AppSettings; version: string | undefined } | undefined>();
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
          if (error instanceof ApiError && error.code === ERRORS.conflict.code) {
            // Read what is stored now without replacing this form (what was typed stays).
            const now = await callApiVersioned('appSettings', {
              query: { uid: site.uid, appId: site.appId },
              auth: auth.pair,
            });
            setTheirs({ data: now.body.Data, version: now.etag });
            return;
          }
          form.serverFailed(error);
        },
      },
    );
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send(version);
  };
  const loadTheirs = () => {
    if (!theirs) return;
    form.reset({ ProductionUrl: theirs.data.ProductionUrl, StagingUrl: theirs.data.StagingUrl });
    setVersion(theirs.version);
    setTheirs(undefined);
  };
  const saveOverTheirs = () => {
    if (!theirs) return;
    setVersion(theirs.version);
    setTheirs(undefined);
    send(theirs.version);
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('webApps')}>
      {theirs ? (
        <div className="notice notice-warning" role="alert">
          <p>{t('changedMeanwhile')}</p>
          <ul className="changed-meanwhile">
            <li>
              {t('productionUrl')}: {theirs.data.ProductionUrl || t('emptyValue')}
            </li>
            <li>
              {t('stagingUrl')}: {theirs.data.StagingUrl || t('emptyValue')}
            </li>
          </ul>
          <div className="form-actions">
            <button type="button" className="button" onClick={loadTheirs}>
              {t('loadTheirValues')}
            </button>
            <button type="button" className="button button-primary" onClick={saveOverTheirs}>
              {t('saveMineOverTheirs')}
            </button>
          </div>
        </div>
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
