// The encryption and hashing settings section's calls, one hashing set at a time.
import { versionTag } from '@sac/contract/constants';
import type { SettingSet } from '@sac/contract/encryption-settings';
import type { BodyOf, ResponseOf } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiAuth, useApiAuth } from '../../../lib/api-auth.tsx';
import { ApiError, callApi, callApiVersioned } from '../../../lib/api-client.ts';
import { call, retryOf, type SiteRef, siteSettingsKeys } from './site-query.ts';

type EncryptionSettings = ResponseOf<'passwordSettings'>['Data'];

export interface EncryptionRead {
  /** Undefined when the site has no settings of its own for this set (1037, 1090): the defaults show. */
  settings: EncryptionSettings | undefined;
  /** The version read (the ETag; "0" for a set never saved): the form's save names it (If-Match). */
  version: string | undefined;
}

const ENCRYPTION_READS = {
  password: { id: 'passwordSettings', unset: [] },
  'previous-password': {
    id: 'previousPasswordSettings',
    unset: [ERRORS.previousPasswordSettingsNotSet.code],
  },
  'security-answer': {
    id: 'securityQuestionSettings',
    unset: [ERRORS.securityAnswerSettingsNotSet.code, ERRORS.securityQuestionsNotUsed.code],
  },
} as const satisfies Record<SettingSet, { id: string; unset: readonly number[] }>;

/**
 * GET /admin/password-settings, /admin/previous-password-settings (1037: not set, ignored) or
 * /admin/security-question-settings (1090 and 1091, as the spec says: ignored); not set reads as
 * the defaults at version 0.
 */
export async function readEncryptionSettings(
  a: ApiAuth,
  s: SiteRef,
  set: SettingSet,
  signal?: AbortSignal,
): Promise<EncryptionRead> {
  const read = ENCRYPTION_READS[set];
  try {
    const { body, etag } = await callApiVersioned(read.id, call(a, s, signal));
    return { settings: body.Data, version: etag };
  } catch (error) {
    const unset: readonly number[] = read.unset;
    if (error instanceof ApiError && error.code !== undefined && unset.includes(error.code)) {
      return { settings: undefined, version: versionTag(0) };
    }
    throw error;
  }
}

/** One hashing set of the site. */
export function useEncryptionSettings(s: SiteRef, set: SettingSet) {
  const a = useApiAuth();
  return useQuery({
    queryKey: siteSettingsKeys.encryption(a, s, set),
    queryFn: ({ signal }) => readEncryptionSettings(a, s, set, signal),
    ...retryOf(a),
  });
}

export type EncryptionData = BodyOf<'saveEncryptionSettings'>['data'];

/**
 * POST /admin/save-encryption-settings {Set, data}, naming the version read (If-Match): the answer
 * replaces that set's cached read.
 */
export function useSaveEncryptionSettings(s: SiteRef, set: SettingSet) {
  const a = useApiAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...siteSettingsKeys.encryption(a, s, set), 'save'],
    mutationFn: async (v: { data: EncryptionData; ifMatch: string | undefined }) => {
      const { body, etag } = await callApiVersioned('saveEncryptionSettings', {
        ...call(a, s),
        body: { Set: set, data: v.data },
        ifMatch: v.ifMatch,
      });
      return { answer: body, read: { settings: body.Data, version: etag } satisfies EncryptionRead };
    },
    onSuccess: ({ read }) =>
      queryClient.setQueryData<EncryptionRead>(siteSettingsKeys.encryption(a, s, set), read),
  });
}

/** POST /admin/encryption-settings/preview {data, Sample}: {Stored, SaltUsed, Weak}. */
export function useEncryptionPreview(s: SiteRef, set: SettingSet) {
  const a = useApiAuth();
  return useMutation({
    mutationKey: [...siteSettingsKeys.encryption(a, s, set), 'preview'],
    mutationFn: (body: { data: EncryptionData; Sample: string }) =>
      callApi('encryptionPreview', { ...call(a, s), body }),
  });
}
