import type { ScimTokenInfo } from '@sac/contract/api-tokens';
import { type FormEvent, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { CopyableCode } from '../../../components/copy-button.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useCreateScimToken, useRevokeScimToken, useScimTokens } from '../api/sso-api.ts';

/**
 * Provisioning (SCIM) on the Single sign-on screen: the base URL an identity provider is pointed
 * at, and its bearer tokens (made here, shown once with Copy, last use, revoked here).
 */
export function ScimTokensCard() {
  const t = useT('team');
  const common = useT('common');
  const tokens = useScimTokens();
  const create = useCreateScimToken();
  const revoke = useRevokeScimToken();
  const [name, setName] = useState('');
  const [shown, setShown] = useState<string | undefined>();
  const [asked, setAsked] = useState<ScimTokenInfo | undefined>();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (create.isPending || name.trim() === '') return;
    create.mutate(name.trim(), {
      onSuccess: (made) => {
        setShown(made.Token);
        setName('');
      },
    });
  };
  const columns = scimColumns(t, setAsked);
  return (
    <section className="card" aria-labelledby="scim-heading">
      <h2 id="scim-heading">{t('scimHeading')}</h2>
      <p className="muted">{t('scimIntro')}</p>
      <CopyableCode text={`${window.location.origin}/scim/v2`} label={t('scimCopyUrl')} />
      {shown ? (
        <div className="notice notice-success" role="status">
          <p>{t('scimShownOnce')}</p>
          <CopyableCode text={shown} label={t('scimCopyToken')} />
          <div className="form-actions">
            <button type="button" className="button" onClick={() => setShown(undefined)}>
              {t('scimDismiss')}
            </button>
          </div>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <FormField
            id="scim-token-name"
            name="name"
            label={t('scimTokenName')}
            value={name}
            onValueChange={setName}
            maxLength={100}
          />
          <div className="form-actions">
            <button type="submit" className="button button-primary" aria-busy={create.isPending}>
              {t('scimMake')}
            </button>
          </div>
        </form>
      )}
      <DataTable
        label={t('scimHeading')}
        columns={columns}
        rows={tokens.data}
        rowKey={(r) => String(r.Id)}
        isLoading={tokens.isLoading}
        error={tokens.error ? errorText(tokens.error, common('tableFetchError')) : undefined}
        pageSize={20}
      />
      {asked ? (
        <ConfirmDialog
          title={`${t('scimRevoke')} ${asked.Name}`}
          confirmLabel={t('scimRevoke')}
          busyLabel={t('scimRevoking')}
          cancelLabel={common('cancel')}
          danger
          busy={revoke.isPending}
          onConfirm={() =>
            revoke.mutate(asked.Id, {
              onSuccess: () => {
                toast.success(t('scimRevokedToast'));
                setAsked(undefined);
              },
            })
          }
          onClose={() => setAsked(undefined)}
        >
          <p>{t('scimRevokeNote')}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function scimColumns(
  t: ReturnType<typeof useT<'team'>>,
  setAsked: (r: ScimTokenInfo) => void,
): Column<ScimTokenInfo>[] {
  return [
    { id: 'name', header: t('scimTokenName'), sortValue: (r) => r.Name, cell: (r) => r.Name },
    {
      id: 'created',
      header: t('scimCreated'),
      sortValue: (r) => r.CreatedAt,
      cell: (r) => <Timestamp value={r.CreatedAt} />,
    },
    {
      id: 'used',
      header: t('scimLastUsed'),
      sortValue: (r) => r.LastUsedAt,
      cell: (r) =>
        r.LastUsedAt ? (
          <>
            <Timestamp value={r.LastUsedAt} />
            {r.LastUsedAddress ? <div className="muted">{r.LastUsedAddress}</div> : null}
          </>
        ) : (
          t('scimNever')
        ),
    },
    {
      id: 'actions',
      header: t('scimState'),
      cell: (r) =>
        r.RevokedAt ? (
          t('scimRevoked')
        ) : (
          <button
            type="button"
            className="button button-small button-danger"
            aria-label={`${t('scimRevoke')} ${r.Name}`}
            onClick={() => setAsked(r)}
          >
            {t('scimRevoke')}
          </button>
        ),
    },
  ];
}
