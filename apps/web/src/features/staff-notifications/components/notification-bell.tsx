import { consolePaths } from '@sac/contract/console-paths';
import type { StaffNotification } from '@sac/contract/staff-notifications';
import { Link } from 'react-router';
import { DisclosurePanel } from '../../../components/dropdown-menu.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { useMarkRead, useNotificationStream, useStaffNotifications } from '../api/staff-notifications-api.ts';
import styles from './notification-bell.module.css';

type T = ReturnType<typeof useT<'staffNotifications'>>;

/** The line of one notification, in the words of its kind. */
function notificationText(t: T, n: StaffNotification): string {
  const vars = {
    actor: n.Actor ?? '',
    id: n.RequestId ?? n.JobId ?? '',
    app: n.AppName ?? '',
    count: n.Count ?? 0,
  };
  switch (n.Kind) {
    case 'assigned':
      return n.Actor ? t('assigned', vars) : t('assignedByCustomer', vars);
    case 'consent':
      return n.Status === 'Denied' ? t('consentDenied', vars) : t('consentGranted', vars);
    case 'decided':
      return n.Status === 'Rejected' ? t('rejected', vars) : t('approved', vars);
    case 'revoked':
      return n.Status === 'PartlyRevoked' ? t('partlyRevoked', vars) : t('revoked', vars);
    case 'expiring':
      return t('expiring', vars);
    case 'sessions-ended':
      return t('sessionsEnded', vars);
    case 'webhook-paused':
      return t('webhookPaused', vars);
    case 'break-glass':
      return t('breakGlass', vars);
    case 'break-glass-reviewed':
      return t('breakGlassReviewed', vars);
    case 'bulk-approval':
      return t('bulkApproval', vars);
  }
}

const linkOf = (n: StaffNotification) =>
  n.Kind === 'bulk-approval' && n.JobId !== null
    ? consolePaths.bulkJob({ id: n.JobId })
    : n.Kind === 'webhook-paused'
      ? consolePaths.webhooks()
      : n.Kind === 'break-glass'
        ? consolePaths.dashboard()
        : n.RequestId !== null
          ? consolePaths.impersonationRequests({ request: n.RequestId })
          : consolePaths.mySessions();

function BellIcon() {
  return (
    <svg
      className="bell-icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
      focusable="false"
    >
      <path
        fill="currentColor"
        d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"
      />
    </svg>
  );
}

/**
 * The bell in the top bar: the unread count on it and in its name ("Notifications, 3 unread"), and
 * a panel (a disclosure) of the newest notifications, each linking to its request, marked read
 * one by one or all at once. Live over the notifications' stream; without it, read each minute.
 */
export function NotificationBell() {
  const t = useT('staffNotifications');
  const live = useNotificationStream(true);
  const list = useStaffNotifications(live);
  const markRead = useMarkRead();
  const unread = list.data?.UnreadCount ?? 0;
  const shown = unread > 99 ? '99+' : String(unread);
  return (
    <DisclosurePanel
      className="notification-bell"
      ariaLabel={unread > 0 ? t('bellUnread', { count: unread }) : t('bell')}
      panelLabel={t('panel')}
      label={
        <>
          <BellIcon />
          {unread > 0 ? (
            <span className={styles.bellCount} aria-hidden="true">
              {shown}
            </span>
          ) : null}
        </>
      }
    >
      {(close) => (
        <>
          <div className={styles.notificationPanelHead}>
            <h2 className={styles.notificationPanelTitle}>{t('panel')}</h2>
            {unread > 0 ? (
              <button
                type="button"
                className="button button-link"
                disabled={markRead.isPending}
                onClick={() => markRead.mutate({ All: true })}
              >
                {t('markAllRead')}
              </button>
            ) : null}
          </div>
          {list.isError ? <p className={styles.notificationEmpty}>{t('loadFailed')}</p> : null}
          {list.data && list.data.Data.length === 0 ? (
            <p className={styles.notificationEmpty}>{t('empty')}</p>
          ) : null}
          <ul className={styles.notificationList}>
            {list.data?.Data.map((n) => {
              const text = notificationText(t, n);
              const isUnread = n.ReadAt === null;
              return (
                <li key={n.Id} className={`${styles.notificationItem}${isUnread ? ' is-unread' : ''}`}>
                  <Link
                    to={linkOf(n)}
                    className={styles.notificationLink}
                    onClick={() => {
                      if (isUnread) markRead.mutate({ Ids: [n.Id] });
                      close();
                    }}
                  >
                    {isUnread ? <span className="visually-hidden">{t('unread')}: </span> : null}
                    {text}
                  </Link>
                  <div className={styles.notificationMeta}>
                    <Timestamp value={n.CreatedAt} />
                    {isUnread ? (
                      <button
                        type="button"
                        className="button button-link"
                        aria-label={t('markReadLabel', { text })}
                        onClick={() => markRead.mutate({ Ids: [n.Id] })}
                      >
                        {t('markRead')}
                      </button>
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ul>
          <div className={styles.notificationPanelFoot}>
            {live ? null : <span className="muted">{t('offline')}</span>}
            <Link to={consolePaths.notificationSettings()} onClick={close}>
              {t('settings')}
            </Link>
          </div>
        </>
      )}
    </DisclosurePanel>
  );
}
