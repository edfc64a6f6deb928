import { consolePaths } from '@sac/contract/console-paths';
import type { EndpointId } from '@sac/contract/endpoint-routes';
import { type KeyboardEvent, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { NotOwnedSite, useSiteOwnership } from '../../../components/site-ownership.tsx';
import { useApiAuth } from '../../../lib/api-auth.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { useAppSettings } from '../api/plan-info-api.ts';
import type { SiteRef } from '../api/site-query.ts';
import { AccessNote } from './access-note.tsx';
import { ApplicationSecuritySection } from './application-security-section.tsx';
import { CustomDomainsSection } from './custom-domains-section.tsx';
import { CustomObjectsSection } from './custom-objects-section.tsx';
import { DataSourcesSection } from './data-sources-section.tsx';
import { EncryptionSettingsSection } from './encryption-settings-section.tsx';
import { IntegrationsSection } from './integrations-section.tsx';
import { OverviewSection } from './overview-section.tsx';
import { PlanInfoSection } from './plan-info-section.tsx';
import { RegistrationFieldsSection } from './registration-fields-section.tsx';
import type { SectionProps } from './section-props.ts';
import styles from './site-configuration-page.module.css';
import { WebAppsSection } from './web-apps-section.tsx';

/**
 * The sections, in the order of the tabs; `?section=` names the open one. Each names the call that
 * reads it and the call that changes it: the caller sees a section when the server would answer
 * its read, and may change it when the server would take its write (the same rule, from the
 * contract's endpoint table, for staff permissions and for an impersonation grant).
 */
const SECTION_TABLE = {
  overview: { title: 'overview', read: 'appInfoById', write: undefined },
  plan: { title: 'planInfo', read: 'appSettings', write: undefined },
  'web-apps': { title: 'webApps', read: 'appSettings', write: 'updateAppSettings' },
  security: { title: 'applicationSecurity', read: 'applicationSecurity', write: 'updateApplicationSecurity' },
  'custom-objects': { title: 'customObject', read: 'customObjectList', write: 'customObjectCreate' },
  'custom-domains': { title: 'customDomain', read: 'customDomainList', write: 'customDomainCreate' },
  encryption: { title: 'encryption', read: 'passwordSettings', write: 'saveEncryptionSettings' },
  fields: { title: 'registrationFields', read: 'activeCustomFields', write: 'saveDefaultFields' },
  'data-sources': { title: 'dataSources', read: 'customRegistrationDataList', write: 'addDataSource' },
  integrations: { title: 'integrations', read: 'integrations', write: undefined },
} as const satisfies Record<string, { title: string; read: EndpointId; write: EndpointId | undefined }>;
export type SectionId = keyof typeof SECTION_TABLE;
const SECTIONS = Object.keys(SECTION_TABLE) as SectionId[];

const isSection = (v: string | null): v is SectionId => SECTIONS.includes(v as SectionId);

/**
 * One site's configuration, as tabs: Overview, Plan info, Web apps, Application Level Security,
 * Custom Object, Custom Domain, Encryption and Hashing Settings, Registration Fields, Data Source,
 * Integrations. Each section loads, fails and saves on its own. Staff open it at
 * /manage-customer/site-configuration?uid=&appId= (site-settings.read to view, site-settings.write
 * to change); inside an impersonation (/impersonation/site?uid=&appId=) it calls with the
 * session's pair, and each section is shown, read-only or refused as the grant allows, saying why.
 */
export default function SiteConfigurationPage() {
  const t = useT('siteSettings');
  const [params] = useSearchParams();
  const auth = useApiAuth();
  const uid = params.get('uid')?.trim() ?? '';
  const appId = Number(params.get('appId'));
  const named = uid !== '' && Number.isInteger(appId) && appId > 0;
  const ownership = useSiteOwnership(uid, named ? appId : undefined);
  const valid = named && ownership.kind !== 'shared' && ownership.kind !== 'not-theirs';
  const raw = params.get('section');
  const current: SectionId = isSection(raw) ? raw : 'overview';
  const impersonating = auth.pair !== undefined;
  const staffReadOnly = !impersonating && !auth.allows('updateAppSettings');

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
          {uid && !impersonating ? (
            <div className="page-header-actions">
              <Link to={consolePaths.customerView({ uid })}>{t('backToCustomer')}</Link>
            </div>
          ) : null}
        </div>
        {named ? null : (
          <p className="form-alert" role="alert">
            {t('noSiteSelected')}
          </p>
        )}
        <NotOwnedSite
          uid={uid}
          ownership={ownership}
          ownerLink={(owner) => consolePaths.siteConfiguration({ uid: owner, appId })}
        />
        {valid && staffReadOnly ? (
          <p className={`notice notice-info ${styles.configReadOnly}`}>{t('readOnly')}</p>
        ) : null}
      </section>
      {valid ? <SectionTabs current={current} site={site} /> : null}
    </div>
  );
}

/** The sections as tabs (arrow keys, Home and End move between them) over the open one's panel. */
function SectionTabs({ current, site }: { current: SectionId; site: SiteRef }) {
  const t = useT('siteSettings');
  const [, setParams] = useSearchParams();
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

  return (
    <section className="card config-card">
      <div className={styles.configTabs} role="tablist" aria-label={t('sectionsNav')}>
        {SECTIONS.map((id) => (
          <button
            key={id}
            ref={(el) => {
              if (el) tabs.current.set(id, el);
            }}
            id={`config-tab-${id}`}
            type="button"
            role="tab"
            className={styles.configTab}
            aria-selected={id === current}
            aria-controls={`config-panel-${id}`}
            tabIndex={id === current ? 0 : -1}
            onClick={() => open(id)}
            onKeyDown={onTabKey}
          >
            {t(SECTION_TABLE[id].title)}
          </button>
        ))}
      </div>
      <div
        id={`config-panel-${current}`}
        className={styles.configPanel}
        role="tabpanel"
        aria-labelledby={`config-tab-${current}`}
      >
        <Section id={current} site={site} />
      </div>
    </section>
  );
}

function Section({ id, site }: { id: SectionId; site: SiteRef }) {
  const auth = useApiAuth();
  const { read, write } = SECTION_TABLE[id];
  if (auth.ready && !auth.allows(read)) return <AccessNote endpoint={read} kind="read" />;
  const canWrite = write !== undefined && auth.allows(write);
  const props: SectionProps = { site, canWrite, headingId: `config-heading-${id}` };
  return (
    <>
      {write !== undefined && !canWrite && auth.pair ? <AccessNote endpoint={write} kind="write" /> : null}
      <SectionBody id={id} {...props} />
    </>
  );
}

function SectionBody({ id, ...props }: SectionProps & { id: SectionId }) {
  switch (id) {
    case 'overview':
      return <OverviewSection {...props} />;
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
