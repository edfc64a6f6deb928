import { type ListSort, parseSort } from '@sac/contract/list-sort';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

/** Where a list is and how it is ordered: its page (from 1) and its sort (undefined: its own order). */
export interface ListView {
  page: number;
  sort: ListSort | undefined;
  /** The sorts the server takes, when the server orders the list. */
  keys?: readonly string[];
  setPage: (page: number) => void;
  /** A new order starts again at page 1. */
  setSort: (sort: ListSort | undefined) => void;
}

/** The deepest page an address may ask for: a table reads the pages before it to get there. */
const PAGE_MAX = 10_000;
/** A sort the address names, before the list checks it names one of its columns. */
const SORT_TEXT = /^-?[a-zA-Z]{1,40}$/;

function pageFromParam(value: string | null): number {
  if (!value || !/^\d{1,5}$/.test(value)) return 1;
  return Math.min(PAGE_MAX, Math.max(1, Number(value)));
}

function sortFromParam(value: string | null, keys: readonly string[] | undefined): ListSort | undefined {
  if (!value || !SORT_TEXT.test(value)) return undefined;
  if (keys) return parseSort(keys, value);
  return { key: value.replace(/^-/, ''), descending: value.startsWith('-') };
}

/** Writes a page and a sort into the address's parameters, keeping the others (the filters). */
function withListView(prev: URLSearchParams, page: number, sort: ListSort | undefined) {
  const next = new URLSearchParams(prev);
  if (page > 1) next.set('page', String(page));
  else next.delete('page');
  if (sort) next.set('sort', sort.descending ? `-${sort.key}` : sort.key);
  else next.delete('sort');
  return next;
}

/**
 * The page and order of a list. A screen's main list keeps them in the address (?page=&sort=, a
 * new history entry each), so Back, reload and a shared link restore the view; a second list on
 * a screen keeps them here. `keys`: the sorts the server takes, when the server orders the list.
 */
export function useListView(inAddress: boolean, keys?: readonly string[]): ListView {
  const [params, setParams] = useSearchParams();
  const [local, setLocal] = useState<{ page: number; sort: ListSort | undefined }>({
    page: 1,
    sort: undefined,
  });
  if (!inAddress) {
    return {
      ...local,
      keys,
      setPage: (page) => setLocal((v) => ({ ...v, page })),
      setSort: (sort) => setLocal({ page: 1, sort }),
    };
  }
  const page = pageFromParam(params.get('page'));
  const sort = sortFromParam(params.get('sort'), keys);
  return {
    page,
    sort,
    keys,
    setPage: (next) => setParams((prev) => withListView(prev, next, sortFromParam(prev.get('sort'), keys))),
    setSort: (next) => setParams((prev) => withListView(prev, 1, next)),
  };
}
