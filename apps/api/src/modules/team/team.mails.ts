import { TEAM_MESSAGES } from '@sac/contract/team';
import type { MailMessage } from '../../mail/mailer.ts';

/** The mails of the staff team: pure functions from what they tell to the outbox's message. */

/** To a new staff member: who created their account with which roles, and the single-use link to set a password. */
export function invitationMail(m: {
  to: string;
  /** Their full name; the greeting uses the email when it is empty. */
  name: string;
  /** The staff member who created the account; named by email when they have no name. */
  inviter: { name: string; email: string };
  roles: string[];
  invitationUrl: string;
}): MailMessage {
  return {
    to: m.to,
    subject: TEAM_MESSAGES.invitationSubject,
    text: [
      `Hello ${m.name || m.to},`,
      '',
      `${m.inviter.name || m.inviter.email} has created a Super Admin Console account for you with the role${m.roles.length > 1 ? 's' : ''} ${m.roles.join(', ')}.`,
      'Open this link within 24 hours to set your password (it works once):',
      '',
      m.invitationUrl,
      '',
      'If the link has expired, use "Forgot password" on the sign-in page.',
    ].join('\n'),
  };
}
