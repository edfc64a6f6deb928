import { describe, expect, it } from 'vitest';
import { invitationMail } from './team.mails.ts';

const INVITE = 'https://console.example/login?vtype=invite&vtoken=1nv1te';

describe('the invitation mail', () => {
  const mail = invitationMail({
    to: 'new@example.com',
    name: 'Nina New',
    inviter: { name: 'Sam Super', email: 'sam@example.com' },
    roles: ['Admin', 'Support'],
    invitationUrl: INVITE,
  });

  it('goes to the new staff member with the invitation subject', () => {
    expect(mail.to).toBe('new@example.com');
    expect(mail.subject).toBe('You are invited to the Super Admin Console');
  });

  it('names who created the account with which roles, and carries the link', () => {
    expect(mail.text).toBe(
      [
        'Hello Nina New,',
        '',
        'Sam Super has created a Super Admin Console account for you with the roles Admin, Support.',
        'Open this link within 24 hours to set your password (it works once):',
        '',
        INVITE,
        '',
        'If the link has expired, use "Forgot password" on the sign-in page.',
      ].join('\n'),
    );
  });

  it('says role for one, and names people without a name by their email', () => {
    const m = invitationMail({
      to: 'new@example.com',
      name: '',
      inviter: { name: '', email: 'sam@example.com' },
      roles: ['Support'],
      invitationUrl: INVITE,
    });
    const lines = m.text.split('\n');
    expect(lines[0]).toBe('Hello new@example.com,');
    expect(lines[2]).toBe(
      'sam@example.com has created a Super Admin Console account for you with the role Support.',
    );
    expect(lines[5]).toBe(INVITE);
  });
});
