import { API_TOKEN_MAX_DAYS, type ApiTokenInfo, createApiTokenBody } from '@sac/contract/api-tokens';
import { PERMISSION_DESCRIPTIONS, PERMISSIONS, ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import { type FormEvent, useState } from 'react';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { CopyableCode } from '../../../components/copy-button.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast-store.ts';
import {
  useApiTokens,
  useCreateApiToken,
  useRevokeApiToken,
  useServiceAccounts,
} from '../api/api-tokens-api.ts';
import { AllowlistCard } from './allowlist-card.tsx';
import { ServiceAccountCard } from './service-account-card.tsx';

const EXPIRY_CHOICES = [7, 30, 60, API_TOKEN_MAX_DAYS] as const;

/**
 * /account/api-tokens: make a token (name, expiry of at most 90 days, permissions out of one's
 * own, optional addresses), see it once with Copy, list one's tokens with their last use, revoke
 * one after a confirmation. A SuperAdmin also sees everyone's, revokes any, and makes tokens for
 * service accounts.
 */
export default function ApiTokensPage() {
  const t = useT('apiTokens');
  const viewer = useCurrentUser();
  const superAdmin = viewer.roles.includes(ROLE_SUPER_ADMIN);
  const [everyone, setEveryone] = useState(false);
  const [shown, setShown] = useState<string | undefined>();
  const tokens = useApiTokens(everyone && superAdmin);
  return (
    <div className="page-stack">
      <section className="card form-card" aria-labelledby="screen-title">
        <h1 id="screen-title">{t('heading')}</h1>
        <p className="muted">{t('intro')}</p>
        {shown ? (
          <div className="notice notice-success" role="status" aria-labelledby="new-token-heading">
            <h2 id="new-token-heading">{t('createdHeading')}</h2>
            <p>{t('createdNote')}</p>
            <CopyableCode text={shown} label={t('copyToken')} />
            <div className="form-actions">
              <button type="button" className="button" onClick={() => setShown(undefined)}>
                {t('dismiss')}
              </button>
            </div>
          </div>
        ) : (
          <NewTokenForm superAdmin={superAdmin} onCreated={setShown} />
        )}
      </section>
      <section className="card" aria-labelledby="tokens-heading">
        <div className="page-header">
          <h2 id="tokens-heading">{t('listHeading')}</h2>
          {superAdmin ? (
            <label className="checkbox-option">
              <input type="checkbox" checked={everyone} onChange={(e) => setEveryone(e.target.checked)} />{' '}
              {t('showEveryone')}
            </label>
          ) : null}
        </div>
        <TokenTable
          rows={tokens.data}
          isLoading={tokens.isPending}
          error={tokens.isError ? tokens.error : undefined}
        />
      </section>
      {superAdmin ? <ServiceAccountCard /> : null}
      {superAdmin ? <AllowlistCard /> : null}
    </div>
  );
}

interface Draft {
  Name: string;
  ExpiresInDays: string;
  Permissions: string[];
  AllowedAddresses: string;
  OwnerUid: string;
}
const EMPTY: Draft = { Name: '', ExpiresInDays: '30', Permissions: [], AllowedAddresses: '', OwnerUid: '' };

/** The body the server takes, or the first field error by field. */
function parseDraft(d: Draft) {
  const addresses = d.AllowedAddresses.split('\n')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  return createApiTokenBody.safeParse({
    Name: d.Name,
    ExpiresInDays: Number(d.ExpiresInDays),
    Permissions: d.Permissions,
    ...(addresses.length > 0 ? { AllowedAddresses: addresses } : {}),
    ...(d.OwnerUid ? { OwnerUid: d.OwnerUid } : {}),
  });
}

/** The form of a new token; `onCreated` gets the token, which the page shows once. */
function NewTokenForm({
  superAdmin,
  onCreated,
}: {
  superAdmin: boolean;
  onCreated: (token: string) => void;
}) {
  const t = useT('apiTokens');
  const viewer = useCurrentUser();
  const create = useCreateApiToken();
  const services = useServiceAccounts(superAdmin);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [touched, setTouched] = useState(false);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const parsed = parseDraft(draft);
  const errorOf = (field: string) =>
    touched && !parsed.success ? parsed.error.issues.find((i) => i.path[0] === field)?.message : undefined;
  // A token holds only what its maker holds (for a service account: what the server allows it).
  const options = PERMISSIONS.filter((p) => viewer.permissions.has(p)).map((p) => ({
    value: p,
    label: p,
    hint: PERMISSION_DESCRIPTIONS[p],
  }));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!parsed.success || create.isPending) return;
    create.mutate(parsed.data, {
      onSuccess: (answer) => {
        setDraft(EMPTY);
        setTouched(false);
        onCreated(answer.Token);
      },
    });
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="new-token-title">
      <h2 id="new-token-title">{t('newToken')}</h2>
      <FormField
        id="tok-name"
        name="name"
        label={t('name')}
        hint={t('nameHint')}
        autoComplete="off"
        required
        value={draft.Name}
        error={errorOf('Name')}
        onValueChange={(v) => set('Name', v)}
      />
      <SelectField
        id="tok-expiry"
        name="expiry"
        label={t('expiresIn')}
        value={draft.ExpiresInDays}
        options={EXPIRY_CHOICES.map((n) => ({ value: String(n), label: t('days', { n }) }))}
        onValueChange={(v) => set('ExpiresInDays', v)}
      />
      {superAdmin && (services.data ?? []).length > 0 ? (
        <SelectField
          id="tok-owner"
          name="owner"
          label={t('owner')}
          value={draft.OwnerUid}
          options={[
            { value: '', label: t('ownerMe') },
            ...(services.data ?? []).map((s) => ({ value: s.Uid, label: `${s.FullName} (${t('service')})` })),
          ]}
          onValueChange={(v) => set('OwnerUid', v)}
        />
      ) : null}
      <CheckboxGroup
        legend={t('permissions')}
        name="permissions"
        options={options}
        value={draft.Permissions}
        error={errorOf('Permissions')}
        onChange={(v) => set('Permissions', v)}
      />
      <p className="muted">{t('permissionsHint')}</p>
      <TextAreaField
        id="tok-addresses"
        name="addresses"
        label={t('addresses')}
        hint={t('addressesHint')}
        value={draft.AllowedAddresses}
        error={errorOf('AllowedAddresses')}
        onValueChange={(v) => set('AllowedAddresses', v)}
      />
      <div className="form-actions">
        <button type="submit" className="button button-primary" aria-busy={create.isPending}>
          {create.isPending ? t('creating') : t('create')}
        </button>
      </div>
    </form>
  );
}

/** Whether a token still works, as of now. */
function stateOf(token: ApiTokenInfo): 'active' | 'expired' | 'revoked' {
  if (token.RevokedAt) return 'revoked';
  return Date.parse(token.ExpiresAt) <= Date.now() ? 'expired' : 'active';
}

/** The table's columns; `onRevoke` asks before a live token is revoked. */
function tokenColumns(
  t: ReturnType<typeof useT<'apiTokens'>>,
  onRevoke: (token: ApiTokenInfo) => void,
): Column<ApiTokenInfo>[] {
  return [
    {
      id: 'name',
      header: t('name'),
      sortValue: (r) => r.Name,
      cell: (r) => (
        <>
          {r.Name}
          <div className="muted">
            {r.OwnerEmail}
            {r.Service ? ` (${t('service')})` : ''}
          </div>
        </>
      ),
    },
    {
      id: 'permissions',
      header: t('permissions'),
      cell: (r) => (r.Permissions.length > 0 ? r.Permissions.join(', ') : t('noPermissions')),
    },
    {
      id: 'created',
      header: t('created'),
      sortValue: (r) => r.CreatedAt,
      cell: (r) => <Timestamp value={r.CreatedAt} />,
    },
    {
      id: 'expires',
      header: t('expires'),
      sortValue: (r) => r.ExpiresAt,
      cell: (r) => <Timestamp value={r.ExpiresAt} />,
    },
    {
      id: 'used',
      header: t('lastUsed'),
      sortValue: (r) => r.LastUsedAt,
      cell: (r) =>
        r.LastUsedAt ? (
          <>
            <Timestamp value={r.LastUsedAt} />
            {r.LastUsedAddress ? (
              <div className="muted">{t('from', { address: r.LastUsedAddress })}</div>
            ) : null}
          </>
        ) : (
          t('never')
        ),
    },
    { id: 'state', header: t('state'), sortValue: (r) => stateOf(r), cell: (r) => t(stateOf(r)) },
    {
      id: 'actions',
      header: t('actions'),
      cell: (r) =>
        stateOf(r) === 'active' ? (
          <button
            type="button"
            className="button button-small button-danger"
            aria-label={`${t('revoke')} ${r.Name}`}
            onClick={() => onRevoke(r)}
          >
            {t('revoke')}
          </button>
        ) : null,
    },
  ];
}

function TokenTable({
  rows,
  isLoading,
  error,
}: {
  rows: readonly ApiTokenInfo[] | undefined;
  isLoading: boolean;
  error: unknown;
}) {
  const t = useT('apiTokens');
  const common = useT('common');
  const revoke = useRevokeApiToken();
  const [asked, setAsked] = useState<ApiTokenInfo | undefined>();
  const columns = tokenColumns(t, setAsked);
  return (
    <>
      <DataTable
        label={t('listHeading')}
        columns={columns}
        rows={rows}
        rowKey={(r) => String(r.Id)}
        isLoading={isLoading}
        error={error ? errorText(error, common('tableFetchError')) : undefined}
        pageSize={20}
      />
      {asked ? (
        <ConfirmDialog
          title={t('revokeTitle', { name: asked.Name })}
          confirmLabel={t('revoke')}
          busyLabel={t('revoking')}
          cancelLabel={t('cancel')}
          danger
          busy={revoke.isPending}
          onConfirm={() =>
            revoke.mutate(asked.Id, {
              onSuccess: () => toast.success(t('revokedToast')),
              onSettled: () => setAsked(undefined),
            })
          }
          onClose={() => setAsked(undefined)}
        >
          <p>{t('revokeBody')}</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
