import { auditEventsQuery } from '@sac/contract/audit';
import type { TrailQuery } from '../api/audit-api.ts';

/**
 * The audit trail's filters as the form holds them, as the address bar keeps them (so a reload,
 * Back or a shared link shows the same trail) and as the API reads them. A preset time range is
 * kept by name and turned into a start when the trail is read; a custom range is kept as instants.
 */

export const RANGES = ['any', '1h', '24h', '7d', '30d', 'custom'] as const;
export type RangeId = (typeof RANGES)[number];
const SPAN_MS: Record<Exclude<RangeId, 'any' | 'custom'>, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

export interface FilterForm {
  actor: string;
  action: string;
  /** done, refused or failed ('' any). */
  result: string;
  customer: string;
  appId: string;
  range: RangeId;
  /** datetime-local values, in the viewer's time zone. */
  from: string;
  to: string;
  q: string;
}
export type FilterErrors = Partial<Record<keyof FilterForm, string>>;

const EMPTY_FORM: FilterForm = {
  actor: '',
  action: '',
  result: '',
  customer: '',
  appId: '',
  range: 'any',
  from: '',
  to: '',
  q: '',
};

const pad = (n: number) => String(n).padStart(2, '0');
/** An instant as a datetime-local value in the viewer's zone ('' when unreadable). */
function localInput(iso: string | null): string {
  const d = iso ? new Date(iso) : undefined;
  if (!d || Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
/** A datetime-local value (the viewer's zone) as an ISO instant ('' when empty or unreadable). */
function instantOf(local: string): string {
  const d = local ? new Date(local) : undefined;
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : '';
}

export function formFromParams(p: URLSearchParams): FilterForm {
  const range = p.get('range') as RangeId | null;
  return {
    actor: p.get('actor') ?? '',
    action: p.get('action') ?? '',
    result: p.get('result') ?? '',
    customer: p.get('customer') ?? '',
    appId: p.get('appId') ?? '',
    range: range && RANGES.includes(range) ? range : 'any',
    from: localInput(p.get('from')),
    to: localInput(p.get('to')),
    q: p.get('q') ?? '',
  };
}

export function paramsFromForm(f: FilterForm): URLSearchParams {
  const p = new URLSearchParams();
  const put = (k: string, v: string) => {
    if (v.trim()) p.set(k, v.trim());
  };
  put('actor', f.actor);
  put('action', f.action);
  put('result', f.result);
  put('customer', f.customer);
  put('appId', f.appId);
  if (f.range !== 'any') p.set('range', f.range);
  if (f.range === 'custom') {
    put('from', instantOf(f.from));
    put('to', instantOf(f.to));
  }
  put('q', f.q);
  return p;
}

/** The API's query for the filters in the address, a preset range counted back from `now`. */
export function queryFromParams(p: URLSearchParams, now: number): TrailQuery {
  const f = formFromParams(p);
  const q: Record<string, string | number> = {};
  if (f.actor) q.actor = f.actor;
  if (f.action) q.action = f.action;
  if (f.result) q.result = f.result;
  if (f.customer) q.customer = f.customer;
  if (/^\d+$/.test(f.appId)) q.appId = Number(f.appId);
  if (f.range === 'custom') {
    const from = p.get('from');
    const to = p.get('to');
    if (from) q.from = from;
    if (to) q.to = to;
  } else if (f.range !== 'any') {
    q.from = new Date(now - SPAN_MS[f.range]).toISOString();
  }
  if (f.q) q.q = f.q;
  return q as TrailQuery;
}

/**
 * The form's errors, by the contract's own rules (the API answers the same texts), plus what the
 * form itself needs: a custom range has both ends.
 */
export function filterErrors(f: FilterForm, messages: { customRange: string }): FilterErrors {
  const errors: FilterErrors = {};
  if (f.range === 'custom' && (!instantOf(f.from) || !instantOf(f.to))) errors.from = messages.customRange;
  const query = queryFromParams(paramsFromForm(f), Date.now());
  const r = auditEventsQuery.safeParse({ ...query, ...(f.appId.trim() ? { appId: f.appId.trim() } : {}) });
  for (const issue of r.success ? [] : r.error.issues) {
    const field = String(issue.path[0] ?? '') as keyof FilterForm;
    if (field in EMPTY_FORM && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}
