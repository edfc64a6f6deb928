import { CopyableCode } from '../../../components/copy-button.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { formatDateTimeMinutes } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';

/**
 * A signing secret, shown once (after a subscription is made, and after a rotation): Copy, and a
 * plain word that it will not be shown again. `overlapUntil`: when the old secret stops signing.
 */
export function SecretDialog({
  secret,
  overlapUntil,
  onClose,
}: {
  secret: string;
  overlapUntil?: string | null;
  onClose: () => void;
}) {
  const t = useT('webhooks');
  return (
    <Dialog title={t('secretTitle')} onClose={onClose} wide>
      <p>{t('secretIntro')}</p>
      <p className="notice notice-info">
        <strong>{t('secretOnce')}</strong>
      </p>
      <CopyableCode text={secret} label={t('copySecret')} />
      {overlapUntil ? (
        <p className="muted">{t('secretOverlap', { time: formatDateTimeMinutes(overlapUntil) })}</p>
      ) : null}
      <div className="form-actions dialog-actions">
        <button type="button" className="button button-primary" onClick={onClose}>
          {t('secretDone')}
        </button>
      </div>
    </Dialog>
  );
}
