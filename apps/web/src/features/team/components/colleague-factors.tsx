import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useResetStaffFactors } from '../api/team-api.ts';
import { CoolDownNote } from './cool-down-note.tsx';

/**
 * On a colleague's profile, for SuperAdmins: reset their second factors (a lost phone or key);
 * held back (with the reason) until `coolingUntil` when the viewer's cool-down forbids it.
 */
export function ColleagueFactors({
  uid,
  email,
  coolingUntil,
}: {
  uid: string;
  email: string;
  coolingUntil: string | null;
}) {
  const t = useT('team');
  const reset = useResetStaffFactors(uid);
  const [asking, setAsking] = useState(false);
  return (
    <section aria-labelledby="profile-factors">
      <div className="page-header">
        <div>
          <h2 id="profile-factors">{t('factorsHeading')}</h2>
          <p className="muted">{t('factorsIntro', { email })}</p>
        </div>
        <button
          type="button"
          className="button button-small button-danger"
          disabled={coolingUntil !== null}
          aria-describedby={coolingUntil ? 'factors-cool-down' : undefined}
          onClick={() => setAsking(true)}
        >
          {t('resetFactors')}
        </button>
      </div>
      {coolingUntil ? <CoolDownNote id="factors-cool-down" until={coolingUntil} /> : null}
      {asking ? (
        <ConfirmDialog
          title={t('resetFactorsTitle', { email })}
          confirmLabel={t('resetFactors')}
          busyLabel={t('resetting')}
          cancelLabel={t('cancel')}
          danger
          busy={reset.isPending}
          onClose={() => setAsking(false)}
          onConfirm={() =>
            reset.mutate(undefined, {
              onSuccess: (a) => toast.success(a.Message),
              onSettled: () => setAsking(false),
            })
          }
        >
          <p>{t('resetFactorsBody')}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
