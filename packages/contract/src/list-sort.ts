import { z } from 'zod';

/**
 * The order of a list: `sort=<key>` ascending, `sort=-<key>` descending; absent, the list's own
 * order (the spec's, or relevance for a name search). The keyset cursor of a paged list carries
 * the sort key's value, so a cursor answered under one order is refused under another.
 */
export interface ListSort<K extends string = string> {
  key: K;
  descending: boolean;
}

/** The sort keys of each list the server orders (a column of the table each names). */
export const CUSTOMER_SORT_KEYS = ['name', 'created', 'modified'] as const;
export const REQUEST_SORT_KEYS = ['id', 'app', 'priority', 'status', 'modified'] as const;
export const LOG_SORT_KEYS = ['request', 'app', 'status', 'modified'] as const;
/** The trail: by time (its own order), by actor or by action (each then by time, see audit.repo.ts). */
export const AUDIT_SORT_KEYS = ['time', 'actor', 'action'] as const;
/**
 * Every site's custom domains, either way: by name (the primary key), by stored status then name
 * (custom_domains_status_domain_idx) or by when added then name (custom_domains_created_idx). Not
 * by site: its name is in another table, so the order would sort every domain.
 */
export const DOMAIN_SORT_KEYS = ['domain', 'status', 'created'] as const;
/** Trials ending soon: by their end, either way (the key the partial index of trials holds). */
export const TRIAL_SORT_KEYS = ['ends'] as const;
/** An export of the trail runs in time order: its hash chain is in file order. */
export const AUDIT_EXPORT_SORT_KEYS = ['time'] as const;

/** The `sort` value a ListSort is sent as. */
export const sortParam = (s: ListSort): string => (s.descending ? `-${s.key}` : s.key);

/** Reads a `sort` value; undefined when it names no key of the list. */
export function parseSort<K extends string>(keys: readonly K[], value: string | undefined | null) {
  if (!value) return undefined;
  const descending = value.startsWith('-');
  const key = (descending ? value.slice(1) : value) as K;
  return keys.includes(key) ? ({ key, descending } satisfies ListSort<K>) : undefined;
}

/** The optional `sort` query field of a list whose keys are `keys`, read as a ListSort. */
export function sortQueryField<K extends string>(keys: readonly K[]) {
  const message = `sort must be one of ${keys.flatMap((k) => [k, `-${k}`]).join(', ')}.`;
  return z
    .string({ error: message })
    .max(40, message)
    .transform((v, ctx) => {
      if (v === '') return undefined;
      const sort = parseSort(keys, v);
      if (!sort) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return sort;
    })
    .optional();
}
