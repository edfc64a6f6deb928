import type { AuditExportFormat, AuditTrailRow } from '@sac/contract/audit';
import type { QueryOf } from '@sac/contract/endpoints';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { callApi, type Download, streamedFile } from '../../../lib/api-client.ts';

/** The filters the trail and its export are read with (the list's query without its cursor). */
export type TrailQuery = Omit<QueryOf<'auditEvents'>, 'cursor'>;

const auditKeys = {
  all: ['audit'] as const,
  trail: (q: TrailQuery) => [...auditKeys.all, 'trail', q] as const,
  signingKey: () => [...auditKeys.all, 'signing-key'] as const,
};

/** GET /admin/audit/events, newest first; each next page continues from the answer's NextCursor. */
export const useAuditTrail = (q: TrailQuery) =>
  useInfiniteQuery({
    queryKey: auditKeys.trail(q),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      callApi('auditEvents', { query: { ...q, ...(pageParam ? { cursor: pageParam } : {}) }, signal }),
    getNextPageParam: (last) => last.NextCursor ?? undefined,
  });

/** GET /admin/audit/signing-key, when asked for. */
export const useSigningKey = (enabled: boolean) =>
  useQuery({
    queryKey: auditKeys.signingKey(),
    queryFn: async ({ signal }) => (await callApi('auditSigningKey', { signal })).Data,
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });

/**
 * GET /admin/audit/export, streamed: reports the rows received of those announced, and answers
 * the file and its name. A file's first line is a header (both formats); its last is the seal.
 */
export const exportTrail = (q: TrailQuery, format: AuditExportFormat): Download => {
  // The export runs in time order (its hash chain is in file order): an order by actor or action
  // on screen exports oldest first, as an unsorted screen does.
  const { sort, ...filters } = q;
  return streamedFile('auditExport', {
    ...filters,
    format,
    ...(sort === 'time' || sort === '-time' ? { sort } : {}),
  });
};

/** A row of the trail as the screen shows it. */
export type AuditEvent = AuditTrailRow;
