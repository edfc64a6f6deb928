import { SEARCH_CRITERIA, type SearchCriterion } from '@sac/contract/customers';
import { toQueryString } from '@sac/contract/query-string';
import type { CustomerSearch } from '../api/customers-api.ts';

/** Rows per page of the customer screens' tables (spec section 9: 10, as the super-user table). */
export const CUSTOMER_TABLE_PAGE_SIZE = 10;

/**
 * The API secret never goes into the address bar (nor the browser history's URLs): a search by
 * secret is kept in the history entry's state instead, so Back still returns to its results.
 */
export interface SearchLocationState {
  apisecret?: string;
  /** Set on links to the customer view: the search to return to. */
  fromSearch?: string;
}

const inUrl = (c: SearchCriterion) => c !== 'apisecret';

/** The search a location holds: the first criterion with a non-blank term. */
export function searchFromLocation(params: URLSearchParams, state: unknown): CustomerSearch | undefined {
  for (const criterion of SEARCH_CRITERIA) {
    const raw = inUrl(criterion)
      ? params.get(criterion)
      : ((state as SearchLocationState | null)?.apisecret ?? null);
    const term = raw?.trim() ?? '';
    if (term) return { criterion, term };
  }
  return undefined;
}

/** The address query of a search ('' for a search by API secret). */
export const searchQueryString = (s: CustomerSearch): string =>
  inUrl(s.criterion) ? toQueryString({ [s.criterion]: s.term }) : '';

/** The link to one customer's view. */

/** Empty values of the search form, one per criterion. */
export const emptyCriteria = (): Record<SearchCriterion, string> =>
  Object.fromEntries(SEARCH_CRITERIA.map((c) => [c, ''])) as Record<SearchCriterion, string>;
