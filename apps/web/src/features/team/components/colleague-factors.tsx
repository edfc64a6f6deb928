import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useResetStaffFactors } from '../api/team-api.ts';

/** On a colleague's profile, for SuperAdmins: reset their second factors (a lost phone or key). */
export function ColleagueFactors({ uid, email }: { uid: string; email: string }) {
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
        <button type="button" className="button button-small button-danger" onClick={() => setAsking(true)}>
          {t('resetFactors')}
        </button>
      </div>
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
