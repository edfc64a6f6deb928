import type { PasskeyInfo } from '@sac/contract/mfa';
import { passkeyName } from '@sac/contract/mfa';
import { type FormEvent, useState } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { formatDateTimeMinutes } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast-store.ts';
import {
  useAddPasskey,
  useConfirmTotp,
  useMyFactors,
  useRemovePasskey,
  useRemoveTotp,
  useRenamePasskey,
  useRenewRecoveryCodes,
  useStartTotp,
} from '../api/auth-api.ts';
import styles from './security-page.module.css';
import { OneTimeCodeField, RecoveryCodes, TotpSetup } from './totp-setup.tsx';

/** The current password, asked before a factor is added or removed; one field for the page. */
function PasswordField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const t = useT('security');
  return (
    <FormField
      id="security-password"
      name="password"
      type="password"
      label={t('currentPassword')}
      autoComplete="current-password"
      value={value}
      onValueChange={onChange}
    />
  );
}

function PasskeyRow({ p, password }: { p: PasskeyInfo; password: string }) {
  const t = useT('security');
  const ta = useT('auth');
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(p.Name);
  const [error, setError] = useState<string>();
  const save = (e: FormEvent) => {
    e.preventDefault();
    const parsed = passkeyName.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    rename.mutate(
      { Id: p.Id, Name: parsed.data },
      {
        onSuccess: (a) => {
          toast.success(a.Message);
          setEditing(false);
        },
      },
    );
  };
  return (
    <tr>
      <td>
        {editing ? (
          <form onSubmit={save} noValidate className="inline-form">
            <FormField
              id={`passkey-name-${p.Id}`}
              name="name"
              label={ta('passkeyName')}
              value={name}
              error={error}
              maxLength={64}
              onValueChange={setName}
            />
            <button type="submit" className="button button-small" aria-busy={rename.isPending}>
              {t('save')}
            </button>
            <button type="button" className="button button-small" onClick={() => setEditing(false)}>
              {t('cancel')}
            </button>
          </form>
        ) : (
          p.Name
        )}
      </td>
      <td>
        <Timestamp value={p.CreatedAt} />
      </td>
      <td>{p.LastUsedAt ? <Timestamp value={p.LastUsedAt} /> : t('never')}</td>
      <td className="actions">
        {editing ? null : (
          <button type="button" className="button button-small" onClick={() => setEditing(true)}>
            {t('rename')}
            <span className="visually-hidden"> {p.Name}</span>
          </button>
        )}{' '}
        <button
          type="button"
          className="button button-small button-danger"
          aria-busy={remove.isPending}
          onClick={() =>
            remove.mutate({ Id: p.Id, password }, { onSuccess: (a) => toast.success(a.Message) })
          }
        >
          {t('remove')}
          <span className="visually-hidden"> {p.Name}</span>
        </button>
      </td>
    </tr>
  );
}

type Factors = NonNullable<ReturnType<typeof useMyFactors>['data']>;
/** A factor added: its message, and the recovery codes when it was the account's first. */
type OnAdded = (a: { Message: string; RecoveryCodes?: string[] | undefined }) => void;

function PasskeysTable({ passkeys, password }: { passkeys: PasskeyInfo[]; password: string }) {
  const t = useT('security');
  return (
    <div className="data-table">
      <TableScroll label={t('passkeysHeading')}>
        <table>
          <caption className="visually-hidden">{t('passkeysHeading')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('name')}</th>
              <th scope="col">{t('created')}</th>
              <th scope="col">{t('lastUsed')}</th>
              <th scope="col">{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {passkeys.map((p) => (
              <PasskeyRow key={p.Id} p={p} password={password} />
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}

function AddPasskeyForm({ password, onAdded }: { password: string; onAdded: OnAdded }) {
  const ta = useT('auth');
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const addPasskey = useAddPasskey(ta('passkeyCancelled'));
  const onAddPasskey = (e: FormEvent) => {
    e.preventDefault();
    const parsed = passkeyName.safeParse(name);
    if (!parsed.success) return setNameError(parsed.error.issues[0]?.message);
    setNameError(undefined);
    addPasskey.mutate(
      { password, Name: parsed.data },
      {
        onSuccess: (a) => {
          setName('');
          onAdded(a);
        },
      },
    );
  };
  return (
    <form
      onSubmit={onAddPasskey}
      noValidate
      aria-label={ta('addPasskey')}
      className={`inline-form ${styles.mfaBlock}`}
    >
      <FormField
        id="new-passkey-name"
        name="passkeyName"
        label={ta('passkeyName')}
        hint={ta('passkeyNameHint')}
        value={name}
        error={nameError}
        maxLength={64}
        onValueChange={setName}
      />
      <button type="submit" className="button button-primary" aria-busy={addPasskey.isPending}>
        {ta('addPasskey')}
      </button>
    </form>
  );
}

/** The authenticator app: on (remove), being set up (QR code and a code to confirm), or off (set up). */
function AuthenticatorApp({
  totp,
  password,
  onAdded,
}: {
  totp: Factors['Totp'] | undefined;
  password: string;
  onAdded: OnAdded;
}) {
  const t = useT('security');
  const ta = useT('auth');
  const [code, setCode] = useState('');
  const startTotp = useStartTotp();
  const confirmTotp = useConfirmTotp();
  const removeTotp = useRemoveTotp();
  if (totp) {
    return (
      <p>
        {t('totpOn', {
          date: formatDateTimeMinutes(totp.CreatedAt),
          used: totp.LastUsedAt ? formatDateTimeMinutes(totp.LastUsedAt) : t('never'),
        })}{' '}
        <button
          type="button"
          className="button button-small button-danger"
          aria-busy={removeTotp.isPending}
          onClick={() => removeTotp.mutate(password, { onSuccess: (a) => toast.success(a.Message) })}
        >
          {t('remove')}
        </button>
      </p>
    );
  }
  if (startTotp.data && !confirmTotp.isSuccess) {
    return (
      <form
        noValidate
        aria-label={ta('useAuthenticatorApp')}
        onSubmit={(e) => {
          e.preventDefault();
          confirmTotp.mutate(code, {
            onSuccess: (a) => {
              setCode('');
              startTotp.reset();
              onAdded(a);
            },
          });
        }}
      >
        <TotpSetup otpauthUrl={startTotp.data.OtpauthUrl} secret={startTotp.data.Secret} />
        <OneTimeCodeField id="totp-confirm-code" label={ta('confirmCode')} value={code} onChange={setCode} />
        <button type="submit" className="button button-primary" aria-busy={confirmTotp.isPending}>
          {ta('confirm')}
        </button>
      </form>
    );
  }
  return (
    <>
      <p className="muted">{t('totpOff')}</p>
      <button
        type="button"
        className="button"
        aria-busy={startTotp.isPending}
        onClick={() => {
          confirmTotp.reset();
          startTotp.mutate(password);
        }}
      >
        {t('setUpApp')}
      </button>
    </>
  );
}

/** How many recovery codes are left (renew), once the account has a factor. */
function RecoveryCodesLeft({
  factors,
  password,
  onAdded,
}: {
  factors: Factors | undefined;
  password: string;
  onAdded: OnAdded;
}) {
  const t = useT('security');
  const renew = useRenewRecoveryCodes();
  if (!factors || (!factors.Totp && factors.Passkeys.length === 0))
    return <p className="muted">{t('recoveryNone')}</p>;
  return (
    <p>
      {t('recoveryLeft', { n: factors.RecoveryCodesLeft })}{' '}
      <button
        type="button"
        className="button button-small"
        aria-busy={renew.isPending}
        onClick={() => renew.mutate(password, { onSuccess: onAdded })}
      >
        {t('renewRecovery')}
      </button>
    </p>
  );
}

/**
 * /account/security: my passkeys (name, created, last used; rename, remove), my authenticator
 * app (set up with a QR code and its secret as text, remove), and my recovery codes (renew).
 * Adding and removing need the current password.
 */
export default function SecurityPage() {
  const t = useT('security');
  const auth = useT('auth');
  const { email } = useCurrentUser();
  const factors = useMyFactors();
  const [password, setPassword] = useState('');
  const [codes, setCodes] = useState<string[]>();
  const f = factors.data;
  const added: OnAdded = (a) => {
    toast.success(a.Message);
    if (a.RecoveryCodes) setCodes(a.RecoveryCodes);
  };

  return (
    <section className="card" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('securityHeading')}</h1>
          <p className="muted">{t('securityIntro')}</p>
          {f?.Required ? <p className="muted">{t('securityRequired')}</p> : null}
        </div>
      </div>
      {codes ? (
        // A dialog: the success toast of the factor just added is shown above the codes, not over them.
        <Dialog title={auth('recoveryHeading')} onClose={() => setCodes(undefined)} wide>
          <RecoveryCodes
            codes={codes}
            email={email}
            heading={false}
            doneLabel={t('done')}
            onDone={() => setCodes(undefined)}
          />
        </Dialog>
      ) : null}
      <PasswordField value={password} onChange={setPassword} />

      <h2 className={styles.mfaHeading}>{t('passkeysHeading')}</h2>
      {f && f.Passkeys.length > 0 ? (
        <PasskeysTable passkeys={f.Passkeys} password={password} />
      ) : (
        <p className="muted">{factors.isPending ? '…' : t('noPasskeys')}</p>
      )}
      <AddPasskeyForm password={password} onAdded={added} />

      <h2 className={styles.mfaHeading}>{t('authenticatorHeading')}</h2>
      <AuthenticatorApp totp={f?.Totp} password={password} onAdded={added} />

      <h2 className={styles.mfaHeading}>{t('recoveryCodesHeading')}</h2>
      <RecoveryCodesLeft factors={f} password={password} onAdded={added} />
    </section>
  );
}
