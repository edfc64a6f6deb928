import { withReasonRule } from '@sac/contract/access-reasons';
import { consolePaths } from '@sac/contract/console-paths';
import { IMPERSONATION_DEFAULT_DURATION_MINUTES } from '@sac/contract/constants';
import { createImpersonationBody } from '@sac/contract/impersonation-api';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FormField } from '../../../components/form-field.tsx';
import { ApiError, errorText } from '../../../lib/api-client.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast-store.ts';
import { useBreakGlassOptions } from '../api/break-glass-api.ts';
import {
  useCreateRequest,
  useLiveGrant,
  usePendingOnSite,
  useReasonSettings,
  useSite,
  useTakenRoles,
} from '../api/impersonation-api.ts';
import { BreakGlassDialog } from './break-glass-dialog.tsx';
import { GrantPanel } from './grant-panel.tsx';
import { NoImpersonationAccess } from './no-access.tsx';
import { type RequestField, RequestFields, type RequestValues } from './request-fields.tsx';

const baseSchema = createImpersonationBody.shape.data;
type Values = RequestValues & { AppId: number; Duration: string };

/**
 * /manage-customer/impersonate?uid=&appId=: the customer view's Impersonate action. It first asks
 * the server for the viewer's live grant on that site (updateaccess): with one, it shows the roles,
 * permissions and expiry and 'Start impersonation' (account/switchapp; the new pair is kept for the
 * tab and the impersonated site opens). Without one, it asks for time-boxed access to the site; on
 * success the server's message is toasted and the requests tab opens.
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
  return <ImpersonateSite uid={uid} appId={appId} />;
}

/** The live grant decides: Start impersonation, or the request form. */
function ImpersonateSite({ uid, appId }: { uid: string; appId: number }) {
  const t = useT('impersonation');
  const grant = useLiveGrant(uid, appId);
  if (grant.isPending) {
    return (
      <section className="card" aria-labelledby="screen-title">
        <h1 id="screen-title">{t('impersonateSite')}</h1>
        <p className="muted" role="status">
          {t('checkingAccess')}
        </p>
      </section>
    );
  }
  if (grant.isSuccess) return <GrantPanel uid={uid} grant={grant.data} />;
  // 403: no live grant, the usual case. Anything else is said above the form.
  const noGrant = grant.error instanceof ApiError && grant.error.status === 403;
  return <RequestForm uid={uid} appId={appId} accessError={noGrant ? undefined : errorText(grant.error)} />;
}

function RequestForm({ uid, appId, accessError }: { uid: string; appId: number; accessError?: string }) {
  const t = useT('impersonation');
  const navigate = useNavigate();
  const viewer = useCurrentUser();
  const site = useSite(uid, appId, viewer.permissions.has('sites.read'));
  const pendingOnSite = usePendingOnSite(appId);
  const create = useCreateRequest();
  const takenRoles = useTakenRoles(appId);
  const initial: Values = {
    AppId: appId,
    Priority: '',
    Description: '',
    ReasonCode: '',
    CaseReference: '',
    Assignees: [],
    ProxyRoles: [],
    AdditionalPermissions: [],
    Duration: String(IMPERSONATION_DEFAULT_DURATION_MINUTES),
  };
  // The operator's codes and case rule, checked as the server will once they are known.
  const reasons = useReasonSettings();
  const form = useContractForm(withReasonRule(baseSchema, reasons.data), { initial });
  const values = form.values;
  const set = form.set;
  const setRequestField = <F extends RequestField>(f: F, v: RequestValues[F]) => set(f, v as Values[F]);
  const appName = site.data?.AppName ?? t('thisSite', { appId });
  const pending = (pendingOnSite.data ?? []).find((r) => r.Initiator === viewer.email);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || create.isPending) return;
    // The answer invalidates the impersonation queries, which may re-render this form away before
    // a per-call onSuccess runs: follow the promise instead. Errors are toasted by the mutation cache.
    create
      .mutateAsync({ data })
      .then((answer) => {
        toast.success(answer.Message);
        form.leave(() => navigate(consolePaths.impersonationRequests()));
      })
      .catch(() => {});
  };

  return (
    <section className="card form-card" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('requestFormTitle')}</h1>
          <p className="muted">{t('requestFormIntro', { app: appName })}</p>
        </div>
        <BreakGlassAction uid={uid} appId={appId} appName={appName} />
      </div>
      {accessError ? (
        <p className="form-alert" role="alert">
          {accessError}
        </p>
      ) : null}
      {pending ? (
        <p className="notice notice-info">
          {t('alreadyPending', { id: pending.Id, app: appName })}{' '}
          <Link to={consolePaths.impersonationRequests()}>{t('openRequests')}</Link>
        </p>
      ) : null}
      <form onSubmit={onSubmit} noValidate aria-labelledby="screen-title">
        <RequestFields
          idPrefix="create"
          values={values}
          set={setRequestField}
          touch={form.touch}
          shown={form.shown}
          takenRoles={takenRoles.data ?? []}
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
          <Link className="button" to={consolePaths.customerView({ uid })}>
            {t('cancel')}
          </Link>
        </div>
      </form>
    </section>
  );
}

/**
 * SuperAdmins, while the operator leaves break-glass on: 'Break glass', which opens its dialog
 * (access at once, without consent, told to every other SuperAdmin and the owner).
 */
function BreakGlassAction({ uid, appId, appName }: { uid: string; appId: number; appName: string }) {
  const t = useT('impersonation');
  const viewer = useCurrentUser();
  const superAdmin = viewer.roles.includes(ROLE_SUPER_ADMIN);
  const options = useBreakGlassOptions(superAdmin);
  const [open, setOpen] = useState(false);
  if (!superAdmin || !options.data?.Enabled) return null;
  return (
    <>
      <button type="button" className="button button-danger" onClick={() => setOpen(true)}>
        {t('breakGlass')}
      </button>
      {open ? (
        <BreakGlassDialog uid={uid} appId={appId} appName={appName} onClose={() => setOpen(false)} />
      ) : null}
    </>
  );
}
