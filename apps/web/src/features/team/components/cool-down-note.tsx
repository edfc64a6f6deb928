import { formatDateTimeMinutes } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';

/**
 * Says why acts on another SuperAdmin are held back for a new SuperAdmin, and until when; the
 * buttons it holds back name it with aria-describedby.
 */
export function CoolDownNote({ id, until }: { id: string; until: string }) {
  const t = useT('team');
  return (
    <p id={id} className="field-hint approver-cool-down">
      {t('coolDownActs', { time: formatDateTimeMinutes(until) })}
    </p>
  );
}
