import { versionTag } from '@sac/contract/constants';
import { setCustomObjectSchemaBody } from '@sac/contract/site-settings';
import type { FormEvent } from 'react';
import { ChangedMeanwhile, changedFields } from '../../../components/changed-meanwhile.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { useApiAuth } from '../../../lib/api-auth.tsx';
import { useEditConflict } from '../../../lib/edit-conflict.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { type CustomObject, readCustomObjects, useSetCustomObjectSchema } from '../api/custom-objects-api.ts';
import type { SiteRef } from '../api/site-query.ts';
import registrationFieldsSectionStyles from './registration-fields-section.module.css';
import { SampleValidator } from './sample-validator.tsx';

/** The schema as the user edits it: pretty-printed when it is JSON. */
function pretty(schema: string): string {
  try {
    return JSON.stringify(JSON.parse(schema), null, 2);
  } catch {
    return schema;
  }
}

/**
 * 'Edit schema' of one custom object (PUT /admin/customobject/schema, naming the row's Version);
 * the row takes the answer. A save over someone else's meanwhile shows theirs and the ways on.
 */
export function EditSchemaDialog({
  site,
  object,
  onClose,
}: {
  site: SiteRef;
  object: CustomObject;
  onClose: () => void;
}) {
  const t = useT('siteSettings');
  const setSchema = useSetCustomObjectSchema(site);
  const auth = useApiAuth();
  const conflict = useEditConflict<CustomObject>(
    { data: object, version: versionTag(object.Version) },
    async () => {
      const now = (await readCustomObjects(auth, site)).find((o) => o.Id === object.Id) ?? object;
      return { data: now, version: versionTag(now.Version) };
    },
  );
  const form = useContractForm(setCustomObjectSchemaBody, {
    initial: { objId: object.Id, Schema: pretty(object.Schema) },
    showErrors: 'submit',
  });
  const send = (ifMatch: string | undefined) => {
    const data = form.submit();
    if (!data || setSchema.isPending) return;
    setSchema.mutate(
      { body: data, ifMatch },
      {
        onSuccess: (answer) => {
          toast.success(answer.Message);
          form.leave(onClose);
        },
        onError: (error) => void conflict.refused(error),
      },
    );
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send(conflict.version);
  };
  const loadTheirs = () => {
    const theirs = conflict.loadTheirs();
    if (theirs) form.reset({ objId: theirs.Id, Schema: pretty(theirs.Schema) });
  };
  return (
    <Dialog title={t('editSchemaTitle', { id: object.Id })} onClose={onClose} busy={setSchema.isPending} wide>
      <form onSubmit={onSubmit} noValidate>
        {conflict.theirs ? (
          <ChangedMeanwhile
            changes={changedFields(
              { Schema: pretty(conflict.filledFrom.Schema) },
              { Schema: pretty(conflict.theirs.data.Schema) },
              { Schema: t('objectSchema') },
            )}
            onLoadTheirs={loadTheirs}
            onOverwrite={() => send(conflict.overwrite())}
            busy={setSchema.isPending}
          />
        ) : null}
        <TextAreaField
          id="edit-schema-Schema"
          name="Schema"
          label={t('objectSchema')}
          value={form.values.Schema}
          error={form.shown('Schema')}
          rows={10}
          className={registrationFieldsSectionStyles.codeInput}
          spellCheck={false}
          onValueChange={(v) => form.set('Schema', v)}
        />
        <SampleValidator site={site} schema={form.values.Schema} idPrefix="edit-schema" />
        <div className="form-actions dialog-actions">
          <button type="submit" className="button button-primary" aria-busy={setSchema.isPending}>
            {setSchema.isPending ? t('saving') : t('save')}
          </button>
          <button type="button" className="button" disabled={setSchema.isPending} onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
