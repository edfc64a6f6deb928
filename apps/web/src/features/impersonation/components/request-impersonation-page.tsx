import { IMPERSONATION_DEFAULT_DURATION_MINUTES } from '@sac/contract/constants';
import { createImpersonationBody } from '@sac/contract/impersonation-api';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FormField } from '../../../components/form-field.tsx';
import { toQueryString } from '../../../lib/api-client.ts';
import { useLiveValidation } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast-store.ts';
import { useCreateRequest, useRequests, useSite } from '../api/impersonation-api.ts';
import { NoImpersonationAccess } from './no-access.tsx';
import { useUtcTime } from './request-details.tsx';
import { type RequestField, RequestFields, type RequestValues } from './request-fields.tsx';
import { rolesTakenByOthers } from './request-view.ts';

const schema = createImpersonationBody.shape.data;
type Values = RequestValues & { AppId: number; Duration: string };
type Field = keyof Values;
const FIELDS: readonly Field[] = [
  'Priority',
  'Description',
  'Assignees',
  'ProxyRoles',
  'AdditionalPermissions',
  'Duration',
];
export const REQUESTS_PATH = '/manage-superuser/impersonation/assigned-requests';

/**
 * /manage-customer/impersonate?uid=&appId=: the customer view's Impersonate action. Asks for
 * time-boxed access to that site; on success the server's message is toasted and the requests tab
 * opens. Opening a session from an approved request is not part of the console yet: a viewer who
 * already holds one is told so.
 */
export default function RequestImpersonationPage() {
  const t = useT('impersonation');
  const [params] = useSearchParams();
  const uid = params.get('uid') ?? '';
  const appId = Number(params.get('appId'));
  const complete = uid !== '' && Number.isInteger(appId) && appId > 0;
  const { permissions } = useCurrentUser();
  if (!permissions.has('impersonation.request')) return <NoImpersonationAccess />;
  if (!complete) {
    return (
      <section className="card" aria-labelledby="screen-title">
        <h1 id="screen-title">{t('requestFormTitle')}</h1>
        <p className="form-alert" role="alert">
          {t('linkIncomplete')}
        </p>
      </section>
    );
  }
  return <RequestForm uid={uid} appId={appId} />;
}

function RequestForm({ uid, appId }: { uid: string; appId: number }) {
  const t = useT('impersonation');
  const navigate = useNavigate();
  const viewer = useCurrentUser();
  const utc = useUtcTime();
  const site = useSite(uid, appId, viewer.permissions.has('sites.read'));
  const requests = useRequests(undefined);
  const create = useCreateRequest();
  const [values, setValues] = useState<Values>({
    AppId: appId,
    Priority: '',
    Description: '',
    Assignees: [],
    ProxyRoles: [],
    AdditionalPermissions: [],
    Duration: String(IMPERSONATION_DEFAULT_DURATION_MINUTES),
  });
  const form = useLiveValidation<Field, (typeof schema)['_zod']['output']>(schema, values);
  const set = <F extends Field>(f: F, v: Values[F]) => {
    form.changed(f);
    setValues((prev) => ({ ...prev, [f]: v }));
  };
  const setRequestField = <F extends RequestField>(f: F, v: RequestValues[F]) => set(f, v as Values[F]);
  const appName = site.data?.AppName ?? t('thisSite', { appId });
  const mine = (requests.data ?? []).filter((r) => r.AppId === appId && r.Initiator === viewer.email);
  const approved = mine.find((r) => r.Action.Status === 'Approved');
  const pending = mine.find((r) => r.Action.Status === 'Pending');
  const backTo = `/manage-customer/view-customer${toQueryString({ uid })}`;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.data || create.isPending) {
      for (const f of FIELDS) form.touch(f);
      return;
    }
    create.mutate(
      { data: form.data },
      {
        onSuccess: (answer) => {
          toast.success(answer.Message);
          navigate(REQUESTS_PATH);
        },
      },
    );
  };

  return (
    <section className="card form-card" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('requestFormTitle')}</h1>
          <p className="muted">{t('requestFormIntro', { app: appName })}</p>
        </div>
      </div>
      {approved ? (
        <p className="notice notice-info" role="status">
          {t('alreadyApproved', { app: appName, expires: utc(approved.Action.ExpiresAt), id: approved.Id })}
        </p>
      ) : null}
      {pending ? (
        <p className="notice notice-info">
          {t('alreadyPending', { id: pending.Id, app: appName })}{' '}
          <Link to={REQUESTS_PATH}>{t('openRequests')}</Link>
        </p>
      ) : null}
      <form onSubmit={onSubmit} noValidate aria-labelledby="screen-title">
        <RequestFields
          idPrefix="create"
          values={values}
          set={setRequestField}
          touch={form.touch}
          shown={form.shown}
          takenRoles={rolesTakenByOthers(requests.data ?? [], appId, undefined)}
        />
        <FormField
          id="create-duration"
          name="Duration"
          type="number"
          inputMode="numeric"
          min={1}
          max={43_200}
          step={1}
          label={t('durationMinutes')}
          hint={t('durationRequestHint')}
          value={values.Duration}
          error={form.shown('Duration')}
          onValueChange={(v) => set('Duration', v)}
          onBlur={() => form.touch('Duration')}
          required
        />
        <div className="form-actions">
          <button type="submit" className="button button-primary" aria-busy={create.isPending}>
            {create.isPending ? t('submitting') : t('submitRequest')}
          </button>
          <Link className="button" to={backTo}>
            {t('cancel')}
          </Link>
        </div>
      </form>
    </section>
  );
}
