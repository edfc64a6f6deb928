import type { NoticeKind } from '@sac/contract/notices';
import type { MailMessage } from '../../mail/mailer.ts';

/** The mail of a customer notice: a pure function from the notice and its recipient. */

const SUBJECT_PREFIX: Record<NoticeKind, string> = {
  maintenance: '[Scheduled maintenance] ',
  incident: '[Incident] ',
  announcement: '',
};

export function noticeMail(m: {
  to: string;
  firstName: string;
  kind: NoticeKind;
  subject: string;
  text: string;
  /** Announcements: the console's page that confirms the unsubscription. */
  unsubscribePage?: string;
  /** Announcements: where a mail client posts a one-click unsubscribe (RFC 8058). */
  oneClickUrl?: string;
}): MailMessage {
  const footer =
    m.kind === 'announcement' && m.unsubscribePage
      ? [
          'You receive announcements as the owner of a site on our platform.',
          'To stop receiving announcements (incident and maintenance notices still reach you), open:',
          m.unsubscribePage,
        ]
      : ['This is a service notice about a site you own. It goes to every owner concerned.'];
  const message: MailMessage = {
    to: m.to,
    subject: `${SUBJECT_PREFIX[m.kind]}${m.subject}`,
    text: [m.firstName ? `Hello ${m.firstName},` : 'Hello,', '', m.text, '', '--', ...footer].join('\n'),
  };
  if (m.kind === 'announcement' && m.oneClickUrl) {
    message.headers = {
      'List-Unsubscribe': `<${m.oneClickUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    };
  }
  return message;
}
