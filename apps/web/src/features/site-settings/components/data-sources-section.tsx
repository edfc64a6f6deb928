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

/**
 * 'Add data source': name, parent (optional), an item rule (regex, optional) and the items (value,
 * text, and the parent's value when there is a parent), checked by the contract's schema.
 */
function AddDataSourceForm({ site, sources }: { site: SiteRef; sources: readonly DataSource[] }) {
  const t = useT('siteSettings');
  const add = useAddDataSource(site);
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  const [rule, setRule] = useState('');
  const [items, setItems] = useState<Item[]>(() => [newItem()]);
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  useLeaveGuard(
    name !== '' || parent !== '' || rule !== '' || items.some((i) => i.Value !== '' || i.Text !== ''),
  );

  const body = (n = name, p = parent, r = rule, list = items) => ({
    Name: n,
    ParentName: p,
    Rules: r,
    Items: list.map((i) => ({ Value: i.Value, Text: i.Text, ...(p ? { Parent: i.Parent } : {}) })),
  });
  const check = (b: ReturnType<typeof body>) => {
    const r = dataSourceBody.safeParse(b);
    const out: Errors = {};
    if (!r.success) {
      for (const issue of r.error.issues) {
        const [field, index, sub] = issue.path;
        const k =
          field === 'Items' && typeof index === 'number' && typeof sub === 'string'
            ? `Items.${index}.${sub}`
            : String(field ?? '');
        const message = k.startsWith('Items.') ? t('itemRequired') : issue.message;
        if (!(k in out)) out[k] = message;
      }
    }
    return { data: r.success ? r.data : undefined, errors: out };
  };
  const revalidate = (b: ReturnType<typeof body>) => {
    if (submitted) setErrors(check(b).errors);
  };
  const setItem = (key: number, f: 'Value' | 'Text' | 'Parent', v: string) => {
    const list = items.map((i) => (i.key === key ? { ...i, [f]: v } : i));
    setItems(list);
    revalidate(body(name, parent, rule, list));
  };
  const parentItems = sources.find((s) => s.Name === parent)?.Items ?? [];

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const r = check(body());
    setErrors(r.errors);
    if (!r.data || add.isPending) return;
    add.mutate(r.data, {
      onSuccess: (answer) => {
        toast.success(answer.Message || t('dataSourceAdded'));
        setName('');
        setParent('');
        setRule('');
        setItems([newItem()]);
        setErrors({});
        setSubmitted(false);
      },
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        const fields: Errors = {};
        for (const fe of error.envelope?.FieldErrors ?? []) {
          const k = fe.Field.replace(/^data\./, '');
          if (!(k in fields)) fields[k] = fe.Message;
        }
        if (error.status === 409 && error.serverText) fields.Name = error.serverText;
        if (Object.keys(fields).length > 0) setErrors(fields);
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
          onValueChange={(v) => {
            setName(v);
            revalidate(body(v));
          }}
        />
        <SelectField
          id="data-source-ParentName"
          name="ParentName"
          label={t('parentDataSource')}
          value={parent}
          placeholder={t('noParent')}
          options={sources.map((s) => ({ value: s.Name, label: s.Name }))}
          error={errors.ParentName}
          onValueChange={(v) => {
            setParent(v);
            revalidate(body(name, v));
          }}
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
          onValueChange={(v) => {
            setRule(v);
            revalidate(body(name, parent, v));
          }}
        />
      </div>
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
                onValueChange={(v) => setItem(item.key, 'Value', v)}
              />
              <FormField
                id={fid('Text')}
                name={`Items.${index}.Text`}
                label={t('itemText')}
                aria-label={t('itemTextOf', { n })}
                value={item.Text}
                error={errors[`Items.${index}.Text`]}
                autoComplete="off"
                onValueChange={(v) => setItem(item.key, 'Text', v)}
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
                  onValueChange={(v) => setItem(item.key, 'Parent', v)}
                />
              ) : null}
              <button
                type="button"
                className="button button-small"
                aria-label={t('removeItem', { n })}
                disabled={items.length === 1}
                onClick={() => {
                  const list = items.filter((i) => i.key !== item.key);
                  setItems(list);
                  revalidate(body(name, parent, rule, list));
                }}
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
        <button type="button" className="button button-small" onClick={() => setItems([...items, newItem()])}>
          {t('addItem')}
        </button>
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="button button-primary" aria-busy={add.isPending}>
          {add.isPending ? t('saving') : t('addDataSource')}
        </button>
      </div>
    </form>
  );
}
