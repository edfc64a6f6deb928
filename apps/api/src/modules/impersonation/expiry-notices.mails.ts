import { formatExpiry } from '@sac/contract/impersonation-api';
import type { MailMessage } from '../../mail/mailer.ts';

/** The mails of expired impersonation grants: pure functions from what they tell to the outbox's message. */

/** To the staff member who held the grant: their access has ended. */
export function holderExpiryMail(m: {
  to: string;
  requestId: number;
  appName: string;
  endedAt: Date;
}): MailMessage {
  return {
    to: m.to,
    subject: `Impersonation request ${m.requestId}: Expired`,
    text: `Your access to ${m.appName} through impersonation request ${m.requestId} ended at ${formatExpiry(m.endedAt.toISOString())}. Ask for a new request if you still need access.`,
  };
}

/** To the site's owner: the access they allowed has ended. */
export function ownerExpiryMail(m: {
  to: string;
  firstName: string;
  requestId: number;
  appName: string;
  endedAt: Date;
}): MailMessage {
  return {
    to: m.to,
    subject: `Access to your site ${m.appName}: Expired`,
    text: [
      `Hello ${m.firstName},`,
      '',
      `The access you allowed our support staff to ${m.appName} (request ${m.requestId}) ended at ${formatExpiry(m.endedAt.toISOString())}. They can no longer act on your site unless you allow a new request.`,
    ].join('\n'),
  };
}
