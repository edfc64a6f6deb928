import { useState } from 'react';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { type CustomObject, useCustomObjects } from '../api/custom-objects-api.ts';
import { AddCustomObjectForm } from './add-custom-object-form.tsx';
import { EditSchemaDialog } from './edit-schema-dialog.tsx';
import { RemoveCustomObjectDialog } from './remove-custom-object-dialog.tsx';
import type { SectionProps } from './section-props.ts';

const PAGE_SIZE = 10;

/**
 * Custom Object: the site's objects (none is ErrorCode 999, shown as the empty table), 'Edit
 * schema' and 'Remove' per row, and the 'Add custom object' form with its sample validation.
 */
export function CustomObjectsSection({ site, canWrite, headingId }: SectionProps) {
  const t = useT('siteSettings');
  const common = useT('common');
  const objects = useCustomObjects(site);
  const [editing, setEditing] = useState<CustomObject | undefined>();
  const [removing, setRemoving] = useState<CustomObject | undefined>();

  const columns: Column<CustomObject>[] = [
    { id: 'id', header: t('colId'), sortValue: (o) => o.Id, cell: (o) => <code>{o.Id}</code> },
    { id: 'name', header: t('colName'), sortValue: (o) => o.Name, cell: (o) => o.Name },
    { id: 'size', header: t('colSize'), sortValue: (o) => o.SizeMB, cell: (o) => o.SizeMB },
    {
      id: 'modified',
      header: t('colModified'),
      sortValue: (o) => o.ModifiedDate,
      cell: (o) => formatDate(o.ModifiedDate),
    },
  ];
  if (canWrite) {
    columns.push({
      id: 'actions',
      header: t('colActions'),
      cell: (o) => (
        <div className="row-actions">
          <button type="button" className="button button-small" onClick={() => setEditing(o)}>
            {t('editSchema')}
          </button>
          <button type="button" className="button button-small button-danger" onClick={() => setRemoving(o)}>
            {t('remove')}
          </button>
        </div>
      ),
    });
  }

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('customObject')}</h2>
      <p className="muted">{t('customObjectsIntro')}</p>
      <DataTable
        label={t('customObjectsTable')}
        columns={columns}
        rows={objects.data}
        rowKey={(o) => o.Id}
        isLoading={objects.isPending}
        error={objects.isError ? errorText(objects.error, common('tableFetchError')) : undefined}
        pageSize={PAGE_SIZE}
      />
      {canWrite ? <AddCustomObjectForm site={site} /> : null}
      {editing ? (
        <EditSchemaDialog site={site} object={editing} onClose={() => setEditing(undefined)} />
      ) : null}
      {removing ? (
        <RemoveCustomObjectDialog site={site} object={removing} onClose={() => setRemoving(undefined)} />
      ) : null}
    </section>
  );
}
