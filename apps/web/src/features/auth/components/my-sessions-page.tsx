import { useState } from 'react';
import { SessionsTable } from '../../../components/sessions-table.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useEndMySessions, useMySessions } from '../api/auth-api.ts';

/**
 * /account/sessions: every live session of mine (this one marked), each of the others with End,
 * and 'End all other sessions'. An ended session is refused from its next call.
 */
export default function MySessionsPage() {
  const t = useT('auth');
  const sessions = useMySessions();
  const end = useEndMySessions();
  const [ending, setEnding] = useState<number | undefined>();
  const others = (sessions.data ?? []).filter((s) => !s.Current).length;
  const done = {
    onSuccess: (answer: { Message: string }) => toast.success(answer.Message),
    onSettled: () => setEnding(undefined),
  };
  return (
    <section className="card" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('mySessionsHeading')}</h1>
          <p className="muted">{t('mySessionsIntro')}</p>
        </div>
        <button
          type="button"
          className="button button-danger"
          disabled={others === 0 || end.isPending}
          aria-busy={end.isPending && ending === -1}
          onClick={() => {
            setEnding(-1);
            end.mutate({ AllOthers: true }, done);
          }}
        >
          {t('endOtherSessions')}
        </button>
      </div>
      <SessionsTable
        label={t('mySessionsHeading')}
        rows={sessions.data}
        isLoading={sessions.isPending}
        error={sessions.isError ? sessions.error : undefined}
        ending={ending}
        onEnd={(s) => {
          setEnding(s.Id);
          end.mutate({ Id: s.Id }, done);
        }}
      />
    </section>
  );
}
