import type { Site } from '@sac/contract/customers';
import { useState } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { RadioGroup } from '../../../components/radio-group.tsx';
import { formatDateTimeMinutes } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useRotateSiteSecret } from '../api/customer-writes-api.ts';
import { ApiSecretBox } from './api-secret-box.tsx';

/** How long the old secret may keep working, as offered: none, 1, 4 or 24 hours (in minutes). */
const GRACE_CHOICES = ['0', '60', '240', '1440'] as const;

/**
 * 'New API secret' of one owned site: the staff member chooses how long the old secret keeps
 * working, confirms, and the new secret is shown once (only its hash is kept), with until when
 * the old one still works. The owner is mailed by the server.
 */
export function RotateSecretDialog({ uid, site, onClose }: { uid: string; site: Site; onClose: () => void }) {
  const t = useT('customers');
  const rotate = useRotateSiteSecret(uid);
  const [grace, setGrace] = useState<(typeof GRACE_CHOICES)[number]>('60');
  const issued = rotate.data?.Data;
  const onConfirm = () => {
    if (rotate.isPending) return;
    rotate.mutate(
      { appId: site.appId, GraceMinutes: Number(grace) },
      { onSuccess: (answer) => toast.success(answer.Message) },
    );
  };
  return (
    <Dialog
      title={t('rotateSecretTitle', { name: site.AppName })}
      onClose={onClose}
      busy={rotate.isPending}
      wide
    >
      {issued ? (
        <>
          <ApiSecretBox
            siteName={issued.AppName}
            apiKey={issued.ApiKey}
            secret={issued.ApiSecret}
            onHide={onClose}
          />
          <p role="status">
            {issued.PreviousSecretValidUntil
              ? t('previousSecretUntil', { when: formatDateTimeMinutes(issued.PreviousSecretValidUntil) })
              : t('previousSecretStopped')}
          </p>
        </>
      ) : (
        <>
          <p>{t('rotateSecretIntro', { name: site.AppName })}</p>
          <RadioGroup
            legend={t('rotateSecretGrace')}
            name="GraceMinutes"
            value={grace}
            options={GRACE_CHOICES.map((g) => ({ value: g, label: t(`rotateSecretGrace.${g}`) }))}
            onChange={(v) => setGrace(v as (typeof GRACE_CHOICES)[number])}
          />
          <div className="form-actions dialog-actions">
            <button
              type="button"
              className="button button-danger"
              aria-busy={rotate.isPending}
              onClick={onConfirm}
              data-autofocus
            >
              {rotate.isPending ? t('saving') : t('rotateSecretConfirm')}
            </button>
            <button type="button" className="button" disabled={rotate.isPending} onClick={onClose}>
              {t('cancel')}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
