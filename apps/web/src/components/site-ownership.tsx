import { consolePaths } from '@sac/contract/console-paths';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useApiAuth } from '../lib/api-auth.tsx';
import { callApi } from '../lib/api-client.ts';
import { useT } from '../lib/i18n.tsx';

/** Whether a customer owns a site: their own, another customer's shared with them, or neither. */
export type SiteOwnership =
  | { kind: 'unknown' }
  | { kind: 'owned' }
  | { kind: 'shared'; ownerUid: string; appName: string }
  | { kind: 'not-theirs' };

/**
 * What the customer's sites (GET /admin/allapps) say about `appId`. A screen that edits a site
 * through a customer checks this first: the writes of a site the customer does not own fail.
 * 'unknown' while loading, on a failure, or for a caller who may not list sites (the server still
 * refuses what is not allowed).
 */
export function useSiteOwnership(uid: string, appId: number | undefined): SiteOwnership {
  const auth = useApiAuth();
  const enabled =
    uid !== '' && appId !== undefined && auth.pair === undefined && auth.allows('customerAllApps');
  const sites = useQuery({
    queryKey: ['site-ownership', uid],
    queryFn: async ({ signal }) => (await callApi('customerAllApps', { query: { uid }, signal })).Data,
    enabled,
  });
  if (!enabled || !sites.data) return { kind: 'unknown' };
  const site = sites.data.find((s) => s.appId === appId);
  if (!site) return { kind: 'not-theirs' };
  if (site.Role === 'Owner' && site.uid === uid) return { kind: 'owned' };
  return { kind: 'shared', ownerUid: site.uid, appName: site.AppName };
}

/**
 * Said instead of an editable form when the site is not the customer's: a shared site links to
 * the same screen for its owner, any other to the customer.
 */
export function NotOwnedSite({
  uid,
  ownership,
  ownerLink,
}: {
  uid: string;
  ownership: SiteOwnership;
  ownerLink: (ownerUid: string) => string;
}) {
  const t = useT('common');
  if (ownership.kind === 'shared') {
    return (
      <div className="form-alert" role="alert">
        <p>{t('siteSharedNotOwned', { site: ownership.appName })}</p>
        <p>
          <Link to={ownerLink(ownership.ownerUid)}>{t('openAsOwner')}</Link>
        </p>
      </div>
    );
  }
  if (ownership.kind === 'not-theirs') {
    return (
      <div className="form-alert" role="alert">
        <p>{t('siteNotTheirs')}</p>
        <p>
          <Link to={consolePaths.customerView({ uid })}>{t('backToTheCustomer')}</Link>
        </p>
      </div>
    );
  }
  return null;
}
