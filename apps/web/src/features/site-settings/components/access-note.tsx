import type { EndpointId } from '@sac/contract/endpoint-routes';
import { useApiAuth } from '../../../lib/api-auth.tsx';
import { useT } from '../../../lib/i18n.tsx';
import siteConfigurationPageStyles from './site-configuration-page.module.css';

/**
 * Why part of the configuration is hidden or read-only for this caller: for an impersonation, the
 * customer permission its grant lacks; for a staff member, the missing staff permission.
 */
export function AccessNote({ endpoint, kind }: { endpoint: EndpointId; kind: 'read' | 'write' | 'status' }) {
  const t = useT('siteSettings');
  const auth = useApiAuth();
  const permission = auth.needs(endpoint);
  let text: string;
  if (!auth.pair) text = kind === 'read' ? t('noReadAccess') : t('readOnly');
  else if (permission === undefined) text = t('grantNever');
  else if (kind === 'read') text = t('grantNoRead', { permission });
  else if (kind === 'status') text = t('grantNoStatus', { permission });
  else text = t('grantReadOnly', { permission });
  return (
    <p className={`notice notice-info ${siteConfigurationPageStyles.configReadOnly}`} role="note">
      {text}
    </p>
  );
}
