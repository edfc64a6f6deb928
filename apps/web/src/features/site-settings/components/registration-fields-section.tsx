import {
  customFieldBody,
  DEFAULT_FIELD_NAMES,
  defaultFieldsBody,
  FIELD_MESSAGES,
  FIELD_TYPES,
} from '@sac/contract/registration-fields';
import { type FormEvent, useState } from 'react';
import { ChangedMeanwhile, changedFields } from '../../../components/changed-meanwhile.tsx';
import checkboxGroupStyles from '../../../components/checkbox-group.module.css';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import formFieldStyles from '../../../components/form-field.module.css';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { useApiAuth } from '../../../lib/api-auth.tsx';
import { ApiError, errorText } from '../../../lib/api-client.ts';
import { useEditConflict } from '../../../lib/edit-conflict.ts';
import { serverFieldErrors, useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useLeaveGuard } from '../../../lib/leave-guard.ts';
import { toast } from '../../../lib/toast-store.ts';
import {
  type FieldsRead,
  type RegistrationField,
  readRegistrationFields,
  useAddCustomField,
  useDataSources,
  useRegistrationFields,
  useSaveDefaultFields,
} from '../api/registration-api.ts';
import type { SiteRef } from '../api/site-query.ts';
import { EnabledBadge } from './integrations-section.tsx';
import styles from './registration-fields-section.module.css';
import type { SectionProps } from './section-props.ts';
import sectionStyles from './settings-section.module.css';

const PAGE_SIZE = 50;
type DefaultName = (typeof DEFAULT_FIELD_NAMES)[number];
const isDefaultName = (n: string): n is DefaultName => DEFAULT_FIELD_NAMES.includes(n as DefaultName);

/**
 * Registration Fields: the default and custom fields with their rules. With site-settings.write the
 * default fields can be switched on and off and their rules edited ('Save default fields'), and
 * custom fields added.
 */
export function RegistrationFieldsSection({ site, canWrite, headingId }: SectionProps) {
  const t = useT('siteSettings');
  const fields = useRegistrationFields(site);
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('registrationFields')}</h2>
      <p className="muted">{t('registrationFieldsIntro')}</p>
      <FieldsTable
        site={site}
        canWrite={canWrite}
        read={fields.data}
        isLoading={fields.isPending}
        error={fields.isError ? fields.error : undefined}
      />
      {canWrite ? <AddCustomFieldForm site={site} /> : null}
    </section>
  );
}

interface Edit {
  Enabled: boolean;
  Rules: string;
}

const editsOf = (rows: readonly RegistrationField[] | undefined): Record<string, Edit> =>
  Object.fromEntries(
    (rows ?? [])
      .filter((r) => !r.Custom && isDefaultName(r.Name))
      .map((r) => [r.Name, { Enabled: r.Enabled, Rules: r.Rules }]),
  );

/** The default fields' edits as a stored state, for what changed meanwhile. */
const labelled = (edits: Record<string, Edit>) =>
  Object.fromEntries(
    Object.entries(edits).map(([name, e]) => [
      name,
      `${e.Enabled ? 'on' : 'off'}${e.Rules ? `, ${e.Rules}` : ''}`,
    ]),
  );

type Edits = Record<string, Edit>;

/**
 * The default fields' edits, from the version read: a new version of the default fields starts
 * them again from it (a custom field added keeps them); leaving with edits not saved asks first.
 */
function useFieldEdits(site: SiteRef, read: FieldsRead | undefined) {
  const auth = useApiAuth();
  const rows = read?.fields;
  const [edits, setEdits] = useState<Edits>(() => editsOf(rows));
  const conflict = useEditConflict<Edits>({ data: editsOf(rows), version: read?.version }, async () => {
    const now = await readRegistrationFields(auth, site);
    return { data: editsOf(now.fields), version: now.version };
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const readKey = read ? `read-${read.version}` : undefined;
  const [syncedKey, setSyncedKey] = useState(readKey);
  if (readKey !== syncedKey) {
    setSyncedKey(readKey);
    setEdits(editsOf(rows));
    setErrors({});
    conflict.saved({ data: editsOf(rows), version: read?.version });
  }
  useLeaveGuard(JSON.stringify(edits) !== JSON.stringify(conflict.filledFrom));
  const setEdit = (name: string, change: Partial<Edit>) => {
    setEdits((prev) => ({ ...prev, [name]: { ...(prev[name] as Edit), ...change } }));
    setErrors((prev) => ({ ...prev, [name]: '' }));
  };
  return { edits, setEdits, setEdit, errors, setErrors, conflict };
}

type FieldEdits = ReturnType<typeof useFieldEdits>;

/** A default field's rules as a text box, with its error under it. */
function RulesInput({
  name,
  edit,
  error,
  onChange,
}: {
  name: string;
  edit: Edit;
  error?: string;
  onChange: (rules: string) => void;
}) {
  const t = useT('siteSettings');
  const id = `default-field-${name}-Rules`;
  return (
    <div className={`field field-inline${error ? ' has-error' : ''}`}>
      <input
        id={id}
        className={styles.codeInput}
        aria-label={t('rulesOf', { name })}
        value={edit.Rules}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? (
        <p id={`${id}-error`} className={formFieldStyles.fieldError}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The table's columns; a default field the user may edit has its rules and switch as controls. */
function useFieldColumns(
  { edits, errors, setEdit }: FieldEdits,
  canWrite: boolean,
): Column<RegistrationField>[] {
  const t = useT('siteSettings');
  const editOf = (r: RegistrationField) =>
    canWrite && !r.Custom && r.Name in edits ? edits[r.Name] : undefined;
  return [
    { id: 'name', header: t('colName'), sortValue: (r) => r.Name, cell: (r) => <code>{r.Name}</code> },
    { id: 'display', header: t('colDisplay'), sortValue: (r) => r.Display, cell: (r) => r.Display },
    { id: 'type', header: t('colType'), sortValue: (r) => r.Type, cell: (r) => r.Type },
    {
      id: 'rules',
      header: t('colRules'),
      cell: (r) => {
        const edit = editOf(r);
        if (edit)
          return (
            <RulesInput
              name={r.Name}
              edit={edit}
              error={errors[r.Name]}
              onChange={(Rules) => setEdit(r.Name, { Rules })}
            />
          );
        return r.Rules ? <code>{r.Rules}</code> : t('notSet');
      },
    },
    {
      id: 'kind',
      header: t('colKind'),
      sortValue: (r) => (r.Custom ? t('kindCustom') : t('kindDefault')),
      cell: (r) => (r.Custom ? t('kindCustom') : t('kindDefault')),
    },
    {
      id: 'enabled',
      header: t('colEnabled'),
      cell: (r) => {
        const edit = editOf(r);
        if (edit) {
          return (
            <input
              type="checkbox"
              className={checkboxGroupStyles.checkboxInput}
              aria-label={t('enableField', { name: r.Name })}
              checked={edit.Enabled}
              onChange={(e) => setEdit(r.Name, { Enabled: e.target.checked })}
            />
          );
        }
        return <EnabledBadge enabled={r.Enabled} />;
      },
    },
  ];
}

type FieldsBody = { Fields: ({ Name: string } & Edit)[] };

/** The first message per field of the body's failed parse, by the field's name. */
function parseErrors(body: FieldsBody, issues: readonly { path: PropertyKey[]; message: string }[]) {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const index = issue.path[1];
    const name = typeof index === 'number' ? body.Fields[index]?.Name : undefined;
    if (name && !out[name]) out[name] = issue.message;
  }
  return out;
}

/** The server's first message per field ('Fields.<index>.…'), by the field's name. */
function serverErrors(body: FieldsBody, error: ApiError) {
  const out: Record<string, string> = {};
  for (const fe of error.envelope?.FieldErrors ?? []) {
    const m = /^Fields\.(\d+)\./.exec(fe.Field);
    const name = m ? body.Fields[Number(m[1])]?.Name : undefined;
    if (name && !out[name]) out[name] = fe.Message;
  }
  return out;
}

/** The fields, and the default ones' switches and rules as edits. */
function FieldsTable({
  site,
  canWrite,
  read,
  isLoading,
  error,
}: {
  site: SiteRef;
  canWrite: boolean;
  read: FieldsRead | undefined;
  isLoading: boolean;
  error: unknown;
}) {
  const t = useT('siteSettings');
  const common = useT('common');
  const save = useSaveDefaultFields(site);
  const rows = read?.fields;
  const fieldEdits = useFieldEdits(site, read);
  const { edits, setEdits, setErrors, conflict } = fieldEdits;
  const [alert, setAlert] = useState<string | undefined>();
  const columns = useFieldColumns(fieldEdits, canWrite);

  const send = (ifMatch: string | undefined) => {
    const body = { Fields: Object.entries(edits).map(([Name, e]) => ({ Name, ...e })) };
    // Customers sign in with their email or phone: one of the two stays enabled (the server checks too).
    const off = (name: string) =>
      (edits[name]?.Enabled ?? rows?.find((r) => r.Name === name)?.Enabled) === false;
    setAlert(undefined);
    if (off('EmailId') && off('PhoneId')) {
      setAlert(FIELD_MESSAGES.identifierNeeded);
      return;
    }
    const r = defaultFieldsBody.safeParse(body);
    if (!r.success) {
      setErrors(parseErrors(body, r.error.issues));
      return;
    }
    if (save.isPending) return;
    save.mutate(
      { body: r.data, ifMatch },
      {
        onSuccess: ({ answer, read }) => {
          conflict.saved({ data: editsOf(read.fields), version: read.version });
          toast.success(answer.Message);
        },
        onError: async (e) => {
          if (await conflict.refused(e)) return;
          if (!(e instanceof ApiError)) return;
          if (e.fieldError('Fields')) setAlert(e.fieldError('Fields'));
          setErrors(serverErrors(body, e));
        },
      },
    );
  };
  const loadTheirs = () => {
    const theirs = conflict.loadTheirs();
    if (theirs) setEdits(theirs);
  };
  const fieldLabels = Object.fromEntries(Object.keys(edits).map((name) => [name, name]));

  return (
    <>
      {conflict.theirs ? (
        <ChangedMeanwhile
          changes={changedFields(labelled(conflict.filledFrom), labelled(conflict.theirs.data), fieldLabels)}
          onLoadTheirs={loadTheirs}
          onOverwrite={() => send(conflict.overwrite())}
          busy={save.isPending}
        />
      ) : null}
      <DataTable
        label={t('registrationFieldsTable')}
        columns={columns}
        rows={rows}
        rowKey={(r) => r.Name}
        isLoading={isLoading}
        error={error ? errorText(error, common('tableFetchError')) : undefined}
        pageSize={PAGE_SIZE}
      />
      {alert ? (
        <p className="form-alert" role="alert">
          {alert}
        </p>
      ) : null}
      {canWrite && Object.keys(edits).length > 0 ? (
        <div className="form-actions">
          <button
            type="button"
            className="button button-primary"
            aria-busy={save.isPending}
            onClick={() => send(conflict.version)}
          >
            {save.isPending ? t('saving') : t('saveDefaultFields')}
          </button>
        </div>
      ) : null}
    </>
  );
}

const FIELDS = ['Name', 'Display', 'Type', 'Rules', 'DataSource'] as const;
type Field = (typeof FIELDS)[number];
const EMPTY: Record<Field, string> = { Name: '', Display: '', Type: 'string', Rules: '', DataSource: '' };

/**
 * 'Add custom field': name, display name, type, rules in the pipe form (optional) and, for a
 * dropdown, its data source; checked by the contract's schema, the server's messages under the fields.
 */
function AddCustomFieldForm({ site }: { site: SiteRef }) {
  const t = useT('siteSettings');
  const add = useAddCustomField(site);
  const sources = useDataSources(site);
  const form = useContractForm(customFieldBody, { initial: EMPTY, showErrors: 'submit' });
  const field = (f: Field) => ({
    id: `custom-field-${f}`,
    name: f,
    value: form.values[f],
    error: form.shown(f),
    onValueChange: (v: string) => form.set(f, v),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || add.isPending) return;
    add.mutate(
      { ...data, DataSource: data.Type === 'dropdown' ? data.DataSource : '' },
      {
        onSuccess: ({ answer }) => {
          toast.success(answer.Message || t('customFieldSaved'));
          form.reset(EMPTY);
        },
        onError: (error) => {
          if (!(error instanceof ApiError)) return;
          const fields = serverFieldErrors(error.envelope?.FieldErrors, FIELDS);
          if (error.status === 409 && error.serverText) fields.Name = error.serverText;
          if (Object.keys(fields).length > 0) form.setServerErrors(fields);
        },
      },
    );
  };
  return (
    <form
      className={sectionStyles.subsection}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="add-custom-field-title"
    >
      <h3 id="add-custom-field-title" className="subsection-heading">
        {t('addCustomField')}
      </h3>
      <div className="form-grid">
        <FormField {...field('Name')} label={t('customFieldName')} autoComplete="off" required />
        <FormField {...field('Display')} label={t('displayName')} autoComplete="off" required />
        <SelectField
          {...field('Type')}
          label={t('fieldType')}
          options={FIELD_TYPES.map((ft) => ({ value: ft, label: t(`fieldType.${ft}`) }))}
        />
        {form.values.Type === 'dropdown' ? (
          <SelectField
            {...field('DataSource')}
            label={t('dataSource')}
            placeholder={t('chooseDataSource')}
            options={(sources.data ?? []).map((d) => ({ value: d.Name, label: d.Name }))}
            required
          />
        ) : null}
      </div>
      <FormField
        {...field('Rules')}
        label={t('fieldRules')}
        hint={t('fieldRulesHint')}
        className={styles.codeInput}
        spellCheck={false}
        autoComplete="off"
      />
      <div className="form-actions">
        <button type="submit" className="button button-primary" aria-busy={add.isPending}>
          {add.isPending ? t('saving') : t('addCustomField')}
        </button>
      </div>
    </form>
  );
}
