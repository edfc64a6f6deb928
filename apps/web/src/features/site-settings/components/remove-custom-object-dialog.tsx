import { SETTINGS_MESSAGES } from '@sac/contract/site-settings';
import { useT } from '../../../lib/i18n.tsx';
import { type CustomObject, useRemoveCustomObject } from '../api/custom-objects-api.ts';
import type { SiteRef } from '../api/site-query.ts';
import { RemoveRowDialog } from './remove-row-dialog.tsx';

/** Confirms removing one custom object; the row leaves the table and the server's Message is toasted. */
export function RemoveCustomObjectDialog({
  site,
  object,
  onClose,
}: {
  site: SiteRef;
  object: CustomObject;
  onClose: () => void;
}) {
  const t = useT('siteSettings');
  const remove = useRemoveCustomObject(site);
  return (
    <RemoveRowDialog
      remove={remove}
      rowKey={object.Id}
      title={t('removeObjectTitle', { id: object.Id })}
      confirmLabel={t('remove')}
      fallback={SETTINGS_MESSAGES.customObjectRemoved}
      onClose={onClose}
      typedName={object.Id}
    >
      <p>{t('removeObjectDetail')}</p>
    </RemoveRowDialog>
  );
}
