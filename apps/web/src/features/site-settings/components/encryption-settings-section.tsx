import {
  ENCODINGS,
  HASH_ALGORITHMS,
  type HashAlgorithm,
  previewBody,
  SALT_ATTACH,
  SALT_ENCODINGS,
  SETTING_SETS,
  type SettingSet,
  saveEncryptionSettingsBody,
  usesIterations,
  usesKey,
  WEAK_ALGORITHMS,
} from '@sac/contract/encryption-settings';
import { ERRORS } from '@sac/contract/errors';
import { type FormEvent, useState } from 'react';
import type { z } from 'zod';
import changedMeanwhileStyles from '../../../components/changed-meanwhile.module.css';
import { ChangedMeanwhile, changedFields } from '../../../components/changed-meanwhile.tsx';
import { CheckboxField } from '../../../components/checkbox-field.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import detailListStyles from '../../../components/detail-list.module.css';
import { FormField } from '../../../components/form-field.tsx';
import { QueryStatus } from '../../../components/query-status.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { useApiAuth } from '../../../lib/api-auth.tsx';
import { useEditConflict } from '../../../lib/edit-conflict.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import {
  type EncryptionData,
  type EncryptionRead,
  readEncryptionSettings,
  useEncryptionPreview,
  useEncryptionSettings,
  useSaveEncryptionSettings,
} from '../api/encryption-api.ts';
import type { SiteRef } from '../api/site-query.ts';
import styles from './encryption-settings-section.module.css';
import type { SectionProps } from './section-props.ts';
import sectionStyles from './settings-section.module.css';

type Field = keyof Values;
interface Values {
  EncryptionType: string;
  HashEncoding: string;
  SaltEncoding: string;
  Salt: string;
  PerPasswordSalt: boolean;
  Iterations: string;
  EncryptionKey: string;
  SaltAttach: string;
}

const dataSchema = saveEncryptionSettingsBody.shape.data;
/** What a set reads as before it is saved: the contract's defaults, Argon2id. */
const DEFAULTS = dataSchema.parse({
  EncryptionType: 'Argon2id',
  HashEncoding: 'base64',
  SaltEncoding: 'utf8',
});

const toValues = (r: EncryptionRead): Values => {
  const s = r.settings ?? DEFAULTS;
  return {
    EncryptionType: s.EncryptionType,
    HashEncoding: s.HashEncoding,
    SaltEncoding: s.SaltEncoding,
    Salt: s.Salt,
    PerPasswordSalt: s.PerPasswordSalt,
    Iterations: String(s.Iterations),
    EncryptionKey: '',
    SaltAttach: s.SaltAttach,
  };
};

const isAlgorithm = (v: string): v is HashAlgorithm => HASH_ALGORITHMS.includes(v as HashAlgorithm);

/**
 * Encryption and Hashing Settings: the password, previous-password (1037: none of its own, it uses
 * the password settings) and security-answer (1090: not set) hashing, each with a preview of the
 * stored form of a sample password and its own Save.
 */
export function EncryptionSettingsSection({ site, canWrite, headingId }: SectionProps) {
  const t = useT('siteSettings');
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('encryption')}</h2>
      <p className="muted">{t('encryptionIntro')}</p>
      {SETTING_SETS.map((set) => (
        <EncryptionSet key={set} site={site} set={set} canWrite={canWrite} />
      ))}
    </section>
  );
}

function EncryptionSet({ site, set, canWrite }: { site: SiteRef; set: SettingSet; canWrite: boolean }) {
  const t = useT('siteSettings');
  const read = useEncryptionSettings(site, set);
  const titleId = `encryption-${set}-title`;
  return (
    <section className={sectionStyles.subsection} aria-labelledby={titleId}>
      <h3 id={titleId} className="subsection-heading">
        {t(`encryptionSet.${set}`)}
      </h3>
      <QueryStatus query={read} />
      {read.data && !read.data.settings && set !== 'password' ? (
        <p className="notice notice-info">
          {set === 'previous-password' ? t('usesPasswordSettings') : t('notSetDefaults')}
        </p>
      ) : null}
      {read.data ? (
        <EncryptionForm
          key={read.dataUpdatedAt}
          site={site}
          set={set}
          current={read.data}
          canWrite={canWrite}
        />
      ) : null}
    </section>
  );
}

type EncryptionFormState = ReturnType<typeof useContractForm<Values, z.output<typeof dataSchema>>>;

const algorithmOf = (values: Values) =>
  isAlgorithm(values.EncryptionType) ? values.EncryptionType : undefined;

/** The data to send: the key only when given (empty keeps the stored one). */
function payloadOf(form: EncryptionFormState): EncryptionData | undefined {
  const data = form.submit();
  if (!data) return undefined;
  const algorithm = algorithmOf(form.values);
  const { EncryptionKey, ...rest } = data;
  return EncryptionKey && algorithm && usesKey(algorithm) ? { ...rest, EncryptionKey } : rest;
}

/** The algorithm, encodings, salt, iterations or key (as the algorithm uses them), salt place. */
function EncryptionFields({
  form,
  set,
  canWrite,
  hasKey,
}: {
  form: EncryptionFormState;
  set: SettingSet;
  canWrite: boolean;
  hasKey: boolean;
}) {
  const t = useT('siteSettings');
  const values = form.values;
  const algorithm = algorithmOf(values);
  const id = (f: string) => `encryption-${set}-${f}`;
  const set_ = form.set;
  const select = (f: Field, options: readonly string[], label: string) => (
    <SelectField
      id={id(f)}
      name={f}
      label={label}
      value={String(values[f])}
      options={options.map((o) => ({ value: o, label: o }))}
      error={form.shown(f)}
      disabled={!canWrite}
      onValueChange={(v) => set_(f, v)}
      onBlur={() => form.touch(f)}
    />
  );
  return (
    <>
      <div className="form-grid">
        {select('EncryptionType', HASH_ALGORITHMS, t('encryptionType'))}
        {select('HashEncoding', ENCODINGS, t('hashEncoding'))}
        {select('SaltEncoding', SALT_ENCODINGS, t('saltEncoding'))}
        <FormField
          id={id('Salt')}
          name="Salt"
          label={t('salt')}
          value={values.Salt}
          error={form.shown('Salt')}
          autoComplete="off"
          readOnly={!canWrite}
          onValueChange={(v) => set_('Salt', v)}
          onBlur={() => form.touch('Salt')}
        />
        {algorithm && usesIterations(algorithm) ? (
          <FormField
            id={id('Iterations')}
            name="Iterations"
            label={t('iterations')}
            value={values.Iterations}
            error={form.shown('Iterations')}
            type="number"
            inputMode="numeric"
            min={1}
            readOnly={!canWrite}
            onValueChange={(v) => set_('Iterations', v)}
            onBlur={() => form.touch('Iterations')}
          />
        ) : null}
        {algorithm && usesKey(algorithm) ? (
          <FormField
            id={id('EncryptionKey')}
            name="EncryptionKey"
            label={t('encryptionKey')}
            value={values.EncryptionKey}
            error={form.shown('EncryptionKey')}
            hint={hasKey ? t('encryptionKeyStored') : undefined}
            type="password"
            autoComplete="new-password"
            readOnly={!canWrite}
            onValueChange={(v) => set_('EncryptionKey', v)}
            onBlur={() => form.touch('EncryptionKey')}
          />
        ) : null}
        <SelectField
          id={id('SaltAttach')}
          name="SaltAttach"
          label={t('saltAttach')}
          value={values.SaltAttach}
          options={SALT_ATTACH.map((o) => ({ value: o, label: t(`saltAttach.${o}`) }))}
          error={form.shown('SaltAttach')}
          disabled={!canWrite}
          onValueChange={(v) => set_('SaltAttach', v)}
          onBlur={() => form.touch('SaltAttach')}
        />
      </div>
      <CheckboxField
        id={id('PerPasswordSalt')}
        name="PerPasswordSalt"
        label={t('perPasswordSalt')}
        checked={values.PerPasswordSalt}
        disabled={!canWrite}
        onCheckedChange={(v) => set_('PerPasswordSalt', v)}
      />
    </>
  );
}

/** The stored form of a sample password under the settings as they read (not yet saved). */
function EncryptionPreview({
  site,
  set,
  form,
  weak,
}: {
  site: SiteRef;
  set: SettingSet;
  form: EncryptionFormState;
  weak: string | undefined;
}) {
  const t = useT('siteSettings');
  const preview = useEncryptionPreview(site, set);
  const [sample, setSample] = useState('');
  const [sampleError, setSampleError] = useState<string | undefined>();

  const onPreview = () => {
    const data = payloadOf(form);
    const r = previewBody.shape.Sample.safeParse(sample);
    setSampleError(r.success ? undefined : r.error.issues[0]?.message);
    if (!data || !r.success || preview.isPending) return;
    // The preview computes at most PREVIEW_MAX_ITERATIONS: say so under Iterations, before sending.
    const checked = previewBody.safeParse({ data, Sample: sample });
    const capped = checked.success
      ? undefined
      : checked.error.issues.find((i) => i.path.join('.') === 'data.Iterations')?.message;
    if (capped) {
      form.setServerErrors({ Iterations: capped });
      return;
    }
    preview.mutate({ data, Sample: sample });
  };

  const result = preview.data?.Data;
  return (
    <div className={`${sectionStyles.subsection} encryption-preview`}>
      <h4 className="subsection-heading">{t('previewTitle')}</h4>
      <div className="form-grid">
        <FormField
          id={`encryption-${set}-Sample`}
          name="Sample"
          label={t('samplePassword')}
          value={sample}
          error={sampleError}
          autoComplete="off"
          onValueChange={(v) => {
            setSample(v);
            setSampleError(undefined);
          }}
        />
      </div>
      <div className="form-actions">
        <button type="button" className="button" aria-busy={preview.isPending} onClick={onPreview}>
          {preview.isPending ? t('previewing') : t('preview')}
        </button>
      </div>
      {result ? (
        <>
          <dl className={`${detailListStyles.detailList} ${detailListStyles.detailListWide}`}>
            <div>
              <dt>{t('storedForm')}</dt>
              <dd>
                <span className={sectionStyles.copyCell}>
                  <code className={styles.storedForm}>{result.Stored}</code>
                  <CopyButton
                    text={result.Stored}
                    label={t('copyStoredForm', { set: t(`encryptionSet.${set}`) })}
                  />
                </span>
              </dd>
            </div>
            <div>
              <dt>{t('saltUsed')}</dt>
              <dd>{result.SaltUsed ? <code>{result.SaltUsed}</code> : t('noSalt')}</dd>
            </div>
          </dl>
          {result.Weak && result.Weak !== weak ? (
            <p className={`notice ${changedMeanwhileStyles.noticeWarning}`}>
              {t('weakAlgorithm', { reason: result.Weak })}
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

function EncryptionForm({
  site,
  set,
  current,
  canWrite,
}: {
  site: SiteRef;
  set: SettingSet;
  current: EncryptionRead;
  canWrite: boolean;
}) {
  const t = useT('siteSettings');
  const save = useSaveEncryptionSettings(site, set);
  const auth = useApiAuth();
  const conflict = useEditConflict<EncryptionRead>({ data: current, version: current.version }, async () => {
    const now = await readEncryptionSettings(auth, site, set);
    return { data: now, version: now.version };
  });
  const form = useContractForm(dataSchema, { initial: toValues(current) });
  const algorithm = algorithmOf(form.values);
  const weak = algorithm ? WEAK_ALGORITHMS[algorithm] : undefined;

  const send = (ifMatch: string | undefined) => {
    const data = payloadOf(form);
    if (!data || save.isPending) return;
    save.mutate(
      { data, ifMatch },
      {
        onSuccess: ({ answer }) => {
          form.reset(form.values);
          toast.success(answer.Message || t('encryptionSaved'));
        },
        onError: async (error) => {
          if (await conflict.refused(error)) return;
          form.serverFailed(error, { [ERRORS.encryptionKeyNeeded.code]: 'EncryptionKey' });
        },
      },
    );
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send(conflict.version);
  };
  const loadTheirs = () => {
    const theirs = conflict.loadTheirs();
    if (theirs) form.reset(toValues(theirs));
  };
  const labels: Partial<Record<Field, string>> = {
    EncryptionType: t('encryptionType'),
    HashEncoding: t('hashEncoding'),
    SaltEncoding: t('saltEncoding'),
    Salt: t('salt'),
    PerPasswordSalt: t('perPasswordSalt'),
    Iterations: t('iterations'),
    SaltAttach: t('saltAttach'),
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t(`encryptionSet.${set}`)}>
      {conflict.theirs ? (
        <ChangedMeanwhile
          changes={changedFields(toValues(conflict.filledFrom), toValues(conflict.theirs.data), labels)}
          onLoadTheirs={loadTheirs}
          onOverwrite={() => send(conflict.overwrite())}
          busy={save.isPending}
        />
      ) : null}
      <EncryptionFields
        form={form}
        set={set}
        canWrite={canWrite}
        hasKey={current.settings?.HasEncryptionKey ?? false}
      />
      {weak ? (
        <p className={`notice ${changedMeanwhileStyles.noticeWarning}`} role="status">
          {t('weakAlgorithm', { reason: weak })}
        </p>
      ) : null}
      <EncryptionPreview site={site} set={set} form={form} weak={weak} />
      {canWrite ? (
        <div className="form-actions">
          <button type="submit" className="button button-primary" aria-busy={save.isPending}>
            {save.isPending ? t('saving') : t('save')}
          </button>
        </div>
      ) : null}
    </form>
  );
}
