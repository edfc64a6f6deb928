import { DISPLAY_STATUSES } from '@sac/contract/impersonation-api';
import { useSearchParams } from 'react-router';
import { SelectField } from '../../../components/select-field.tsx';
import { useT } from '../../../lib/i18n.tsx';
import type { DisplayStatus } from '../api/impersonation-api.ts';

const isStatus = (v: string | null): v is DisplayStatus => DISPLAY_STATUSES.includes(v as DisplayStatus);

/** The table's status filter, kept in the address (?status=) with the page and order; undefined: All. */
export function useStatusFilter(): [DisplayStatus | undefined, (s: DisplayStatus | undefined) => void] {
  const [search, setSearch] = useSearchParams();
  const raw = search.get('status');
  const status = isStatus(raw) ? raw : undefined;
  const set = (s: DisplayStatus | undefined) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (s) next.set('status', s);
        else next.delete('status');
        // Another filter starts at the first page.
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  return [status, set];
}

/** A select named 'Status': All, Pending, Approved, Rejected, Revoked, Expired. */
export function StatusFilter({
  id,
  value,
  onChange,
}: {
  id: string;
  value: DisplayStatus | undefined;
  onChange: (s: DisplayStatus | undefined) => void;
}) {
  const t = useT('impersonation');
  return (
    <SelectField
      id={id}
      name="status"
      label={t('statusFilter')}
      placeholder={t('statusAll')}
      options={DISPLAY_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
      value={value ?? ''}
      onValueChange={(v) => onChange(isStatus(v) ? v : undefined)}
    />
  );
}
