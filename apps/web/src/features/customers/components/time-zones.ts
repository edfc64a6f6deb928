import timezones from 'timezones.json';
import type { SelectOption } from '../../../components/select-field.tsx';

/**
 * The time-zone choices of the customer forms, from timezones.json: the stored value is an entry's
 * first `utc` identifier (as the API and its seed store it), the text is the entry's `text`.
 * Entries without an identifier, and later entries repeating one, are left out.
 */
export const TIME_ZONE_OPTIONS: readonly SelectOption[] = (() => {
  const seen = new Set<string>();
  const out: SelectOption[] = [];
  for (const tz of timezones) {
    const id = tz.utc?.[0];
    if (!id || seen.has(id)) continue;
    seen.add(id);
    out.push({ value: id, label: tz.text });
  }
  return out;
})();

/**
 * The options with `current` added when it is not one of them, so a saved value shows: named by the
 * entry listing it among its identifiers ('Europe/London' -> '(UTC) Edinburgh, London'), else as itself.
 */
export function timeZoneOptions(current: string): readonly SelectOption[] {
  if (!current || TIME_ZONE_OPTIONS.some((o) => o.value === current)) return TIME_ZONE_OPTIONS;
  const entry = timezones.find((tz) => tz.utc?.includes(current));
  return [{ value: current, label: entry ? `${entry.text} · ${current}` : current }, ...TIME_ZONE_OPTIONS];
}
