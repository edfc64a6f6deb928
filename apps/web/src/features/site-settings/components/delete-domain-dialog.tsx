import { SETTINGS_MESSAGES } from '@sac/contract/site-settings';
import { useT } from '../../../lib/i18n.tsx';
import { type CustomDomain, useDeleteCustomDomain } from '../api/custom-domains-api.ts';
import type { SiteRef } from '../api/site-query.ts';
import { RemoveRowDialog } from './remove-row-dialog.tsx';

/** Confirms deleting one custom domain; the row leaves the table and the server's Message is toasted. */
export function DeleteDomainDialog({
  site,
  domain,
  onClose,
}: {
  site: SiteRef;
  domain: CustomDomain;
  onClose: () => void;
}) {
  const t = useT('siteSettings');
  const remove = useDeleteCustomDomain(site);
  return (
    <RemoveRowDialog
      remove={remove}
      rowKey={domain.Domain}
      title={t('deleteDomainTitle', { domain: domain.Domain })}
      confirmLabel={t('delete')}
      fallback={SETTINGS_MESSAGES.customDomainDeleted}
      onClose={onClose}
      typedName={domain.Domain}
    >
      <p>{t('deleteDomainDetail')}</p>
    </RemoveRowDialog>
  );
}
