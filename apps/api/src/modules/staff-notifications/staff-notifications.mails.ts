import type { MailMessage } from '../../mail/mailer.ts';

/**
 * The mail of a staff notification whose kind had no mail of its own before notifications (the
 * assignment, decision and revocation mails of impersonation.mails.ts stay theirs): sent to those
 * who chose "also email" for the kind.
 */
export function staffNotificationMail(m: {
  to: string;
  subject: string;
  lines: string[];
  url: string;
}): MailMessage {
  return {
    to: m.to,
    subject: m.subject,
    text: [
      ...m.lines,
      '',
      m.url,
      '',
      'You chose to be mailed this kind of notification: change it under My profile.',
    ].join('\n'),
  };
}
