import { describe, expect, it } from 'vitest';
import {
  type AskedAccess,
  assignedRequestMail,
  consentRequestMail,
  customerRequestAssignedMail,
  customerRequestReceivedMail,
  decisionMail,
  ownerDecisionMail,
  reasonLines,
} from './impersonation.mails.ts';

const access: AskedAccess = {
  appName: 'olive-shop',
  requester: { name: 'Ada Agent', email: 'agent@example.com' },
  description: 'Checkout fails for some users',
  reason: 'Support ticket',
  caseReference: 'SUP 42',
  caseUrl: 'https://tickets.example.com/browse/SUP%2042',
  roles: ['Developer', 'Analyst'],
  permissions: ['ViewData'],
  durationMinutes: 60,
};
const CONSENT = 'https://console.example/impersonation/consent?token=c0ns3nt';
const SITE_ACCESS = 'https://console.example/impersonation/site-access?token=s1te';

describe('the reason and case lines', () => {
  it('name the case without a link when there is no pattern, and nothing on an older request', () => {
    expect(reasonLines({ reason: 'Billing question', caseReference: 'B-1', caseUrl: null })).toEqual([
      'Reason: Billing question',
      'Case: B-1',
    ]);
    expect(reasonLines({ reason: null, caseReference: null, caseUrl: null })).toEqual([]);
  });
});

describe('the consent request to the owner', () => {
  const mail = consentRequestMail({
    to: 'olive@shop.example',
    firstName: 'Olive',
    requestId: 12,
    access,
    consentUrl: CONSENT,
    siteAccessUrl: SITE_ACCESS,
  });

  it('goes to the owner, naming the site and the request', () => {
    expect(mail.to).toBe('olive@shop.example');
    expect(mail.subject).toBe('Support asks to access your site olive-shop (request 12)');
  });

  it('says what is asked, by whom, and carries both links', () => {
    expect(mail.text).toBe(
      [
        'Hello Olive,',
        '',
        'Our support staff ask for temporary access to your site:',
        '',
        'Site: olive-shop',
        'Requested by: Ada Agent <agent@example.com>',
        'Reason: Support ticket',
        'Case: SUP 42',
        'Case link: https://tickets.example.com/browse/SUP%2042',
        'Why: Checkout fails for some users',
        'Roles: Developer, Analyst',
        'Additional permissions: ViewData',
        'For: 60 minutes from approval',
        '',
        'Nothing happens unless you allow it. Open this link to allow or deny the access (it works once, for 7 days):',
        '',
        CONSENT,
        '',
        'Every access to your site, past and present, is listed here (90 days):',
        SITE_ACCESS,
      ].join('\n'),
    );
  });

  it('names a requester without a name by email, and no additional permissions as none', () => {
    const m = consentRequestMail({
      to: 'olive@shop.example',
      firstName: 'Olive',
      requestId: 13,
      access: { ...access, requester: { name: '', email: 'agent@example.com' }, permissions: [] },
      consentUrl: CONSENT,
      siteAccessUrl: SITE_ACCESS,
    });
    expect(m.text).toContain('\nRequested by: agent@example.com\n');
    expect(m.text).toContain('\nAdditional permissions: none\n');
  });
});

describe('the mail to a staff request’s assignee', () => {
  it('asks for a decision and links the assigned requests', () => {
    const mail = assignedRequestMail({
      to: 'boss@example.com',
      requestId: 12,
      access,
      assignedRequestsUrl: 'https://console.example/manage-superuser/impersonation/assigned-requests',
    });
    expect(mail).toEqual({
      to: 'boss@example.com',
      subject: 'Impersonation request 12 for olive-shop needs your decision',
      text: [
        'A new impersonation request is assigned to you.',
        '',
        'Site: olive-shop',
        'Requested by: Ada Agent <agent@example.com>',
        'Reason: Support ticket',
        'Case: SUP 42',
        'Case link: https://tickets.example.com/browse/SUP%2042',
        'Why: Checkout fails for some users',
        'Roles: Developer, Analyst',
        'Additional permissions: ViewData',
        'For: 60 minutes from approval',
        '',
        'Review it in the console: https://console.example/manage-superuser/impersonation/assigned-requests',
      ].join('\n'),
    });
  });
});

describe('a customer’s own request', () => {
  it('is acknowledged to the owner with the site-access link and no consent link', () => {
    const mail = customerRequestReceivedMail({
      to: 'cora@client.example',
      firstName: 'Cora',
      requestId: 7,
      appName: 'cora-site',
      durationMinutes: 45,
      siteAccessUrl: SITE_ACCESS,
    });
    expect(mail.to).toBe('cora@client.example');
    expect(mail.subject).toBe('Your request for help with cora-site (request 7)');
    expect(mail.text).toBe(
      [
        'Hello Cora,',
        '',
        'We received your request for help with cora-site. A SuperAdmin will review it; access, if approved, lasts at most 45 minutes from approval.',
        '',
        'Every access to your site, past and present, is listed here (90 days):',
        SITE_ACCESS,
      ].join('\n'),
    );
    expect(mail.text).not.toContain('/impersonation/consent');
  });

  it('asks each SuperAdmin for a decision', () => {
    expect(
      customerRequestAssignedMail({
        to: 'boss@example.com',
        requestId: 7,
        appName: 'cora-site',
        ownerEmail: 'cora@client.example',
        description: 'Import broke',
        roles: ['Developer'],
        durationMinutes: 45,
      }),
    ).toEqual({
      to: 'boss@example.com',
      subject: 'Customer request 7 for cora-site needs your decision',
      text: 'cora@client.example asks for help with cora-site: Import broke\nRoles: Developer; 45 minutes.',
    });
  });
});

describe('the mails of a decision', () => {
  it('tell the staff member the status, with the action’s message as the text', () => {
    expect(
      decisionMail({
        to: 'agent@example.com',
        requestId: 12,
        status: 'Rejected',
        message: 'Request 12 for olive-shop has been rejected.',
      }),
    ).toEqual({
      to: 'agent@example.com',
      subject: 'Impersonation request 12: Rejected',
      text: 'Request 12 for olive-shop has been rejected.',
    });
  });

  it('tell the owner of an approval with the roles and the expiry', () => {
    expect(
      ownerDecisionMail({
        to: 'olive@shop.example',
        appName: 'olive-shop',
        status: 'Approved',
        approved: true,
        roles: ['Developer', 'Analyst'],
        expires: '03-01-2030 10:30 UTC',
      }),
    ).toEqual({
      to: 'olive@shop.example',
      subject: 'Access to your site olive-shop: Approved',
      text: 'The access you allowed to olive-shop was approved with the roles Developer, Analyst until 03-01-2030 10:30 UTC.',
    });
  });

  it('tell the owner of a revocation, whole or in part', () => {
    const owner = { to: 'olive@shop.example', appName: 'olive-shop', approved: false } as const;
    expect(ownerDecisionMail({ ...owner, status: 'Revoked', inPart: false })).toEqual({
      to: 'olive@shop.example',
      subject: 'Access to your site olive-shop: Revoked',
      text: 'The access of our support staff to olive-shop has been revoked.',
    });
    expect(ownerDecisionMail({ ...owner, status: 'Approved', inPart: true }).text).toBe(
      'The access of our support staff to olive-shop has been revoked in part.',
    );
  });
});
