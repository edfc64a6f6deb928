import { siteBasicSettingsBody } from '@sac/contract/customer-writes';
import { PLANS, planStatusText, type siteBasicSettingsResponse } from '@sac/contract/customers';
import { useState } from 'react';
import type { z } from 'zod';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useSaveBasicSettings } from '../api/customer-writes-api.ts';
import { useStepFailure } from './basic-info-step.tsx';
import { WizardStepForm } from './wizard-step-form.tsx';

const schema = siteBasicSettingsBody.shape.data;
type SettingsField = 'ProductionUrl' | 'StagingUrl' | 'Plan' | 'TrialDays';
export type SettingsValues = Record<SettingsField, string>;
export const DEFAULT_SETTINGS: SettingsValues = {
  ProductionUrl: '',
  StagingUrl: '',
  Plan: 'Free',
  TrialDays: '0',
};

type BasicSettings = z.output<typeof siteBasicSettingsResponse>['Data'];
const DAY = 86_400_000;

/** The form's values from a site's saved settings: a running trial as the days it has left. */
export function settingsFromSite(s: BasicSettings, now: Date): SettingsValues {
  const end = s.TrialEndsAt ? new Date(s.TrialEndsAt).getTime() : 0;
  const days = s.PlanStatus === 'Trial' && end > now.getTime() ? Math.ceil((end - now.getTime()) / DAY) : 0;
  return { ProductionUrl: s.ProductionUrl, StagingUrl: s.StagingUrl, Plan: s.Plan, TrialDays: String(days) };
}

interface Props {
  uid: string;
  appId: number;
  title: string;
  position: string;
  values: SettingsValues;
  current?: BasicSettings;
  onChange: (values: SettingsValues) => void;
  onSaved: () => void;
  onBack?: () => void;
}

/**
 * Step 2 (Additional Site Information): web apps, plan and trial days (0 = subscribed). A failed
 * save toasts the server's text, else 'Unable to add basic settings.'; a trial the server did not
 * take (its field rejected, or no trial in the answer) 'Unable to set trial app.'.
 */
export function SiteSettingsStep({
  uid,
  appId,
  title,
  position,
  values,
  current,
  onChange,
  onSaved,
  onBack,
}: Props) {
  const t = useT('customers');
  const save = useSaveBasicSettings();
  const form = useContractForm(schema, { values, onChange, idPrefix: 'wiz' });
  const failed = useStepFailure();
  const [failure, setFailure] = useState<string | undefined>();

  const fail = (text: string) => {
    toast.error(text);
    setFailure(failed(title, text));
  };

  const field = (f: SettingsField) => {
    const props = form.field(f);
    return { ...props, error: f === 'TrialDays' && props.error ? t('trialDaysInvalid') : props.error };
  };

  const onSubmit = () => {
    const data = form.submit();
    if (!data) return;
    setFailure(undefined);
    save.mutate(
      { uid, appId, body: { data } },
      {
        onSuccess: (answer) => {
          if (data.TrialDays > 0 && answer.PlanStatus !== 'Trial') {
            fail(t('trialAppFailed'));
            return;
          }
          toast.success(t('basicSettingsSaved'));
          onSaved();
        },
        onError: (error) => {
          const fields = form.serverFailed(error);
          fail(fields.TrialDays ? t('trialAppFailed') : errorText(error, t('basicSettingsFailed')));
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
      busy={save.isPending}
      submitLabel={t('next')}
      onSubmit={onSubmit}
      onBack={onBack}
    >
      <div className="form-grid">
        <FormField
          {...field('ProductionUrl')}
          label={t('productionUrlField')}
          inputMode="url"
          autoComplete="off"
        />
        <FormField {...field('StagingUrl')} label={t('stagingUrlField')} inputMode="url" autoComplete="off" />
        <SelectField
          {...field('Plan')}
          label={t('planField')}
          options={PLANS.map((p) => ({ value: p, label: p }))}
        />
        <FormField
          {...field('TrialDays')}
          type="number"
          min={0}
          max={365}
          step={1}
          label={t('trialDaysField')}
          hint={
            current
              ? `${t('trialDaysHint')} ${t('currentPlanStatus', {
                  status: planStatusText(current.PlanStatus, current.TrialEndsAt, new Date()),
                })}`
              : t('trialDaysHint')
          }
        />
      </div>
    </WizardStepForm>
  );
}
