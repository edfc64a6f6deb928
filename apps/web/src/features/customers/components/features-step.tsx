import { siteFeaturesBody } from '@sac/contract/customer-writes';
import type { Site } from '@sac/contract/customers';
import { setEquals } from '@sac/contract/validation';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RadioGroup } from '../../../components/radio-group.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { isStaleWrite } from '../../../lib/edit-conflict.ts';
import { useT } from '../../../lib/i18n.tsx';
import { versionOf } from '../../../lib/record-version.ts';
import { toast } from '../../../lib/toast-store.ts';
import { siteFormKeys, useFeaturesCatalogue, useSaveFeatures } from '../api/customer-writes-api.ts';
import { useStepFailure } from './basic-info-step.tsx';
import { WizardStepForm } from './wizard-step-form.tsx';

/** The radio value of "the features of an existing site" (feature-set names are the others). */
const FROM_SITE = '__existing-site__';
export interface FeaturesValues {
  choice: string;
  FromAppId: string;
}
export const EMPTY_FEATURES: FeaturesValues = { choice: '', FromAppId: '' };

/** The choice matching a site's features: the feature set with exactly those features, if any. */
export function featuresFromSite(
  features: readonly string[],
  sets: readonly { Name: string; Features: string[] }[],
): FeaturesValues {
  const set = sets.find((s) => setEquals(s.Features, features));
  return { choice: set?.Name ?? '', FromAppId: '' };
}

/** The call's body for the chosen option; undefined while the choice is incomplete. */
function bodyOf(v: FeaturesValues) {
  const raw =
    v.choice === FROM_SITE ? { FromAppId: v.FromAppId || undefined } : { FeatureSet: v.choice || undefined };
  const r = siteFeaturesBody.safeParse(raw);
  return r.success ? r.data : undefined;
}

interface Props {
  uid: string;
  appId: number;
  title: string;
  position: string;
  values: FeaturesValues;
  /** The customer's other owned sites (to copy features from). */
  otherSites: readonly Site[];
  /** The site's features now (edit), shown above the choice. */
  currentFeatures?: readonly string[];
  onChange: (values: FeaturesValues) => void;
  onSaved: () => void;
  onBack?: () => void;
  /** Submit as soon as shown (the wizard's Finish saving this step first). */
  autoSubmit?: boolean;
}

/**
 * Saving the step: a save names the features' version the step was opened at (930 when someone
 * saved since); a failure is toasted and kept for the step's alert.
 */
function useFeaturesSave(uid: string, appId: number, title: string, onSaved: () => void) {
  const t = useT('customers');
  const save = useSaveFeatures();
  const queryClient = useQueryClient();
  const key = siteFormKeys.features(uid, appId);
  // The features' version the step was opened at: a save names it (930 when someone saved since).
  const [version, setVersion] = useState(() => versionOf(queryClient, key));
  const failed = useStepFailure();
  const [failure, setFailure] = useState<string | undefined>();
  const submit = (body: NonNullable<ReturnType<typeof bodyOf>>) => {
    setFailure(undefined);
    save.mutate(
      { uid, appId, body, ifMatch: version },
      {
        onSuccess: ({ etag }) => {
          setVersion(etag);
          toast.success(t('featuresSaved'));
          onSaved();
        },
        onError: async (error) => {
          if (isStaleWrite(error)) {
            // Keep the choice; 'Now' shows what they saved. Next then saves over it, knowingly.
            const text = t('featuresChangedMeanwhile');
            toast.error(text);
            setFailure(failed(title, text));
            await queryClient.refetchQueries({ queryKey: key, exact: true });
            setVersion(versionOf(queryClient, key));
            return;
          }
          const text = errorText(error, t('featuresFailed'));
          toast.error(text);
          setFailure(failed(title, text));
        },
      },
    );
  };

  return { save, failure, submit };
}

/** The site's features now (edit), by name. */
function CurrentFeatures({
  features,
  nameOf,
}: {
  features: readonly string[];
  nameOf: (key: string) => string;
}) {
  const t = useT('customers');
  return (
    <div className="field">
      <h3 id="wiz-current-features">{t('features')}</h3>
      {features.length === 0 ? (
        <p className="muted">{t('noFeatures')}</p>
      ) : (
        <ul className="tag-list" aria-labelledby="wiz-current-features">
          {features.map((f) => (
            <li key={f} className="tag">
              {nameOf(f)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Step 3 (Set Features): a feature set from the catalogue, or the features of another site of the
 * customer. The catalogue failing to load: 'Unable to get the list of featureset at the moment.'
 * with Retry (the other option stays usable). A failed save: the server's text, else 'Unable to
 * add features.'.
 */
export function FeaturesStep({
  uid,
  appId,
  title,
  position,
  values,
  otherSites,
  currentFeatures,
  onChange,
  onSaved,
  onBack,
  autoSubmit,
}: Props) {
  const t = useT('customers');
  const common = useT('common');
  const catalogue = useFeaturesCatalogue();
  const { save, failure, submit } = useFeaturesSave(uid, appId, title, onSaved);
  const [siteTouched, setSiteTouched] = useState(false);
  const body = bodyOf(values);
  const names = new Map((catalogue.data?.Features ?? []).map((f) => [f.Key, f.Name]));
  const nameOf = (key: string) => names.get(key) ?? key;

  const options = [
    ...(catalogue.data?.FeatureSets ?? []).map((s) => ({
      value: s.Name,
      label: s.Name,
      hint: t('featureSetCount', { count: s.Features.length, names: s.Features.map(nameOf).join(', ') }),
    })),
    {
      value: FROM_SITE,
      label: t('useSiteFeatures'),
      hint: otherSites.length === 0 ? t('noOtherSite') : undefined,
      disabled: otherSites.length === 0,
    },
  ];

  return (
    <WizardStepForm
      title={title}
      position={position}
      failure={failure}
      canSubmit={body !== undefined}
      busy={save.isPending}
      submitLabel={t('next')}
      onSubmit={() => body && submit(body)}
      onBack={onBack}
      autoSubmit={autoSubmit}
    >
      {currentFeatures ? <CurrentFeatures features={currentFeatures} nameOf={nameOf} /> : null}
      {catalogue.isError ? (
        <div className="field">
          <p className="form-alert" role="alert">
            {t('featureSetUnavailable')}
          </p>
          <div>
            <button type="button" className="button" onClick={() => void catalogue.refetch()}>
              {common('retry')}
            </button>
          </div>
        </div>
      ) : null}
      {catalogue.isPending ? <Skeleton lines={4} /> : null}
      <RadioGroup
        legend={t('featureSource')}
        name="feature-source"
        options={options}
        value={values.choice}
        onChange={(choice) => onChange({ ...values, choice })}
        renderChosen={(v) =>
          v === FROM_SITE ? (
            <SelectField
              id="wiz-features-site"
              name="FromAppId"
              label={t('existingSiteField')}
              placeholder={t('chooseSite')}
              options={otherSites.map((s) => ({ value: String(s.appId), label: s.AppName }))}
              value={values.FromAppId}
              error={siteTouched && !values.FromAppId ? t('chooseSite') : undefined}
              onValueChange={(FromAppId) => {
                setSiteTouched(true);
                onChange({ ...values, FromAppId });
              }}
              onBlur={() => setSiteTouched(true)}
            />
          ) : null
        }
      />
    </WizardStepForm>
  );
}
