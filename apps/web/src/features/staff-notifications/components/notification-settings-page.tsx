import { STAFF_NOTIFICATION_KINDS, type StaffNotificationKind } from '@sac/contract/staff-notifications';
import { useEffect, useState } from 'react';
import { QueryStatus } from '../../../components/query-status.tsx';
import { RadioGroup } from '../../../components/radio-group.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import {
  useNotificationPreferences,
  useSaveNotificationPreferences,
} from '../api/staff-notifications-api.ts';

type Delivery = 'in-app' | 'email';

const KIND_LABEL = {
  assigned: 'kindAssigned',
  consent: 'kindConsent',
  decided: 'kindDecided',
  revoked: 'kindRevoked',
  expiring: 'kindExpiring',
  'sessions-ended': 'kindSessionsEnded',
  'webhook-paused': 'kindWebhookPaused',
  'break-glass': 'kindBreakGlass',
  'break-glass-reviewed': 'kindBreakGlassReviewed',
  'bulk-approval': 'kindBulkApproval',
} as const satisfies Record<StaffNotificationKind, string>;

/** Account › Notification settings: per kind, in the console only or also by email. */
export default function NotificationSettingsPage() {
  const t = useT('staffNotifications');
  const prefs = useNotificationPreferences();
  const save = useSaveNotificationPreferences();
  const [chosen, setChosen] = useState<Partial<Record<StaffNotificationKind, Delivery>>>({});
  useEffect(() => {
    if (prefs.data) setChosen(Object.fromEntries(prefs.data.Data.map((p) => [p.Kind, p.Delivery])));
  }, [prefs.data]);
  const saved = new Map(prefs.data?.Data.map((p) => [p.Kind, p.Delivery]));
  // only the kinds changed are sent
  const changed = STAFF_NOTIFICATION_KINDS.filter((k) => chosen[k] && chosen[k] !== saved.get(k)).map(
    (k) => ({
      Kind: k,
      Delivery: chosen[k]!,
    }),
  );
  return (
    <section className="card form-card" aria-labelledby="screen-title">
      <h1 id="screen-title">{t('settingsHeading')}</h1>
      <p className="muted">{t('settingsIntro')}</p>
      <QueryStatus query={prefs} />
      {prefs.data ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (changed.length === 0) return;
            save.mutate(changed, {
              onSuccess: () => toast.success(t('saved')),
              onError: (err) => toast.error(errorText(err)),
            });
          }}
        >
          {STAFF_NOTIFICATION_KINDS.map((k) => (
            <RadioGroup
              key={k}
              legend={t(KIND_LABEL[k])}
              name={`delivery-${k}`}
              value={chosen[k] ?? 'in-app'}
              options={[
                { value: 'in-app', label: t('inApp') },
                { value: 'email', label: t('email') },
              ]}
              onChange={(v) => setChosen((c) => ({ ...c, [k]: v as Delivery }))}
            />
          ))}
          <div className="form-actions">
            <button
              type="submit"
              className="button button-primary"
              aria-busy={save.isPending}
              disabled={changed.length === 0}
            >
              {t('save')}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
