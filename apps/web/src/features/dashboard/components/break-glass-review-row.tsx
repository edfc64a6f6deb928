import {
  BREAK_GLASS_NOTE_MAX,
  type BreakGlassReviewItem,
  closeBreakGlassReviewBody,
} from '@sac/contract/break-glass';
import type { FormEvent } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { ReasonNote } from '../../../components/reason-view.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { formatDateTimeMinutes } from '../../../lib/date-format.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast-store.ts';
import { useCloseBreakGlassReview } from '../api/dashboard-api.ts';
import cardStyles from './break-glass-review-card.module.css';
import impersonationCardsStyles from './impersonation-cards.module.css';

/*
 * One break-glass access as its review shows it, and the close-with-note dialog: the dashboard's
 * card and the reviews page both list these rows (in impersonationCardsStyles.dashboardList).
 */

/** Its badge: overdue (red), to review, or closed. */
function badge(r: BreakGlassReviewItem): {
  className: string;
  key: 'breakGlassOverdueOne' | 'breakGlassDueOne' | 'breakGlassClosedOne';
} {
  if (r.ClosedAt !== null) return { className: 'status-badge status-approved', key: 'breakGlassClosedOne' };
  return r.Overdue
    ? { className: 'status-badge status-rejected', key: 'breakGlassOverdueOne' }
    : { className: 'status-badge status-pending', key: 'breakGlassDueOne' };
}

/**
 * A review's row: the site, its state (an overdue one in red), who opened it, when, why and under
 * which case, and its deadline; an open one has Close for anyone but its opener, a closed one
 * says who closed it and their note.
 */
export function BreakGlassReviewRow({
  item: r,
  onClose,
}: {
  item: BreakGlassReviewItem;
  onClose: (item: BreakGlassReviewItem) => void;
}) {
  const t = useT('dashboard');
  const viewer = useCurrentUser();
  const mine = r.OpenedBy.toLowerCase() === viewer.email.toLowerCase();
  const b = badge(r);
  const open = r.ClosedAt === null;
  return (
    <li className={r.Overdue ? cardStyles.overdueItem : undefined} data-request-id={r.RequestId}>
      <strong>{r.AppName}</strong>
      <span className={b.className}>{t(b.key)}</span>
      {!open ? null : mine ? (
        <span className="muted">{t('breakGlassYours')}</span>
      ) : (
        <button type="button" className="button button-small" onClick={() => onClose(r)}>
          {t('breakGlassCloseFor', { id: r.RequestId })}
        </button>
      )}
      <span className={`muted ${impersonationCardsStyles.dashboardMeta}`}>
        {t('breakGlassMeta', { by: r.OpenedBy, at: formatDateTimeMinutes(r.OpenedAt) })} ·{' '}
        {t('breakGlassDueBy', { date: formatDateTimeMinutes(r.DueAt) })}
      </span>
      <ReasonNote shown={r} className={impersonationCardsStyles.dashboardMeta} />
      {open ? null : (
        <span className={impersonationCardsStyles.dashboardMeta}>
          {t('breakGlassClosedBy', {
            by: r.ClosedBy ?? '',
            at: formatDateTimeMinutes(r.ClosedAt!),
            note: r.Note ?? '',
          })}
        </span>
      )}
    </li>
  );
}

/** Close a review: what was done and why, in a note (required, at most 1,000 characters). */
export function CloseReviewDialog({ item, onClose }: { item: BreakGlassReviewItem; onClose: () => void }) {
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
