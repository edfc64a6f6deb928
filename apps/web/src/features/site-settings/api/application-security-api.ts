// The application level security section's calls.
import { versionTag } from '@sac/contract/constants';
import { ERRORS } from '@sac/contract/errors';
import { APPLICATION_SECURITY_DEFAULTS, type ApplicationSecurity } from '@sac/contract/site-settings';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiAuth, useApiAuth } from '../../../lib/api-auth.tsx';
import { ApiError, callApiVersioned } from '../../../lib/api-client.ts';
import { call, retryOf, type SiteRef, siteSettingsKeys } from './site-query.ts';

export interface SecurityRead {
  settings: ApplicationSecurity;
  /** False when the site never saved its settings (ErrorCode 927): the defaults are shown. */
  saved: boolean;
  /** The version read (the ETag; "0" for settings never saved): the form's save names it (If-Match). */
  version: string | undefined;
}

/** GET /admin/applicationlevelsecurity; ErrorCode 927 (never saved) reads as the defaults at version 0. */
export async function readApplicationSecurity(
  a: ApiAuth,
  s: SiteRef,
  signal?: AbortSignal,
): Promise<SecurityRead> {
  try {
    const { body, etag } = await callApiVersioned('applicationSecurity', call(a, s, signal));
    return { settings: body.Data, saved: true, version: etag };
  } catch (error) {
    if (error instanceof ApiError && error.code === ERRORS.notFound.code) {
      return { settings: APPLICATION_SECURITY_DEFAULTS, saved: false, version: versionTag(0) };
    }
    throw error;
  }
}

/** The site's application level security, silently the defaults when never saved. */
export function useApplicationSecurity(s: SiteRef) {
  const a = useApiAuth();
  return useQuery({
    queryKey: siteSettingsKeys.security(a, s),
    queryFn: ({ signal }) => readApplicationSecurity(a, s, signal),
    ...retryOf(a),
  });
}

/**
 * PUT /admin/applicationlevelsecurity {data}, naming the version read (If-Match). Errors are the
 * form's own (981 and a stale save are shown in it); the answer replaces the cached read.
 */
export function useSaveApplicationSecurity(s: SiteRef) {
  const a = useApiAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.security(a, s), 'save'],
    meta: { errorFallback: false },
    mutationFn: async (v: { data: ApplicationSecurity; ifMatch: string | undefined }) => {
      const { body, etag } = await callApiVersioned('updateApplicationSecurity', {
        ...call(a, s),
        body: { data: v.data },
        ifMatch: v.ifMatch,
      });
      return {
        answer: body,
        read: { settings: body.Data, saved: true, version: etag } satisfies SecurityRead,
      };
    },
    onSuccess: ({ read }) => queryClient.setQueryData<SecurityRead>(siteSettingsKeys.security(a, s), read),
  });
}
