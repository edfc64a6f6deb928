import { describe, expect, it } from 'vitest';
import { resetPasswordMail } from './auth.mails.ts';

const RESET = 'https://console.example/login?vtype=reset&vtoken=r3s3t';

describe('the reset-password mail', () => {
  const mail = resetPasswordMail({
    to: 'ada@example.com',
    name: 'Ada Admin',
    resetUrl: RESET,
    ttlMinutes: 30,
  });

  it('goes to the staff member with the console’s subject', () => {
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('Reset your Super Admin Console password');
  });

  it('greets them, says how long the link works and carries it', () => {
    expect(mail.text).toBe(
      [
        'Hello Ada Admin,',
        '',
        'Someone asked to reset the password of your Super Admin Console account.',
        'Open this link within 30 minutes to choose a new password (it works once):',
        '',
        RESET,
        '',
        'If you did not ask for this, ignore this message: your password stays as it is.',
      ].join('\n'),
    );
  });

  it('greets a staff member without a name by their email', () => {
    const m = resetPasswordMail({ to: 'ada@example.com', name: '', resetUrl: RESET, ttlMinutes: 60 });
    expect(m.text.split('\n')[0]).toBe('Hello ada@example.com,');
    expect(m.text).toContain(
      '\nOpen this link within 60 minutes to choose a new password (it works once):\n',
    );
  });
});
