import { describe, expect, it } from 'vitest';
import { holderExpiryMail, ownerExpiryMail } from './expiry-notices.mails.ts';

const ended = { requestId: 12, appName: 'olive-shop', endedAt: new Date('2030-03-01T10:30:00.000Z') };

describe('the expiry notices', () => {
  it('tell the staff member who held the grant that their access ended, and when', () => {
    expect(holderExpiryMail({ to: 'agent@example.com', ...ended })).toEqual({
      to: 'agent@example.com',
      subject: 'Impersonation request 12: Expired',
      text: 'Your access to olive-shop through impersonation request 12 ended at 03-01-2030 10:30 UTC. Ask for a new request if you still need access.',
    });
  });

  it('tell the site’s owner that the access they allowed ended, and when', () => {
    expect(ownerExpiryMail({ to: 'olive@shop.example', firstName: 'Olive', ...ended })).toEqual({
      to: 'olive@shop.example',
      subject: 'Access to your site olive-shop: Expired',
      text: [
        'Hello Olive,',
        '',
        'The access you allowed our support staff to olive-shop (request 12) ended at 03-01-2030 10:30 UTC. They can no longer act on your site unless you allow a new request.',
      ].join('\n'),
    });
  });
});
