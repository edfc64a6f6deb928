import { consolePaths } from '@sac/contract/console-paths';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { QueryStatus } from '../../../components/query-status.tsx';
import { NotOwnedSite, useSiteOwnership } from '../../../components/site-ownership.tsx';
import { type StepItem, Stepper } from '../../../components/stepper.tsx';
import { sameValues } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useLeaveGuard } from '../../../lib/leave-guard.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import {
  useFeaturesCatalogue,
  useSiteBasicSettings,
  useSiteDataCenter,
  useSiteFeatures,
} from '../api/customer-writes-api.ts';
import { useCustomerProfile, useOwnedSites } from '../api/customers-api.ts';
import { ApiSecretBox } from './api-secret-box.tsx';
import {
  AddSiteStep,
  CreateCustomerStep,
  type CreatedSite,
  type CustomerValues,
  EMPTY_CUSTOMER,
} from './basic-info-step.tsx';
import {
  DataCenterStep,
  type DataCenterValues,
  DEFAULT_DATA_CENTER,
  dataCenterFromSite,
} from './data-center-step.tsx';
import { EMPTY_FEATURES, FeaturesStep, type FeaturesValues, featuresFromSite } from './features-step.tsx';
import {
  DEFAULT_SETTINGS,
  type SettingsValues,
  SiteSettingsStep,
  settingsFromSite,
} from './site-settings-step.tsx';
import styles from './site-wizard-page.module.css';

export type WizardMode = 'create' | 'add' | 'edit';
type StepId = 'basic' | 'settings' | 'features' | 'dataCenter';
const ORDER: readonly StepId[] = ['basic', 'settings', 'features', 'dataCenter'];
const LABEL_KEYS = {
  basic: 'stepBasicInfo',
  settings: 'stepSiteInformation',
  features: 'stepFeatures',
  dataCenter: 'stepDataCenter',
} as const;
const TITLE_KEYS = { create: 'createCustomer', add: 'addSite', edit: 'editSite' } as const;

/**
 * /manage-customer/create-customer, /add-site?uid= and /edit-site?uid=&appId=: one screen with the
 * steps Basic Info, Additional Site Information, Set Features and Set Data Center & DB. Needs
 * sites.write (create also customers.write).
 */
export default function SiteWizardPage({ mode }: { mode: WizardMode }) {
  const t = useT('customers');
  const common = useT('common');
  const [params] = useSearchParams();
  const { permissions } = useCurrentUser();
  const uid = params.get('uid')?.trim() ?? '';
  const appIdNumber = Number(params.get('appId'));
  const appId = Number.isInteger(appIdNumber) && appIdNumber > 0 ? appIdNumber : undefined;
  const title = t(TITLE_KEYS[mode]);
  const allowed = permissions.has('sites.write') && (mode !== 'create' || permissions.has('customers.write'));

  let problem: string | undefined;
  if (!allowed) problem = common('forbidden');
  else if (mode !== 'create' && !uid) problem = t('noCustomerSelected');
  else if (mode === 'edit' && appId === undefined) problem = t('noSiteSelected');
  if (problem) {
    return (
      <section className="card" aria-labelledby="screen-title">
        <h1 id="screen-title">{title}</h1>
        <p className="form-alert" role="alert">
          {problem}
        </p>
      </section>
    );
  }
  return <OwnedSiteWizard mode={mode} uid={uid} appId={appId} title={title} />;
}

interface WizardProps {
  mode: WizardMode;
  uid: string;
  appId: number | undefined;
  title: string;
}

/** An edit names a site the customer must own: otherwise the form would only fail to save. */
function OwnedSiteWizard(props: WizardProps) {
  const { mode, uid, appId, title } = props;
  const ownership = useSiteOwnership(uid, mode === 'edit' ? appId : undefined);
  if (ownership.kind === 'shared' || ownership.kind === 'not-theirs') {
    return (
      <section className="card" aria-labelledby="screen-title">
        <h1 id="screen-title">{title}</h1>
        <NotOwnedSite
          uid={uid}
          ownership={ownership}
          ownerLink={(owner) => consolePaths.editSite({ uid: owner, appId: appId ?? 0 })}
        />
      </section>
    );
  }
  return <SiteWizard key={`${mode}:${uid}:${appId ?? ''}`} {...props} />;
}

/**
 * When the step changes (or the secret box appears or goes), the form focus was in is gone: focus
 * moves to what replaced it, the new secret box or the new step's heading, so the keyboard goes
 * on from there and screen readers announce it. Not on the screen's first render.
 */
function useFocusOnStepChange(step: StepId, secretShown: boolean) {
  const focusedFor = useRef({ step, secretShown });
  useEffect(() => {
    const last = focusedFor.current;
    if (last.step === step && last.secretShown === secretShown) return;
    focusedFor.current = { step, secretShown };
    const shown = document.getElementById('api-secret-title');
    (shown ?? document.getElementById('wizard-step-title'))?.focus();
  }, [step, secretShown]);
}

/**
 * What the user entered in each step, kept while they move between steps (and after a failure),
 * over the site's saved values, which fill the steps until the user changes them; and per step
 * whether it has changes not saved yet.
 */
function useStepValues(mode: WizardMode, uid: string, appId: number | undefined, done: ReadonlySet<StepId>) {
  const [customer, setCustomer] = useState<CustomerValues>(EMPTY_CUSTOMER);
  const [newSite, setNewSite] = useState({ appname: '' });
  const [settingsEdit, setSettings] = useState<SettingsValues | undefined>();
  const [featuresEdit, setFeatures] = useState<FeaturesValues | undefined>();
  const [dataCenterEdit, setDataCenter] = useState<DataCenterValues | undefined>();

  const basic = useSiteBasicSettings(uid, appId);
  const siteFeatures = useSiteFeatures(uid, appId);
  const dataCenter = useSiteDataCenter(uid, appId);
  const catalogue = useFeaturesCatalogue();
  const owned = useOwnedSites(uid);
  const profile = useCustomerProfile(uid, mode !== 'create');
  const otherSites = (owned.data ?? []).filter((s) => s.appId !== appId && s.Role === 'Owner');

  // A new site's plan is chosen in step 2; once saved (or on an existing site) it changes only on request.
  const savedSettings = basic.data
    ? settingsFromSite(basic.data, mode !== 'edit' && !done.has('settings'))
    : DEFAULT_SETTINGS;
  const savedFeatures =
    siteFeatures.data && catalogue.data
      ? featuresFromSite(siteFeatures.data.Features, catalogue.data.FeatureSets)
      : EMPTY_FEATURES;
  const savedDc = dataCenter.data ? dataCenterFromSite(dataCenter.data) : DEFAULT_DATA_CENTER;

  const unsaved: Record<StepId, boolean> = {
    basic:
      appId === undefined &&
      (mode === 'create' ? !sameValues(customer, EMPTY_CUSTOMER) : newSite.appname.trim() !== ''),
    settings: settingsEdit !== undefined && !sameValues(settingsEdit, savedSettings),
    features: featuresEdit !== undefined && !sameValues(featuresEdit, savedFeatures),
    dataCenter: dataCenterEdit !== undefined && !sameValues(dataCenterEdit, savedDc),
  };
  return {
    customer,
    setCustomer,
    newSite,
    setNewSite,
    settings: settingsEdit ?? savedSettings,
    setSettings,
    features: featuresEdit ?? savedFeatures,
    setFeatures,
    dc: dataCenterEdit ?? savedDc,
    setDataCenter,
    basic,
    siteFeatures,
    dataCenter,
    otherSites,
    customerName: profile.data ? `${profile.data.FirstName} ${profile.data.LastName}`.trim() : undefined,
    unsaved,
  };
}

type StepValues = ReturnType<typeof useStepValues>;

interface StepBodyProps {
  mode: WizardMode;
  step: StepId;
  uid: string;
  appId: number | undefined;
  values: StepValues;
  finishing: boolean;
  onCreated: (created: CreatedSite) => void;
  onSaved: (step: StepId) => void;
  onBack: (step: StepId) => () => void;
  onFinished: () => void;
  onSaveEarlierSteps: (() => void) | undefined;
}

/** The form of the step shown; an edit waits for the site's saved values first. */
function WizardStepBody({
  mode,
  step,
  uid,
  appId,
  values: v,
  finishing,
  onCreated,
  onSaved,
  onBack,
  onFinished,
  onSaveEarlierSteps,
}: StepBodyProps) {
  const t = useT('customers');
  const position = (s: StepId) => t('stepOf', { n: ORDER.indexOf(s) + 1, total: ORDER.length });
  const label = (s: StepId) => t(LABEL_KEYS[s]);
  if (step === 'basic') {
    return mode === 'create' ? (
      <CreateCustomerStep
        title={label('basic')}
        position={position('basic')}
        values={v.customer}
        onChange={v.setCustomer}
        onCreated={onCreated}
      />
    ) : (
      <AddSiteStep
        uid={uid}
        customerName={v.customerName}
        title={label('basic')}
        position={position('basic')}
        values={v.newSite}
        onChange={v.setNewSite}
        onCreated={onCreated}
      />
    );
  }
  if (appId === undefined) return null;
  // An edit starts from the site's saved values: wait for them.
  if (mode === 'edit' && (v.basic.isPending || v.basic.isError)) return <QueryStatus query={v.basic} />;
  if (step === 'settings') {
    return (
      <SiteSettingsStep
        uid={uid}
        appId={appId}
        title={label('settings')}
        position={position('settings')}
        values={v.settings}
        current={v.basic.data}
        onChange={v.setSettings}
        onSaved={() => onSaved('settings')}
        autoSubmit={finishing}
      />
    );
  }
  if (step === 'features') {
    return (
      <FeaturesStep
        uid={uid}
        appId={appId}
        title={label('features')}
        position={position('features')}
        values={v.features}
        otherSites={v.otherSites}
        currentFeatures={mode === 'edit' ? v.siteFeatures.data?.Features : undefined}
        onChange={v.setFeatures}
        onSaved={() => onSaved('features')}
        autoSubmit={finishing}
        onBack={onBack('features')}
      />
    );
  }
  return (
    <DataCenterStep
      uid={uid}
      appId={appId}
      title={label('dataCenter')}
      position={position('dataCenter')}
      values={v.dc}
      info={v.dataCenter}
      otherSites={v.otherSites}
      onChange={v.setDataCenter}
      onSaved={onFinished}
      autoSubmit={finishing}
      onSaveEarlierSteps={onSaveEarlierSteps}
      onBack={onBack('dataCenter')}
    />
  );
}

/** The screen's heading and intro, the way back to the customer, and the steps. */
function WizardHeader({
  mode,
  title,
  uid,
  siteName,
  steps,
  step,
  onSelect,
}: {
  mode: WizardMode;
  title: string;
  uid: string;
  siteName: string;
  steps: StepItem[];
  step: StepId;
  onSelect: (step: StepId) => void;
}) {
  const t = useT('customers');
  let intro: string;
  if (mode === 'create') intro = t('wizardIntroCreate');
  else if (mode === 'add') intro = t('wizardIntroAdd');
  else intro = t('wizardIntroEdit', { name: siteName || '…' });
  return (
    <section className="card" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{title}</h1>
          <p className="muted">{intro}</p>
        </div>
        {uid ? (
          <div className="page-header-actions">
            <Link to={consolePaths.customerView({ uid })}>{t('backToCustomer')}</Link>
          </div>
        ) : null}
      </div>
      <Stepper
        label={t('stepsLabel')}
        steps={steps}
        current={step}
        doneText={t('stepDone')}
        onSelect={(s) => onSelect(s as StepId)}
      />
    </section>
  );
}

function SiteWizard({ mode, uid: uidParam, appId: appIdParam, title }: WizardProps) {
  const t = useT('customers');
  const navigate = useNavigate();
  const [created, setCreated] = useState<CreatedSite | undefined>();
  const [secretShown, setSecretShown] = useState(true);
  const uid = created?.uid ?? uidParam;
  const appId = created?.site.appId ?? appIdParam;
  const [step, setStep] = useState<StepId>(mode === 'edit' ? 'settings' : 'basic');
  const [done, setDone] = useState<ReadonlySet<StepId>>(() => new Set(mode === 'edit' ? ['basic'] : []));
  useFocusOnStepChange(step, secretShown);
  const values = useStepValues(mode, uid, appId, done);

  // What the user changed and has not saved, per step: Finish saves these first, and leaving asks.
  const { unsaved } = values;
  const { leave } = useLeaveGuard(ORDER.some((s) => unsaved[s]));
  const unsavedBeforeFinish = (['settings', 'features'] as const).filter((s) => unsaved[s]);
  const [finishing, setFinishing] = useState(false);
  const siteName = created?.site.AppName ?? values.basic.data?.AppName ?? '';

  const firstOpen = ORDER.find((s) => !done.has(s));
  const isEnabled = (s: StepId) => {
    if (s === 'basic') return appId === undefined;
    if (appId === undefined) return false;
    return mode === 'edit' || done.has(s) || s === firstOpen;
  };
  const steps: StepItem[] = ORDER.map((s) => ({
    id: s,
    label: t(LABEL_KEYS[s]),
    done: done.has(s),
    enabled: isEnabled(s),
  }));

  /** A step saved: its values come from the saved site again; on to the next step. */
  const complete = (s: StepId) => {
    setDone((prev) => new Set(prev).add(s));
    if (s === 'settings') values.setSettings(undefined);
    if (s === 'features') values.setFeatures(undefined);
    // While finishing, the next step to save is the next one with unsaved changes, else step 4.
    const next = finishing
      ? (unsavedBeforeFinish.find((u) => ORDER.indexOf(u) > ORDER.indexOf(s)) ?? 'dataCenter')
      : ORDER[ORDER.indexOf(s) + 1];
    if (next) setStep(next);
  };
  const open = (s: StepId) => {
    setFinishing(false);
    setStep(s);
  };

  return (
    <div className="page-stack">
      <WizardHeader
        mode={mode}
        title={title}
        uid={uid}
        siteName={siteName}
        steps={steps}
        step={step}
        onSelect={open}
      />
      {created && secretShown ? (
        <ApiSecretBox
          siteName={created.site.AppName}
          apiKey={created.site.ApiKey}
          secret={created.secret}
          onHide={() => setSecretShown(false)}
        />
      ) : null}
      <div className={`card ${styles.wizardCard}`}>
        <WizardStepBody
          mode={mode}
          step={step}
          uid={uid}
          appId={appId}
          values={values}
          finishing={finishing}
          onCreated={(c) => {
            setCreated(c);
            complete('basic');
          }}
          onSaved={complete}
          onBack={(s) => () => open(ORDER[ORDER.indexOf(s) - 1]!)}
          onFinished={() => leave(() => navigate(consolePaths.customerView({ uid })))}
          onSaveEarlierSteps={
            unsavedBeforeFinish.length > 0
              ? () => {
                  setFinishing(true);
                  setStep(unsavedBeforeFinish[0]!);
                }
              : undefined
          }
        />
      </div>
    </div>
  );
}
