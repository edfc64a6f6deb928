import type { WebhookSubscription } from '@sac/contract/webhooks';
import { formatDateTimeMinutes } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';

/** Active or Paused, as a badge, with why it is paused (by whom, or after failing since when). */
export function WebhookState({ s }: { s: WebhookSubscription }) {
  const t = useT('webhooks');
  const why = pausedWhy(t, s);
  return (
    <>
      <span className={`status-badge ${s.State === 'active' ? 'status-approved' : 'status-pending'}`}>
        {s.State === 'active' ? t('active') : t('paused')}
      </span>
      {why ? <div className="muted">{why}</div> : null}
      {s.State === 'active' && s.FailingSince ? (
        <div className="muted">{t('failingSince', { time: formatDateTimeMinutes(s.FailingSince) })}</div>
      ) : null}
    </>
  );
}

function pausedWhy(t: ReturnType<typeof useT<'webhooks'>>, s: WebhookSubscription): string | undefined {
  if (s.State !== 'paused') return undefined;
  if (s.PausedReason === 'failing') {
    const since = s.FailingSince ?? s.PausedAt;
    return since ? t('pausedFailing', { time: formatDateTimeMinutes(since) }) : undefined;
  }
  return s.PausedBy ? t('pausedByHand', { who: s.PausedBy }) : t('pausedByHandAnon');
}

/** The groups of event types the form shows, by the type's first word. */
export const EVENT_GROUPS = ['impersonation', 'staff', 'customer', 'site', 'notice'] as const;
export type EventGroup = (typeof EVENT_GROUPS)[number];
export const groupOf = (type: string): string => type.split('.')[0] ?? type;
