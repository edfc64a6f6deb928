import { ERRORS } from '@sac/contract/errors';
import {
  type ApplicationSecurity,
  applicationSecurity,
  MFA_MODES,
  SETTINGS_SAVED,
  SIGN_IN_MODES,
} from '@sac/contract/site-settings';
import { type FormEvent, useState } from 'react';
import type { z } from 'zod';
import { ChangedMeanwhile, changedFields } from '../../../components/changed-meanwhile.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { QueryStatus } from '../../../components/query-status.tsx';
import { RadioGroup } from '../../../components/radio-group.tsx';
import { TimePicker } from '../../../components/time-picker.tsx';
import { useApiAuth } from '../../../lib/api-auth.tsx';
import { ApiError, errorText } from '../../../lib/api-client.ts';
import { useEditConflict } from '../../../lib/edit-conflict.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import {
  readApplicationSecurity,
  type SecurityRead,
  useApplicationSecurity,
  useSaveApplicationSecurity,
} from '../api/application-security-api.ts';
import type { SiteRef } from '../api/site-query.ts';
import type { SectionProps } from './section-props.ts';

type Field =
  | 'SignInMode'
  | 'MfaMode'
  | 'PasswordMinLength'
  | 'MaxFailedLogins'
  | 'LockoutMinutes'
  | 'SessionTimeoutMinutes'
  | 'SecurityReportTime';
const NUMBER_FIELDS = [
  'PasswordMinLength',
  'MaxFailedLogins',
  'LockoutMinutes',
  'SessionTimeoutMinutes',
] as const;

const toValues = (s: ApplicationSecurity): Record<Field, string> => ({
  SignInMode: s.SignInMode,
  MfaMode: s.MfaMode,
  PasswordMinLength: String(s.PasswordMinLength),
  MaxFailedLogins: String(s.MaxFailedLogins),
  LockoutMinutes: String(s.LockoutMinutes),
  SessionTimeoutMinutes: String(s.SessionTimeoutMinutes),
  SecurityReportTime: s.SecurityReportTime,
});

/**
 * Application Level Security: sign-in mode, MFA, password length, lockout, session timeout and the
 * daily report time (time picker). Never saved (927): the defaults, silently. A 981 refusal shows
 * its message in the form.
 */
export function ApplicationSecuritySection({ site, canWrite, headingId }: SectionProps) {
  const t = useT('siteSettings');
  const security = useApplicationSecurity(site);
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('applicationSecurity')}</h2>
      <p className="muted">{t('securityIntro')}</p>
      <QueryStatus query={security} />
      {security.data ? (
        <SecurityForm key={security.dataUpdatedAt} site={site} current={security.data} canWrite={canWrite} />
      ) : null}
    </section>
  );
}

type SecurityFormState = ReturnType<
  typeof useContractForm<Record<Field, string>, z.output<typeof applicationSecurity>>
>;

/**
 * Saving at the version read (someone's save since: what changed meanwhile, theirs to load or
 * overwrite); a 981 refusal is the form's alert, other failures under the fields and as a toast.
 */
function useSaveSecurity(
  site: SiteRef,
  current: SecurityRead,
  form: SecurityFormState,
  setAlert: (alert: string | undefined) => void,
) {
  const save = useSaveApplicationSecurity(site);
  const auth = useApiAuth();
  const conflict = useEditConflict<ApplicationSecurity>(
    { data: current.settings, version: current.version },
    async () => {
      const now = await readApplicationSecurity(auth, site);
      return { data: now.settings, version: now.version };
    },
  );
  const send = (ifMatch: string | undefined) => {
    const data = form.submit();
    if (!data || save.isPending) return;
    setAlert(undefined);
    save.mutate(
      { data, ifMatch },
      {
        onSuccess: ({ answer }) => {
          form.reset(form.values);
          toast.success(answer.Message || SETTINGS_SAVED);
        },
        onError: async (error) => {
          if (await conflict.refused(error)) return;
          if (error instanceof ApiError && error.code === ERRORS.securityConflict.code) {
            setAlert(errorText(error));
            return;
          }
          form.serverFailed(error);
          if (!(error instanceof ApiError && error.code === ERRORS.unauthenticated.code))
            toast.error(errorText(error));
        },
      },
    );
  };
  const loadTheirs = () => {
    const theirs = conflict.loadTheirs();
    if (theirs) form.reset(toValues(theirs));
  };
  return { save, conflict, send, loadTheirs };
}

/** The modes, the numbers and the report time; read-only without site-settings.write. */
function SecurityFields({
  form,
  canWrite,
  set,
}: {
  form: SecurityFormState;
  canWrite: boolean;
  set: (f: Field, v: string) => void;
}) {
  const t = useT('siteSettings');
  const values = form.values;
  const numberField = (f: (typeof NUMBER_FIELDS)[number]) => ({
    ...form.field(f),
    type: 'number',
    inputMode: 'numeric' as const,
    readOnly: !canWrite,
    onValueChange: (v: string) => set(f, v),
  });
  return (
    <>
      <div className="form-grid">
        <RadioGroup
          legend={t('signInMode')}
          name="SignInMode"
          value={values.SignInMode}
          error={form.shown('SignInMode')}
          options={SIGN_IN_MODES.map((m) => ({
            value: m,
            label: t(`signInMode.${m}`),
            hint: t(`signInModeHint.${m}`),
            disabled: !canWrite,
          }))}
          onChange={(v) => set('SignInMode', v)}
        />
        <RadioGroup
          legend={t('mfaMode')}
          name="MfaMode"
          value={values.MfaMode}
          error={form.shown('MfaMode')}
          options={MFA_MODES.map((m) => ({ value: m, label: t(`mfaMode.${m}`), disabled: !canWrite }))}
          onChange={(v) => set('MfaMode', v)}
        />
      </div>
      <div className="form-grid">
        <FormField {...numberField('PasswordMinLength')} label={t('passwordMinLength')} min={6} max={64} />
        <FormField
          {...numberField('MaxFailedLogins')}
          label={t('maxFailedLogins')}
          hint={t('maxFailedLoginsHint')}
          min={0}
          max={50}
        />
        <FormField {...numberField('LockoutMinutes')} label={t('lockoutMinutes')} min={0} max={1440} />
        <FormField
          {...numberField('SessionTimeoutMinutes')}
          label={t('sessionTimeoutMinutes')}
          min={5}
          max={43200}
        />
        <TimePicker
          id="security-SecurityReportTime"
          label={t('securityReportTime')}
          title={t('securityReportTimeTitle')}
          value={values.SecurityReportTime}
          hint={t('securityReportTimeHint')}
          error={form.shown('SecurityReportTime')}
          disabled={!canWrite}
          onChange={(v) => set('SecurityReportTime', v)}
        />
      </div>
    </>
  );
}

function SecurityForm({
  site,
  current,
  canWrite,
}: {
  site: SiteRef;
  current: SecurityRead;
  canWrite: boolean;
}) {
  const t = useT('siteSettings');
  const [alert, setAlert] = useState<string | undefined>();
  const form = useContractForm(applicationSecurity, {
    initial: toValues(current.settings),
    idPrefix: 'security',
  });
  const { save, conflict, send, loadTheirs } = useSaveSecurity(site, current, form, setAlert);
  const set = (f: Field, v: string) => {
    setAlert(undefined);
    form.set(f, v);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send(conflict.version);
  };
  const labels: Record<Field, string> = {
    SignInMode: t('signInMode'),
    MfaMode: t('mfaMode'),
    PasswordMinLength: t('passwordMinLength'),
    MaxFailedLogins: t('maxFailedLogins'),
    LockoutMinutes: t('lockoutMinutes'),
    SessionTimeoutMinutes: t('sessionTimeoutMinutes'),
    SecurityReportTime: t('securityReportTime'),
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('applicationSecurity')}>
      {conflict.theirs ? (
        <ChangedMeanwhile
          changes={changedFields(toValues(conflict.filledFrom), toValues(conflict.theirs.data), labels)}
          onLoadTheirs={loadTheirs}
          onOverwrite={() => send(conflict.overwrite())}
          busy={save.isPending}
        />
      ) : null}
      <SecurityFields form={form} canWrite={canWrite} set={set} />
      {alert ? (
        <p className="form-alert" role="alert">
          {alert}
        </p>
      ) : null}
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
