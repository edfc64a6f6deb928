import { siteDataCenterBody } from '@sac/contract/customer-writes';
import type { Site, siteDataCenterResponse } from '@sac/contract/customers';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { FormField } from '../../../components/form-field.tsx';
import { RadioGroup } from '../../../components/radio-group.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { isStaleWrite } from '../../../lib/edit-conflict.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { versionOf } from '../../../lib/record-version.ts';
import { toast } from '../../../lib/toast-store.ts';
import { siteFormKeys, useSaveDataCenter } from '../api/customer-writes-api.ts';
import { useStepFailure } from './basic-info-step.tsx';
import { WizardStepForm } from './wizard-step-form.tsx';

export type DataCenterValues = Record<
  'Source' | 'FromAppId' | 'GlobalServer' | 'DbName' | 'DataCenter' | 'ConnectionString',
  string
>;
export const DEFAULT_DATA_CENTER: DataCenterValues = {
  Source: 'global-server',
  FromAppId: '',
  GlobalServer: '',
  DbName: '',
  DataCenter: '',
  ConnectionString: '',
};

type DataCenterInfo = z.output<typeof siteDataCenterResponse>['Data'];

/** The form's values from a site's current data center (a custom connection string is never sent back). */
export function dataCenterFromSite(info: DataCenterInfo): DataCenterValues {
  const c = info.Current;
  if (c.CustomDb)
    return {
      ...DEFAULT_DATA_CENTER,
      Source: 'custom-database',
      DataCenter: c.DataCenter ?? '',
      DbName: c.DbName,
    };
  return {
    ...DEFAULT_DATA_CENTER,
    Source: 'global-server',
    GlobalServer: c.GlobalServer ?? '',
    DbName: c.DbName,
  };
}

interface Props {
  uid: string;
  appId: number;
  title: string;
  position: string;
  values: DataCenterValues;
  info: { data?: DataCenterInfo; isPending: boolean; isError: boolean; refetch: () => unknown };
  otherSites: readonly Site[];
  onChange: (values: DataCenterValues) => void;
  onSaved: () => void;
  onBack?: () => void;
  /** Submit as soon as shown (the wizard's Finish saving this step first). */
  autoSubmit?: boolean;
  /** Set while earlier steps have unsaved changes: Finish saves those first, through the wizard. */
  onSaveEarlierSteps?: () => void;
}

type DataCenterForm = ReturnType<
  typeof useContractForm<DataCenterValues, z.output<typeof siteDataCenterBody>>
>;

/**
 * Saving the step at the data center's version it was opened at (930 when someone saved since:
 * the choice stays, the current setting reloads, and Finish then saves over it).
 */
function useSaveStep({ uid, appId, title, onSaved, onSaveEarlierSteps }: Props, form: DataCenterForm) {
  const t = useT('customers');
  const save = useSaveDataCenter();
  const queryClient = useQueryClient();
  const key = siteFormKeys.dataCenter(uid, appId);
  const [version, setVersion] = useState(() => versionOf(queryClient, key));
  const failed = useStepFailure();
  const [failure, setFailure] = useState<string | undefined>();

  const onSubmit = () => {
    const data = form.submit();
    if (!data) return;
    if (onSaveEarlierSteps) {
      onSaveEarlierSteps();
      return;
    }
    setFailure(undefined);
    save.mutate(
      { uid, appId, body: data, ifMatch: version },
      {
        onSuccess: ({ etag }) => {
          setVersion(etag);
          toast.success(t('dataCenterSaved'));
          onSaved();
        },
        onError: async (error) => {
          if (isStaleWrite(error)) {
            // Keep the choice; the current setting shows what they saved. Finish then saves over it.
            const text = t('dataCenterChangedMeanwhile');
            toast.error(text);
            setFailure(failed(title, text));
            await queryClient.refetchQueries({ queryKey: key, exact: true });
            setVersion(versionOf(queryClient, key));
            return;
          }
          const text = errorText(error);
          form.serverFailed(error);
          toast.error(text);
          setFailure(failed(title, text));
        },
      },
    );
  };
  return { onSubmit, failure, busy: save.isPending };
}

/** 'Error retrieving data centers' with Retry. */
function DataCentersFailed({ onRetry }: { onRetry: () => void }) {
  const t = useT('customers');
  const common = useT('common');
  return (
    <div className="field">
      <p className="form-alert" role="alert">
        {t('dataCentersFailed')}
      </p>
      <div>
        <button type="button" className="button" onClick={onRetry}>
          {common('retry')}
        </button>
      </div>
    </div>
  );
}

/** The fields of the chosen source: the site to copy, a global server, or a custom database. */
function SourceFields({
  source,
  form,
  lists,
  otherSites,
}: {
  source: string;
  form: DataCenterForm;
  lists: DataCenterInfo | undefined;
  otherSites: readonly Site[];
}) {
  const t = useT('customers');
  const field = form.field;
  if (source === 'existing-site')
    return (
      <SelectField
        {...field('FromAppId')}
        // The schema's messages for an unchosen select are its own; the site select says 'Choose a site'.
        error={form.shown('FromAppId') ? t('chooseSite') : undefined}
        label={t('existingSiteField')}
        placeholder={t('chooseSite')}
        options={otherSites.map((s) => ({ value: String(s.appId), label: s.AppName }))}
      />
    );
  if (!lists) return null;
  const dbName = (
    <FormField {...field('DbName')} label={t('databaseNameField')} autoComplete="off" spellCheck={false} />
  );
  if (source === 'global-server')
    return (
      <>
        <SelectField
          {...field('GlobalServer')}
          label={t('globalServerField')}
          placeholder={t('chooseGlobalServer')}
          options={lists.GlobalServers.map((g) => ({
            value: g.Code,
            label: t('globalServerOption', {
              name: g.Name,
              dataCenter: lists.DataCenters.find((d) => d.Code === g.DataCenter)?.Name ?? g.DataCenter,
            }),
          }))}
        />
        {dbName}
      </>
    );
  return (
    <>
      <SelectField
        {...field('DataCenter')}
        label={t('dataCenterField')}
        placeholder={t('chooseDataCenter')}
        options={lists.DataCenters.map((d) => ({
          value: d.Code,
          label: t('dataCenterOption', { name: d.Name, region: d.Region }),
        }))}
      />
      {dbName}
      <FormField
        {...field('ConnectionString')}
        type="password"
        label={t('connectionStringField')}
        hint={t('connectionStringHint')}
        autoComplete="off"
        spellCheck={false}
      />
    </>
  );
}

/**
 * Step 4 (Set Data Center & DB): copy an existing site's configuration, use a global server (with
 * a database name), or a custom database (data center, database name, connection string). The
 * lists failing to load: 'Error retrieving data centers' with Retry.
 */
export function DataCenterStep(props: Props) {
  const { title, position, values, info, otherSites, onChange, onBack, autoSubmit } = props;
  const t = useT('customers');
  const form = useContractForm(siteDataCenterBody, {
    values,
    onChange,
    idPrefix: 'wiz-dc',
    leaveGuard: false,
  });
  const { onSubmit, failure, busy } = useSaveStep(props, form);
  const lists = info.data;

  return (
    <WizardStepForm
      title={title}
      position={position}
      failure={failure}
      canSubmit={form.valid}
      busy={busy}
      submitLabel={t('finish')}
      onSubmit={onSubmit}
      onBack={onBack}
      autoSubmit={autoSubmit}
    >
      {info.isError ? <DataCentersFailed onRetry={() => void info.refetch()} /> : null}
      {info.isPending ? <Skeleton lines={3} /> : null}
      {lists?.Current.CustomDb && values.Source === 'custom-database' && !values.ConnectionString ? (
        <p className="notice notice-info">{t('connectionStringKept')}</p>
      ) : null}
      <RadioGroup
        legend={t('dataCenterSource')}
        name="data-center-source"
        value={values.Source}
        onChange={(Source) => form.set('Source', Source)}
        options={[
          {
            value: 'existing-site',
            label: t('sourceExistingSite'),
            hint: otherSites.length === 0 ? t('noOtherSite') : t('sourceExistingSiteHint'),
            disabled: otherSites.length === 0,
          },
          { value: 'global-server', label: t('sourceGlobalServer'), disabled: !lists },
          { value: 'custom-database', label: t('sourceCustomDatabase'), disabled: !lists },
        ]}
        renderChosen={(source) => (
          <SourceFields source={source} form={form} lists={lists} otherSites={otherSites} />
        )}
      />
    </WizardStepForm>
  );
}
