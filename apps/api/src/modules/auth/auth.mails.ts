import type { MailMessage } from '../../mail/mailer.ts';

/** The mails of staff accounts: pure functions from what they tell to the outbox's message. */

/** To a staff member who asked to reset their password: the single-use reset link and how long it works. */
export function resetPasswordMail(m: {
  to: string;
  /** Their full name; the greeting uses the email when it is empty. */
  name: string;
  resetUrl: string;
  ttlMinutes: number;
}): MailMessage {
  return {
    to: m.to,
    subject: 'Reset your Super Admin Console password',
    text: [
      `Hello ${m.name || m.to},`,
      '',
      'Someone asked to reset the password of your Super Admin Console account.',
      `Open this link within ${m.ttlMinutes} minutes to choose a new password (it works once):`,
      '',
      m.resetUrl,
      '',
      'If you did not ask for this, ignore this message: your password stays as it is.',
    ].join('\n'),
  };
}

/** To a staff member whose second factors a SuperAdmin removed: what happened and what comes next. */
export function factorsResetMail(m: {
  to: string;
  name: string;
  by: string;
  required: boolean;
}): MailMessage {
  return {
    to: m.to,
    subject: 'Your Super Admin Console second factors were removed',
    text: [
      `Hello ${m.name || m.to},`,
      '',
      `${m.by} removed the passkeys, authenticator app and recovery codes of your Super Admin Console account, and ended its sessions.`,
      m.required
        ? 'At your next sign-in you will set up a new passkey or authenticator app.'
        : 'You can set up a new passkey or authenticator app under your account menu, in Sign-in security.',
      '',
      'If you did not ask for this, tell your security team at once.',
    ].join('\n'),
  };
}
