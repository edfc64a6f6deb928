import { type KeyboardEvent, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toQueryString } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { type SiteRef, useAppSettings } from '../api/site-settings-api.ts';
import { ApplicationSecuritySection } from './application-security-section.tsx';
import { CustomDomainsSection } from './custom-domains-section.tsx';
import { CustomObjectsSection } from './custom-objects-section.tsx';
import { DataSourcesSection } from './data-sources-section.tsx';
import { EncryptionSettingsSection } from './encryption-settings-section.tsx';
import { IntegrationsSection } from './integrations-section.tsx';
import { PlanInfoSection } from './plan-info-section.tsx';
import { RegistrationFieldsSection } from './registration-fields-section.tsx';
import type { SectionProps } from './section-props.ts';
import { WebAppsSection } from './web-apps-section.tsx';

/** The sections, in the order of the tabs; `?section=` names the open one. */
export const SECTIONS = [
  'plan',
  'web-apps',
  'security',
  'custom-objects',
  'custom-domains',
  'encryption',
  'fields',
  'data-sources',
  'integrations',
] as const;
export type SectionId = (typeof SECTIONS)[number];
const TITLES = {
  plan: 'planInfo',
  'web-apps': 'webApps',
  security: 'applicationSecurity',
  'custom-objects': 'customObject',
  'custom-domains': 'customDomain',
  encryption: 'encryption',
  fields: 'registrationFields',
  'data-sources': 'dataSources',
  integrations: 'integrations',
} as const;

const isSection = (v: string | null): v is SectionId => SECTIONS.includes(v as SectionId);

/**
 * /manage-customer/site-configuration?uid=&appId=: one site's configuration, as tabs: Plan info,
 * Web apps, Application Level Security, Custom Object, Custom Domain, Encryption and Hashing
 * Settings, Registration Fields, Data Source, Integrations (site-settings.read to view,
 * site-settings.write to change). Each section loads, fails and saves on its own.
 */
export default function SiteConfigurationPage() {
  const t = useT('siteSettings');
  const [params, setParams] = useSearchParams();
  const { permissions } = useCurrentUser();
  const uid = params.get('uid')?.trim() ?? '';
  const appId = Number(params.get('appId'));
  const valid = uid !== '' && Number.isInteger(appId) && appId > 0;
  const raw = params.get('section');
  const current: SectionId = isSection(raw) ? raw : 'plan';
  const canWrite = permissions.has('site-settings.write');
  const tabs = useRef(new Map<SectionId, HTMLButtonElement>());

  const open = (id: SectionId, focus = false) => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('section', id);
        return next;
      },
      { replace: true },
    );
    if (focus) tabs.current.get(id)?.focus();
  };
  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = SECTIONS.indexOf(current);
    let next: SectionId | undefined;
    if (e.key === 'ArrowRight') next = SECTIONS[(i + 1) % SECTIONS.length];
    else if (e.key === 'ArrowLeft') next = SECTIONS[(i - 1 + SECTIONS.length) % SECTIONS.length];
    else if (e.key === 'Home') next = SECTIONS[0];
    else if (e.key === 'End') next = SECTIONS[SECTIONS.length - 1];
    if (!next) return;
    e.preventDefault();
    open(next, true);
  };

  const site: SiteRef = { uid, appId };
  return (
    <div className="page-stack">
      <section className="card" aria-labelledby="screen-title">
        <div className="page-header">
          <div>
            <h1 id="screen-title">{t('siteConfiguration')}</h1>
            {valid ? <SiteName site={site} /> : null}
            <p className="muted">{t('intro')}</p>
          </div>
          {uid ? (
            <div className="page-header-actions">
              <Link to={`/manage-customer/view-customer${toQueryString({ uid })}`}>
                {t('backToCustomer')}
              </Link>
            </div>
          ) : null}
        </div>
        {valid ? null : (
          <p className="form-alert" role="alert">
            {t('noSiteSelected')}
          </p>
        )}
        {valid && !canWrite ? <p className="notice notice-info config-read-only">{t('readOnly')}</p> : null}
      </section>
      {valid ? (
        <section className="card config-card">
          <div className="config-tabs" role="tablist" aria-label={t('sectionsNav')}>
            {SECTIONS.map((id) => (
              <button
                key={id}
                ref={(el) => {
                  if (el) tabs.current.set(id, el);
                }}
                id={`config-tab-${id}`}
                type="button"
                role="tab"
                className="config-tab"
                aria-selected={id === current}
                aria-controls={`config-panel-${id}`}
                tabIndex={id === current ? 0 : -1}
                onClick={() => open(id)}
                onKeyDown={onTabKey}
              >
                {t(TITLES[id])}
              </button>
            ))}
          </div>
          <div
            id={`config-panel-${current}`}
            className="config-panel"
            role="tabpanel"
            aria-labelledby={`config-tab-${current}`}
          >
            <Section id={current} site={site} canWrite={canWrite} />
          </div>
        </section>
      ) : null}
    </div>
  );
}

function Section({ id, site, canWrite }: { id: SectionId; site: SiteRef; canWrite: boolean }) {
  const props: SectionProps = { site, canWrite, headingId: `config-heading-${id}` };
  switch (id) {
    case 'plan':
      return <PlanInfoSection {...props} />;
    case 'web-apps':
      return <WebAppsSection {...props} />;
    case 'security':
      return <ApplicationSecuritySection {...props} />;
    case 'custom-objects':
      return <CustomObjectsSection {...props} />;
    case 'custom-domains':
      return <CustomDomainsSection {...props} />;
    case 'encryption':
      return <EncryptionSettingsSection {...props} />;
    case 'fields':
      return <RegistrationFieldsSection {...props} />;
    case 'data-sources':
      return <DataSourcesSection {...props} />;
    case 'integrations':
      return <IntegrationsSection {...props} />;
  }
}

/** The site's name under the heading, once the app settings have loaded. */
function SiteName({ site }: { site: SiteRef }) {
  const settings = useAppSettings(site);
  const t = useT('siteSettings');
  return (
    <p className="lead">
      {settings.data ? settings.data.AppName : t('siteLabel', { appId: site.appId, uid: site.uid })}
    </p>
  );
}
