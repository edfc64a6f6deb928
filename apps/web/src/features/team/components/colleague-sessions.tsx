import { useState } from 'react';
import { NO_PICKS, type Picks } from '../../../components/bulk-bar.tsx';
import { SessionsTable } from '../../../components/sessions-table.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useEndStaffSessions, useStaffSessions } from '../api/team-api.ts';
import { BulkSessionsBar } from './bulk-sessions-bar.tsx';
import { CoolDownNote } from './cool-down-note.tsx';

/**
 * On a colleague's profile, for SuperAdmins: their live sessions, to end one or all, or those
 * picked (a bulk end, with its dry run); held back (with the reason) until `coolingUntil` when the
 * viewer's cool-down forbids it.
 */
export function ColleagueSessions({
  uid,
  email,
  coolingUntil,
}: {
  uid: string;
  email: string;
  coolingUntil: string | null;
}) {
  const t = useT('team');
  const sessions = useStaffSessions(uid, true);
  const end = useEndStaffSessions(uid);
  const [ending, setEnding] = useState<number | undefined>();
  const [picks, setPicks] = useState<Picks>(NO_PICKS);
  const words = useT('customers');
  const live = sessions.data ?? [];
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
          disabled={(sessions.data ?? []).length === 0 || end.isPending || coolingUntil !== null}
          aria-describedby={coolingUntil ? 'sessions-cool-down' : undefined}
          aria-busy={end.isPending && ending === -1}
          onClick={() => {
            setEnding(-1);
            end.mutate(undefined, done);
          }}
        >
          {t('endAllSessions')}
        </button>
      </div>
      {coolingUntil ? <CoolDownNote id="sessions-cool-down" until={coolingUntil} /> : null}
      {coolingUntil ? null : <BulkSessionsBar uid={uid} sessions={live} picks={picks} setPicks={setPicks} />}
      <SessionsTable
        label={t('sessionsOf', { email })}
        rows={sessions.data}
        isLoading={sessions.isPending}
        error={sessions.isError ? sessions.error : undefined}
        ending={ending}
        heldBack={coolingUntil ? 'sessions-cool-down' : undefined}
        selection={
          coolingUntil
            ? undefined
            : {
                picked: picks.all ? new Set(live.map((s) => String(s.Id))) : picks.picked,
                onChange: (next) => setPicks({ picked: next, all: false }),
                rowLabel: (s) =>
                  words('bulkSessionsPickRow', { browser: s.Browser, address: s.ClientAddress ?? '' }),
                pageLabel: words('bulkSessionsPickPage'),
              }
        }
        onEnd={(s) => {
          setEnding(s.Id);
          end.mutate(s.Id, done);
        }}
      />
    </section>
  );
}
