import { ACCESS_REVIEW_MESSAGES, type ReviewState } from '@sac/contract/access-review';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { SuperUser } from '@sac/contract/team';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { formatDate } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useReviewDecision } from '../api/team-api.ts';
import { primaryEmail } from './staff.ts';

const BADGE: Record<ReviewState, string> = {
  ok: 'status-badge status-approved',
  due: 'status-badge status-pending',
  overdue: 'status-badge status-rejected',
  none: 'status-badge',
};

/** The order the Review column sorts by: the most urgent first, no roles last. */
export const reviewSortValue = (row: SuperUser) =>
  row.Review ? `${row.Review.State === 'none' ? '1' : '0'}${row.Review.DueAt}` : '2';

/**
 * A member's periodic access review: its state, the deadline and who confirmed last; for a
 * SuperAdmin viewer on a colleague with roles, the decisions (confirm, remove the roles).
 */
export function ReviewCell({
  row,
  viewer,
  onRevoke,
}: {
  row: SuperUser;
  viewer: { uid: string; roles: readonly string[] };
  onRevoke: (row: SuperUser) => void;
}) {
  const t = useT('team');
  const decide = useReviewDecision();
  const review = row.Review;
  if (!review) return null;
  const mayDecide =
    viewer.roles.includes(ROLE_SUPER_ADMIN) && viewer.uid !== row.Uid && review.State !== 'none';
  const confirm = () =>
    decide.mutate(
      { row, decision: 'confirm' },
      { onSuccess: () => toast.success(ACCESS_REVIEW_MESSAGES.confirmed) },
    );
  return (
    <div className="access-review" data-review-state={review.State}>
      <span className={BADGE[review.State]}>
        {t(review.State === 'ok' && !review.ConfirmedAt ? 'review_notYetDue' : `review_${review.State}`)}
      </span>
      {review.State !== 'none' ? (
        <div className="field-hint">
          {t(review.State === 'overdue' ? 'reviewWasDue' : 'reviewDue', { date: formatDate(review.DueAt) })}
          {review.ConfirmedBy ? (
            <>
              <br />
              {t('reviewConfirmedBy', { who: review.ConfirmedBy, date: formatDate(review.ConfirmedAt) })}
            </>
          ) : null}
        </div>
      ) : null}
      {mayDecide ? (
        <div className="row-actions">
          <button
            type="button"
            className="button button-small"
            disabled={decide.isPending}
            aria-label={t('reviewConfirmOf', { email: primaryEmail(row) })}
            onClick={confirm}
          >
            {t('reviewConfirm')}
          </button>
          <button
            type="button"
            className="button button-small button-danger"
            aria-label={t('reviewRevokeOf', { email: primaryEmail(row) })}
            onClick={() => onRevoke(row)}
          >
            {t('reviewRevoke')}
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** Confirms and removes every role of one member (their sessions end at once). */
export function RevokeRolesDialog({ target, onClose }: { target: SuperUser; onClose: () => void }) {
  const t = useT('team');
  const decide = useReviewDecision();
  const onConfirm = () => {
    if (decide.isPending) return;
    decide.mutate(
      { row: target, decision: 'revoke' },
      {
        onSuccess: () => {
          toast.success(ACCESS_REVIEW_MESSAGES.revoked);
          onClose();
        },
      },
    );
  };
  return (
    <ConfirmDialog
      title={t('reviewRevokeTitle')}
      confirmLabel={t('reviewRevoke')}
      busyLabel={t('reviewRevoking')}
      cancelLabel={t('cancel')}
      danger
      busy={decide.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>{t('reviewRevokeText', { email: primaryEmail(target), roles: target.Roles.join(', ') })}</p>
    </ConfirmDialog>
  );
}
