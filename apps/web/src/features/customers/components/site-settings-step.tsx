import { siteBasicSettingsBody } from '@sac/contract/customer-writes';
import { PLANS, planStatusText, type siteBasicSettingsResponse } from '@sac/contract/customers';
import { ERRORS } from '@sac/contract/errors';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { CheckboxField } from '../../../components/checkbox-field.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { ApiError, errorText } from '../../../lib/api-client.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { versionOf } from '../../../lib/record-version.ts';
import { toast } from '../../../lib/toast-store.ts';
import { siteFormKeys, useSaveBasicSettings } from '../api/customer-writes-api.ts';
import { useStepFailure } from './basic-info-step.tsx';
import styles from './site-settings-step.module.css';
import { WizardStepForm } from './wizard-step-form.tsx';

const schema = siteBasicSettingsBody.shape.data;
export interface SettingsValues {
  ProductionUrl: string;
  StagingUrl: string;
  /** Whether this save changes the plan; otherwise plan, status and trial stay as stored. */
  ChangePlan: boolean;
  Plan: string;
  TrialDays: string;
}
type SettingsField = 'ProductionUrl' | 'StagingUrl' | 'Plan' | 'TrialDays';
export const DEFAULT_SETTINGS: SettingsValues = {
  ProductionUrl: '',
  StagingUrl: '',
  ChangePlan: true,
  Plan: 'Free',
  TrialDays: '0',
};

type BasicSettings = z.output<typeof siteBasicSettingsResponse>['Data'];

/**
 * The form's values from a site's saved settings. The plan is shown as it is and changes only when
 * the user asks to (a new site's plan is chosen at once); trial days count from the day of a change.
 */
export function settingsFromSite(s: BasicSettings, changePlan: boolean): SettingsValues {
  return {
    ProductionUrl: s.ProductionUrl,
    StagingUrl: s.StagingUrl,
    ChangePlan: changePlan,
    Plan: s.Plan,
    TrialDays: '0',
  };
}

/** What a save sends: the addresses that differ from the saved ones, and the plan when it changes. */
function changesOf(
  values: SettingsValues,
  data: z.output<typeof schema>,
  saved: BasicSettings | undefined,
): z.input<typeof schema> {
  const body: z.input<typeof schema> = {};
  if (!saved || values.ProductionUrl.trim() !== saved.ProductionUrl) body.ProductionUrl = data.ProductionUrl;
  if (!saved || values.StagingUrl.trim() !== saved.StagingUrl) body.StagingUrl = data.StagingUrl;
  if (values.ChangePlan) {
    body.Plan = data.Plan;
    body.TrialDays = data.TrialDays ?? 0;
  }
  return body;
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
  /** Submit as soon as shown (the wizard's Finish saving this step first). */
  autoSubmit?: boolean;
}

type SettingsForm = ReturnType<typeof useContractForm<SettingsValues, z.output<typeof schema>>>;

/**
 * Saving what changed at the site version the step was opened at, so another editor's save in
 * between is refused (930) instead of undone.
 */
function useSaveStep({ uid, appId, title, values, current, onSaved }: Props, form: SettingsForm) {
  const t = useT('customers');
  const save = useSaveBasicSettings();
  const queryClient = useQueryClient();
  const key = siteFormKeys.basic(uid, appId);
  const [version, setVersion] = useState(() => versionOf(queryClient, key));
  const failed = useStepFailure();
  const [failure, setFailure] = useState<string | undefined>();

  const fail = (text: string) => {
    toast.error(text);
    setFailure(failed(title, text));
  };

  const onSubmit = () => {
    const data = form.submit();
    if (!data) return;
    setFailure(undefined);
    const body = changesOf(values, data, current);
    // Nothing changed: nothing to write.
    if (Object.keys(body).length === 0) {
      onSaved();
      return;
    }
    const trialDays = body.TrialDays ?? 0;
    save.mutate(
      { uid, appId, body: { data: body }, ifMatch: version },
      {
        onSuccess: ({ data: answer, etag }) => {
          setVersion(etag);
          if (Number(trialDays) > 0 && answer.PlanStatus !== 'Trial') {
            fail(t('trialAppFailed'));
            return;
          }
          toast.success(t('basicSettingsSaved'));
          onSaved();
        },
        onError: async (error) => {
          if (error instanceof ApiError && error.code === ERRORS.conflict.code) {
            // Keep what was typed; show the stored state now ('Now: …' and the saved addresses
            // the changes are compared with). Next then saves over it, knowingly.
            fail(t('siteChangedMeanwhile'));
            await queryClient.refetchQueries({ queryKey: key, exact: true });
            setVersion(versionOf(queryClient, key));
            return;
          }
          const fields = form.serverFailed(error);
          fail(fields.TrialDays ? t('trialAppFailed') : errorText(error, t('basicSettingsFailed')));
        },
      },
    );
  };
  return { onSubmit, failure, busy: save.isPending };
}

/** The field's props; a rejected trial says 'trialDaysInvalid' whatever the schema's words. */
function useSettingsField(form: SettingsForm) {
  const t = useT('customers');
  return (f: SettingsField) => {
    const props = form.field(f);
    return { ...props, error: f === 'TrialDays' && props.error ? t('trialDaysInvalid') : props.error };
  };
}

/** The plan as stored, and, when the user asks to change it, the plan and its trial days. */
function PlanFieldset({
  form,
  values,
  current,
}: {
  form: SettingsForm;
  values: SettingsValues;
  current: BasicSettings | undefined;
}) {
  const t = useT('customers');
  const field = useSettingsField(form);
  const free = values.Plan === 'Free';
  return (
    <fieldset className={styles.formFieldset}>
      <legend>{t('planField')}</legend>
      {current ? (
        <p className="muted" id="wiz-plan-now">
          {t('currentPlan', {
            plan: current.Plan,
            status: planStatusText(current.PlanStatus, current.TrialEndsAt, new Date()),
          })}
        </p>
      ) : null}
      <CheckboxField
        id="wiz-ChangePlan"
        name="ChangePlan"
        label={t('changePlan')}
        hint={t('changePlanHint')}
        checked={values.ChangePlan}
        onCheckedChange={(on) =>
          // Unticked, the plan fields go back to what is stored, so nothing stale is checked or sent.
          form.patch(
            on ? { ChangePlan: true } : { ChangePlan: false, Plan: current?.Plan ?? 'Free', TrialDays: '0' },
          )
        }
      />
      {values.ChangePlan ? (
        <div className="form-grid">
          <SelectField
            {...field('Plan')}
            label={t('planField')}
            options={PLANS.map((p) => ({ value: p, label: p }))}
            onValueChange={(v) => form.patch(v === 'Free' ? { Plan: v, TrialDays: '0' } : { Plan: v })}
          />
          <FormField
            {...field('TrialDays')}
            type="number"
            min={0}
            max={365}
            step={1}
            label={t('trialDaysField')}
            hint={free ? t('freeHasNoTrial') : t('trialDaysHint')}
            disabled={free}
          />
        </div>
      ) : null}
    </fieldset>
  );
}

/**
 * Step 2 (Additional Site Information): web apps, and the plan with its trial days (0 = subscribed)
 * only when the user changes it: the current plan and its state are shown as stored. A failed
 * save toasts the server's text, else 'Unable to add basic settings.'; a trial the server did not
 * take (its field rejected, or no trial in the answer) 'Unable to set trial app.'.
 */
export function SiteSettingsStep(props: Props) {
  const { title, position, values, current, onChange, onBack, autoSubmit } = props;
  const t = useT('customers');
  const form = useContractForm(schema, { values, onChange, idPrefix: 'wiz', leaveGuard: false });
  const { onSubmit, failure, busy } = useSaveStep(props, form);
  const field = useSettingsField(form);

  return (
    <WizardStepForm
      title={title}
      position={position}
      failure={failure}
      canSubmit={form.valid}
      busy={busy}
      submitLabel={t('next')}
      onSubmit={onSubmit}
      onBack={onBack}
      autoSubmit={autoSubmit}
    >
      <div className="form-grid">
        <FormField
          {...field('ProductionUrl')}
          label={t('productionUrlField')}
          inputMode="url"
          autoComplete="off"
        />
        <FormField {...field('StagingUrl')} label={t('stagingUrlField')} inputMode="url" autoComplete="off" />
      </div>
      <PlanFieldset form={form} values={values} current={current} />
    </WizardStepForm>
  );
}
