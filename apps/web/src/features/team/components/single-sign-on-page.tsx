import type { BodyOf, ResponseOf } from '@sac/contract/endpoints';
import { BUILT_IN_ROLES } from '@sac/contract/permissions';
import { ssoSettingsBody } from '@sac/contract/sso';
import { type FormEvent, useEffect, useState } from 'react';
import { CheckboxField } from '../../../components/checkbox-field.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { QueryStatus } from '../../../components/query-status.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useSaveSsoSettings, useSsoSettings, useTestSsoIssuer } from '../api/sso-api.ts';
import { useTeamRoles } from '../api/team-api.ts';
import { ScimTokensCard } from './scim-tokens-card.tsx';
import styles from './single-sign-on-page.module.css';

type Settings = ResponseOf<'ssoSettings'>;
type Draft = Omit<BodyOf<'ssoSettingsUpdate'>, 'SecondFactorValues' | 'BreakGlassEmail'> & {
  SecondFactorValues: string;
  BreakGlassEmail: string;
};

/** The built-in roles, offered while the roles (custom ones too) are read. */
const BUILT_IN = Object.keys(BUILT_IN_ROLES);

const draftOf = (s: Settings): Draft => ({
  Enabled: s.Enabled,
  Name: s.Name,
  Issuer: s.Issuer,
  ClientId: s.ClientId,
  ClientSecret: '',
  GroupsClaim: s.GroupsClaim,
  CreateOnFirstSignIn: s.CreateOnFirstSignIn,
  SecondFactorValues: s.SecondFactorValues.join(' '),
  PasswordSignIn: s.PasswordSignIn,
  BreakGlassEmail: s.BreakGlassEmail ?? '',
  GroupRoles: s.GroupRoles,
});

const bodyOf = (d: Draft) =>
  ssoSettingsBody.safeParse({
    ...d,
    SecondFactorValues: d.SecondFactorValues.split(/[\s,]+/).filter(Boolean),
    BreakGlassEmail: d.BreakGlassEmail.trim() || null,
    GroupRoles: d.GroupRoles.filter((g) => g.Group.trim() !== ''),
  });

/**
 * /manage-superuser/single-sign-on (sso.manage, SuperAdmins): the OpenID provider staff sign in
 * with, its group-to-role table, and password sign-in with its break-glass account. The client
 * secret is write-only: left empty, the stored one stays.
 */
export default function SingleSignOnPage() {
  const t = useT('team');
  const settings = useSsoSettings();
  const save = useSaveSsoSettings();
  const [draft, setDraft] = useState<Draft | undefined>();
  useEffect(() => {
    if (settings.data && !draft) setDraft(draftOf(settings.data));
  }, [settings.data, draft]);
  const set = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!draft || save.isPending) return;
    const parsed = bodyOf(draft);
    if (!parsed.success) {
      toast.error(parsed.error.issues[0]?.message ?? t('ssoInvalid'));
      return;
    }
    save.mutate(parsed.data, {
      onSuccess: (saved) => {
        setDraft(draftOf(saved));
        toast.success(t('ssoSaved'));
      },
    });
  };

  return (
    <div className="page-stack">
      <section className="card form-card" aria-labelledby="screen-title">
        <h1 id="screen-title">{t('singleSignOn')}</h1>
        <p className="muted">{t('ssoIntro')}</p>
        <QueryStatus query={settings} />
        {settings.data && draft ? (
          <form onSubmit={onSubmit} noValidate>
            <ProviderFields draft={draft} set={set} settings={settings.data} />
            <GroupRolesField draft={draft} set={set} />
            <PasswordFields draft={draft} set={set} />
            <div className="form-actions">
              <button type="submit" className="button button-primary" aria-busy={save.isPending}>
                {save.isPending ? t('saving') : t('save')}
              </button>
              <button type="button" className="button" onClick={() => setDraft(draftOf(settings.data))}>
                {t('reset')}
              </button>
            </div>
          </form>
        ) : null}
      </section>
      <ScimTokensCard />
    </div>
  );
}

type FieldsProps = { draft: Draft; set: (patch: Partial<Draft>) => void };

function ProviderFields({ draft, set, settings }: FieldsProps & { settings: Settings }) {
  const t = useT('team');
  const test = useTestSsoIssuer();
  return (
    <fieldset className={styles.group}>
      <legend>{t('ssoProvider')}</legend>
      <CheckboxField
        id="sso-enabled"
        name="Enabled"
        label={t('ssoEnabled')}
        checked={draft.Enabled}
        onCheckedChange={(v) => set({ Enabled: v })}
      />
      <FormField
        id="sso-name"
        name="Name"
        label={t('ssoName')}
        hint={t('ssoNameHint')}
        value={draft.Name}
        onValueChange={(v) => set({ Name: v })}
      />
      <FormField
        id="sso-issuer"
        name="Issuer"
        label={t('ssoIssuer')}
        hint={t('ssoIssuerHint')}
        value={draft.Issuer}
        autoComplete="off"
        onValueChange={(v) => set({ Issuer: v })}
      />
      <div className={styles.testRow}>
        <button
          type="button"
          className="button"
          disabled={!draft.Issuer.trim() || test.isPending}
          aria-busy={test.isPending}
          onClick={() => test.mutate(draft.Issuer.trim())}
        >
          {t('ssoTest')}
        </button>
        {test.data ? (
          <p role="status" className={test.data.Ok ? styles.ok : styles.problem}>
            {test.data.Ok ? t('ssoTestOk', { keys: test.data.Keys }) : test.data.Problem}
          </p>
        ) : null}
      </div>
      <div className={styles.redirect}>
        <span className="muted">{t('ssoRedirectUri')}</span> <code>{settings.RedirectUri}</code>{' '}
        <CopyButton text={settings.RedirectUri} label={t('ssoRedirectUri')} />
      </div>
      <FormField
        id="sso-client-id"
        name="ClientId"
        label={t('ssoClientId')}
        value={draft.ClientId}
        autoComplete="off"
        onValueChange={(v) => set({ ClientId: v })}
      />
      <FormField
        id="sso-client-secret"
        name="ClientSecret"
        type="password"
        label={t('ssoClientSecret')}
        hint={settings.ClientSecretSet ? t('ssoSecretKept') : t('ssoSecretNone')}
        autoComplete="new-password"
        value={draft.ClientSecret ?? ''}
        onValueChange={(v) => set({ ClientSecret: v })}
      />
      <FormField
        id="sso-claim"
        name="GroupsClaim"
        label={t('ssoGroupsClaim')}
        value={draft.GroupsClaim}
        autoComplete="off"
        onValueChange={(v) => set({ GroupsClaim: v })}
      />
      <FormField
        id="sso-amr"
        name="SecondFactorValues"
        label={t('ssoSecondFactor')}
        hint={t('ssoSecondFactorHint')}
        value={draft.SecondFactorValues}
        autoComplete="off"
        onValueChange={(v) => set({ SecondFactorValues: v })}
      />
      <CheckboxField
        id="sso-create"
        name="CreateOnFirstSignIn"
        label={t('ssoCreate')}
        hint={t('ssoCreateHint')}
        checked={draft.CreateOnFirstSignIn}
        onCheckedChange={(v) => set({ CreateOnFirstSignIn: v })}
      />
    </fieldset>
  );
}

function GroupRolesField({ draft, set }: FieldsProps) {
  const t = useT('team');
  const rows = draft.GroupRoles;
  const roles = useTeamRoles().data?.map((r) => r.Name) ?? BUILT_IN;
  // a row's own role stays offered even if it is not listed (yet)
  const optionsOf = (role: string) =>
    (roles.includes(role) ? roles : [...roles, role]).map((x) => ({ value: x, label: x }));
  const put = (i: number, patch: Partial<(typeof rows)[number]>) =>
    set({ GroupRoles: rows.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  return (
    <fieldset className={styles.group}>
      <legend>{t('ssoGroupRoles')}</legend>
      <p className="muted">{t('ssoGroupRolesHint')}</p>
      {rows.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place while edited
        <div className={styles.groupRow} key={i}>
          <FormField
            id={`sso-group-${i}`}
            name={`group-${i}`}
            label={t('ssoGroup')}
            value={r.Group}
            autoComplete="off"
            onValueChange={(v) => put(i, { Group: v })}
          />
          <SelectField
            id={`sso-role-${i}`}
            name={`role-${i}`}
            label={t('ssoRole')}
            value={r.Role}
            options={optionsOf(r.Role)}
            onValueChange={(v) => put(i, { Role: v })}
          />
          <button
            type="button"
            className="button"
            onClick={() => set({ GroupRoles: rows.filter((_, j) => j !== i) })}
          >
            {t('ssoRemoveGroup')}
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button"
        onClick={() => set({ GroupRoles: [...rows, { Group: '', Role: 'Support' }] })}
      >
        {t('ssoAddGroup')}
      </button>
    </fieldset>
  );
}

function PasswordFields({ draft, set }: FieldsProps) {
  const t = useT('team');
  return (
    <fieldset className={styles.group}>
      <legend>{t('ssoPasswordSignIn')}</legend>
      <CheckboxField
        id="sso-password"
        name="PasswordSignIn"
        label={t('ssoPasswordOn')}
        hint={t('ssoPasswordHint')}
        checked={draft.PasswordSignIn}
        onCheckedChange={(v) => set({ PasswordSignIn: v })}
      />
      <FormField
        id="sso-break-glass"
        name="BreakGlassEmail"
        type="email"
        label={t('ssoBreakGlass')}
        hint={t('ssoBreakGlassHint')}
        value={draft.BreakGlassEmail}
        autoComplete="off"
        onValueChange={(v) => set({ BreakGlassEmail: v })}
      />
    </fieldset>
  );
}
