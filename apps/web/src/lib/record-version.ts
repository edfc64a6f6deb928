import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * The ETag a versioned read answered, kept in the query cache beside that read's data: a form
 * filled from the data names it in If-Match when it saves, so a save from a stale read is
 * refused (412, 930) instead of undoing someone else's change.
 */
const versionKey = (key: QueryKey) => [...key, '#version'] as const;

export function keepVersion(queryClient: QueryClient, key: QueryKey, etag: string | undefined): void {
  queryClient.setQueryData(versionKey(key), etag ?? null);
}

export function versionOf(queryClient: QueryClient, key: QueryKey): string | undefined {
  return queryClient.getQueryData<string | null>(versionKey(key)) ?? undefined;
}
