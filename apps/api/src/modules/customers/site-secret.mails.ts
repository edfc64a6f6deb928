import { formatExpiry } from '@sac/contract/impersonation-api';
import type { MailMessage } from '../../mail/mailer.ts';

/** To a site's owner: its API secret was replaced, and until when the old one still works. */
export function secretRotatedMail(m: {
  to: string;
  firstName: string;
  appName: string;
  /** ISO time until which the previous secret is accepted; null when it stopped at once. */
  previousValidUntil: string | null;
}): MailMessage {
  return {
    to: m.to,
    subject: `A new API secret for your site ${m.appName}`,
    text: [
      `Hello ${m.firstName},`,
      '',
      `Our staff issued a new API secret for your site ${m.appName}. The new secret is not sent by mail: ask the staff member who issued it, or have it issued again.`,
      '',
      m.previousValidUntil
        ? `The previous secret keeps working until ${formatExpiry(m.previousValidUntil)}; after that it is refused. Replace it wherever your applications use it before then.`
        : 'The previous secret no longer works. Replace it wherever your applications use it.',
      '',
      'If you did not expect this, contact support.',
    ].join('\n'),
  };
}
