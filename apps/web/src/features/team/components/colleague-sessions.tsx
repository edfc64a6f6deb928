import { useState } from 'react';
import { SessionsTable } from '../../../components/sessions-table.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useEndStaffSessions, useStaffSessions } from '../api/team-api.ts';

/** On a colleague's profile, for SuperAdmins: their live sessions, to end one or all. */
export function ColleagueSessions({ uid, email }: { uid: string; email: string }) {
  const t = useT('team');
  const sessions = useStaffSessions(uid, true);
  const end = useEndStaffSessions(uid);
  const [ending, setEnding] = useState<number | undefined>();
  const done = {
    onSuccess: (answer: { Message: string }) => toast.success(answer.Message),
    onSettled: () => setEnding(undefined),
  };
  return (
    <section aria-labelledby="profile-sessions">
      <div className="page-header">
        <h2 id="profile-sessions">{t('sessionsOf', { email })}</h2>
        <button
          type="button"
          className="button button-small button-danger"
          disabled={(sessions.data ?? []).length === 0 || end.isPending}
          aria-busy={end.isPending && ending === -1}
          onClick={() => {
            setEnding(-1);
            end.mutate(undefined, done);
          }}
        >
          {t('endAllSessions')}
        </button>
      </div>
      <SessionsTable
        label={t('sessionsOf', { email })}
        rows={sessions.data}
        isLoading={sessions.isPending}
        error={sessions.isError ? sessions.error : undefined}
        ending={ending}
        onEnd={(s) => {
          setEnding(s.Id);
          end.mutate(s.Id, done);
        }}
      />
    </section>
  );
}
