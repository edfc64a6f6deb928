import {
  BREAK_GLASS_NOTE_MAX,
  type BreakGlassReviewItem,
  closeBreakGlassReviewBody,
} from '@sac/contract/break-glass';
import type { Dashboard } from '@sac/contract/dashboard';
import { type FormEvent, useState } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { formatDateTimeMinutes } from '../../../lib/date-format.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast-store.ts';
import { useCloseBreakGlassReview } from '../api/dashboard-api.ts';
import cardStyles from './break-glass-review-card.module.css';
import dashboardPageStyles from './dashboard-page.module.css';
import impersonationCardsStyles from './impersonation-cards.module.css';
import platformCardsStyles from './platform-cards.module.css';

/**
 * The break-glass review queue (SuperAdmins): every open review, the oldest first, with its reason
 * and case; an overdue one (past 24 hours) in red, as the card itself while one is. Another
 * SuperAdmin than the opener closes each with a note.
 */
export function BreakGlassReviewCard({ queue }: { queue: NonNullable<Dashboard['BreakGlassReview']> }) {
  const t = useT('dashboard');
  const viewer = useCurrentUser();
  const [closing, setClosing] = useState<BreakGlassReviewItem | undefined>();
  const overdue = queue.Overdue > 0;
  return (
    <section
      className={`card ${dashboardPageStyles.dashboardCard} ${overdue ? cardStyles.overdueCard : ''}`}
      aria-labelledby="dash-break-glass"
      data-testid="break-glass-reviews"
    >
      <header className={impersonationCardsStyles.dashboardCardHeader}>
        <h2 id="dash-break-glass">{t('breakGlassTitle')}</h2>
      </header>
      <dl className={platformCardsStyles.dashboardFigures}>
        <div>
          <dt>{t('breakGlassOpen')}</dt>
          <dd data-testid="break-glass-open">{queue.Open}</dd>
        </div>
        <div>
          <dt>{t('breakGlassOverdue')}</dt>
          <dd data-testid="break-glass-overdue" className={overdue ? cardStyles.overdueFigure : undefined}>
            {queue.Overdue}
          </dd>
        </div>
      </dl>
      {queue.Items.length === 0 ? (
        <p className="muted">{t('breakGlassNone')}</p>
      ) : (
        <ul className={impersonationCardsStyles.dashboardList} aria-label={t('breakGlassListLabel')}>
          {queue.Items.map((r) => {
            const mine = r.OpenedBy.toLowerCase() === viewer.email.toLowerCase();
            return (
              <li key={r.RequestId} className={r.Overdue ? cardStyles.overdueItem : undefined}>
                <strong>{r.AppName}</strong>
                <span className={r.Overdue ? 'status-badge status-rejected' : 'status-badge status-pending'}>
                  {r.Overdue ? t('breakGlassOverdueOne') : t('breakGlassDueOne')}
                </span>
                {mine ? (
                  <span className="muted">{t('breakGlassYours')}</span>
                ) : (
                  <button type="button" className="button button-small" onClick={() => setClosing(r)}>
                    {t('breakGlassCloseFor', { id: r.RequestId })}
                  </button>
                )}
                <span className={`muted ${impersonationCardsStyles.dashboardMeta}`}>
                  {t('breakGlassMeta', {
                    by: r.OpenedBy,
                    at: formatDateTimeMinutes(r.OpenedAt),
                    reason: r.ReasonLabel ?? '',
                    case: r.CaseReference ?? '',
                  })}{' '}
                  · {t('breakGlassDueBy', { date: formatDateTimeMinutes(r.DueAt) })}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {queue.Enabled ? null : <p className="muted">{t('breakGlassOff')}</p>}
      {closing ? <CloseReviewDialog item={closing} onClose={() => setClosing(undefined)} /> : null}
    </section>
  );
}

/** Close a review: what was done and why, in a note (required, at most 1,000 characters). */
function CloseReviewDialog({ item, onClose }: { item: BreakGlassReviewItem; onClose: () => void }) {
  const t = useT('dashboard');
  const close = useCloseBreakGlassReview();
  const form = useContractForm(closeBreakGlassReviewBody, {
    initial: { RequestId: item.RequestId, Note: '' },
    leaveGuard: false,
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const body = form.submit();
    if (!body || close.isPending) return;
    close
      .mutateAsync(body)
      .then((answer) => {
        toast.success(answer.Message);
        onClose();
      })
      .catch((error: unknown) => form.serverFailed(error));
  };
  return (
    <Dialog
      title={t('breakGlassCloseTitle', { id: item.RequestId })}
      onClose={onClose}
      busy={close.isPending}
    >
      <p>
        {t('breakGlassCloseIntro', {
          by: item.OpenedBy,
          app: item.AppName,
          reason: item.ReasonLabel ?? '',
          case: item.CaseReference ?? '',
        })}
      </p>
      <form onSubmit={onSubmit} noValidate aria-label={t('breakGlassCloseTitle', { id: item.RequestId })}>
        <TextAreaField
          id="break-glass-note"
          name="Note"
          label={t('breakGlassNote')}
          hint={t('breakGlassNoteHint', { max: BREAK_GLASS_NOTE_MAX })}
          maxLength={BREAK_GLASS_NOTE_MAX}
          value={form.values.Note}
          error={form.shown('Note')}
          onValueChange={(v) => form.set('Note', v)}
          onBlur={() => form.touch('Note')}
          required
          data-autofocus
        />
        <div className="form-actions dialog-actions">
          <button type="submit" className="button button-primary" aria-busy={close.isPending}>
            {close.isPending ? t('breakGlassClosing') : t('breakGlassCloseSubmit')}
          </button>
          <button type="button" className="button" disabled={close.isPending} onClick={onClose}>
            {t('breakGlassCancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
