import { dataSourceBody } from '@sac/contract/registration-fields';
import { type FormEvent, useState } from 'react';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import formFieldStyles from '../../../components/form-field.module.css';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { ApiError, errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useLeaveGuard } from '../../../lib/leave-guard.ts';
import { toast } from '../../../lib/toast-store.ts';
import { type DataSource, useAddDataSource, useDataSources } from '../api/registration-api.ts';
import type { SiteRef } from '../api/site-query.ts';
import styles from './data-sources-section.module.css';
import registrationFieldsSectionStyles from './registration-fields-section.module.css';
import type { SectionProps } from './section-props.ts';
import sectionStyles from './settings-section.module.css';

const PAGE_SIZE = 10;

/** Data Source: the site's data sources (option lists of dropdowns) and the 'Add data source' form. */
export function DataSourcesSection({ site, canWrite, headingId }: SectionProps) {
  const t = useT('siteSettings');
  const common = useT('common');
  const sources = useDataSources(site);
  const columns: Column<DataSource>[] = [
    { id: 'name', header: t('colName'), sortValue: (d) => d.Name, cell: (d) => <code>{d.Name}</code> },
    {
      id: 'parent',
      header: t('colParent'),
      sortValue: (d) => d.ParentName,
      cell: (d) => d.ParentName || t('notSet'),
    },
    {
      id: 'rule',
      header: t('colRule'),
      sortValue: (d) => d.Rules,
      cell: (d) => (d.Rules ? <code>{d.Rules}</code> : t('notSet')),
    },
    { id: 'items', header: t('colItems'), sortValue: (d) => d.Items.length, cell: (d) => d.Items.length },
  ];
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('dataSources')}</h2>
      <p className="muted">{t('dataSourcesIntro')}</p>
      <DataTable
        label={t('dataSourcesTable')}
        columns={columns}
        rows={sources.data}
        rowKey={(d) => d.Name}
        isLoading={sources.isPending}
        error={sources.isError ? errorText(sources.error, common('tableFetchError')) : undefined}
        pageSize={PAGE_SIZE}
      />
      {canWrite ? <AddDataSourceForm site={site} sources={sources.data ?? []} /> : null}
    </section>
  );
}

interface Item {
  key: number;
  Value: string;
  Text: string;
  Parent: string;
}
type Errors = Record<string, string>;
let nextKey = 1;
const newItem = (): Item => ({ key: nextKey++, Value: '', Text: '', Parent: '' });

type Draft = ReturnType<typeof draftOf>;
/** What the form sends; an item names its parent's value only when the source has a parent. */
const draftOf = (name: string, parent: string, rule: string, items: readonly Item[]) => ({
  Name: name,
  ParentName: parent,
  Rules: rule,
  Items: items.map((i) => ({ Value: i.Value, Text: i.Text, ...(parent ? { Parent: i.Parent } : {}) })),
});

/** The contract's verdict on a draft: its data, or the first message per field (an item's: `itemRequired`). */
function checkDraft(draft: Draft, itemRequired: string) {
  const r = dataSourceBody.safeParse(draft);
  const out: Errors = {};
  if (!r.success) {
    for (const issue of r.error.issues) {
      const [field, index, sub] = issue.path;
      const k =
        field === 'Items' && typeof index === 'number' && typeof sub === 'string'
          ? `Items.${index}.${sub}`
          : String(field ?? '');
      const message = k.startsWith('Items.') ? itemRequired : issue.message;
      if (!(k in out)) out[k] = message;
    }
  }
  return { data: r.success ? r.data : undefined, errors: out };
}

/** The server's field errors by the form's fields; a name taken (409) under the name. */
function serverErrors(error: ApiError): Errors {
  const fields: Errors = {};
  for (const fe of error.envelope?.FieldErrors ?? []) {
    const k = fe.Field.replace(/^data\./, '');
    if (!(k in fields)) fields[k] = fe.Message;
  }
  if (error.status === 409 && error.serverText) fields.Name = error.serverText;
  return fields;
}

/**
 * The form's values and errors: checked again on every change once the user has tried to submit;
 * leaving with something typed asks first.
 */
function useDataSourceDraft() {
  const t = useT('siteSettings');
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  const [rule, setRule] = useState('');
  const [items, setItems] = useState<Item[]>(() => [newItem()]);
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  useLeaveGuard(
    name !== '' || parent !== '' || rule !== '' || items.some((i) => i.Value !== '' || i.Text !== ''),
  );

  const revalidate = (n: string, p: string, r: string, list: Item[]) => {
    if (submitted) setErrors(checkDraft(draftOf(n, p, r, list), t('itemRequired')).errors);
  };
  const changeItems = (list: Item[]) => {
    setItems(list);
    revalidate(name, parent, rule, list);
  };
  return {
    name,
    parent,
    rule,
    items,
    errors,
    setErrors,
    setName: (v: string) => {
      setName(v);
      revalidate(v, parent, rule, items);
    },
    setParent: (v: string) => {
      setParent(v);
      revalidate(name, v, rule, items);
    },
    setRule: (v: string) => {
      setRule(v);
      revalidate(name, parent, v, items);
    },
    setItem: (key: number, f: 'Value' | 'Text' | 'Parent', v: string) =>
      changeItems(items.map((i) => (i.key === key ? { ...i, [f]: v } : i))),
    removeItem: (key: number) => changeItems(items.filter((i) => i.key !== key)),
    addItem: () => setItems([...items, newItem()]),
    /** Checks the whole form, from now on at every change too. */
    submit: () => {
      setSubmitted(true);
      const r = checkDraft(draftOf(name, parent, rule, items), t('itemRequired'));
      setErrors(r.errors);
      return r.data;
    },
    clear: () => {
      setName('');
      setParent('');
      setRule('');
      setItems([newItem()]);
      setErrors({});
      setSubmitted(false);
    },
  };
}

type DataSourceDraft = ReturnType<typeof useDataSourceDraft>;

/** The items: value, text and (with a parent) the parent's item, a row each, removable but the last. */
function ItemsEditor({ draft, parentItems }: { draft: DataSourceDraft; parentItems: DataSource['Items'] }) {
  const t = useT('siteSettings');
  const { items, errors, parent } = draft;
  return (
    <fieldset
      className={styles.itemsEditor}
      aria-describedby={errors.Items ? 'data-source-items-error' : undefined}
    >
      <legend>{t('items')}</legend>
      {items.map((item, index) => {
        const n = index + 1;
        const fid = (f: string) => `data-source-item-${item.key}-${f}`;
        return (
          <div key={item.key} className={styles.itemRow}>
            <FormField
              id={fid('Value')}
              name={`Items.${index}.Value`}
              label={t('itemValue')}
              aria-label={t('itemValueOf', { n })}
              value={item.Value}
              error={errors[`Items.${index}.Value`]}
              autoComplete="off"
              onValueChange={(v) => draft.setItem(item.key, 'Value', v)}
            />
            <FormField
              id={fid('Text')}
              name={`Items.${index}.Text`}
              label={t('itemText')}
              aria-label={t('itemTextOf', { n })}
              value={item.Text}
              error={errors[`Items.${index}.Text`]}
              autoComplete="off"
              onValueChange={(v) => draft.setItem(item.key, 'Text', v)}
            />
            {parent ? (
              <SelectField
                id={fid('Parent')}
                name={`Items.${index}.Parent`}
                label={t('itemParent')}
                aria-label={t('itemParentOf', { n })}
                value={item.Parent}
                placeholder={t('noParent')}
                options={parentItems.map((p) => ({
                  value: p.Value,
                  label: t('itemOption', { text: p.Text, value: p.Value }),
                }))}
                error={errors[`Items.${index}.Parent`]}
                onValueChange={(v) => draft.setItem(item.key, 'Parent', v)}
              />
            ) : null}
            <button
              type="button"
              className="button button-small"
              aria-label={t('removeItem', { n })}
              disabled={items.length === 1}
              onClick={() => draft.removeItem(item.key)}
            >
              {t('remove')}
            </button>
          </div>
        );
      })}
      {errors.Items ? (
        <p id="data-source-items-error" className={formFieldStyles.fieldError}>
          {errors.Items}
        </p>
      ) : null}
      <button type="button" className="button button-small" onClick={draft.addItem}>
        {t('addItem')}
      </button>
    </fieldset>
  );
}

/**
 * 'Add data source': name, parent (optional), an item rule (regex, optional) and the items (value,
 * text, and the parent's value when there is a parent), checked by the contract's schema.
 */
function AddDataSourceForm({ site, sources }: { site: SiteRef; sources: readonly DataSource[] }) {
  const t = useT('siteSettings');
  const add = useAddDataSource(site);
  const draft = useDataSourceDraft();
  const { name, parent, rule, errors } = draft;
  const parentItems = sources.find((s) => s.Name === parent)?.Items ?? [];

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = draft.submit();
    if (!data || add.isPending) return;
    add.mutate(data, {
      onSuccess: (answer) => {
        toast.success(answer.Message || t('dataSourceAdded'));
        draft.clear();
      },
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        const fields = serverErrors(error);
        if (Object.keys(fields).length > 0) draft.setErrors(fields);
      },
    });
  };

  return (
    <form
      className={sectionStyles.subsection}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="add-data-source-title"
    >
      <h3 id="add-data-source-title" className="subsection-heading">
        {t('addDataSource')}
      </h3>
      <div className="form-grid">
        <FormField
          id="data-source-Name"
          name="Name"
          label={t('dataSourceName')}
          value={name}
          error={errors.Name}
          autoComplete="off"
          required
          onValueChange={draft.setName}
        />
        <SelectField
          id="data-source-ParentName"
          name="ParentName"
          label={t('parentDataSource')}
          value={parent}
          placeholder={t('noParent')}
          options={sources.map((s) => ({ value: s.Name, label: s.Name }))}
          error={errors.ParentName}
          onValueChange={draft.setParent}
        />
        <FormField
          id="data-source-Rules"
          name="Rules"
          label={t('dataSourceRule')}
          value={rule}
          error={errors.Rules}
          autoComplete="off"
          className={registrationFieldsSectionStyles.codeInput}
          spellCheck={false}
          onValueChange={draft.setRule}
        />
      </div>
      <ItemsEditor draft={draft} parentItems={parentItems} />
      <div className="form-actions">
        <button type="submit" className="button button-primary" aria-busy={add.isPending}>
          {add.isPending ? t('saving') : t('addDataSource')}
        </button>
      </div>
    </form>
  );
}
