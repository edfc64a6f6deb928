import type { MailMessage } from '../../mail/mailer.ts';

/** The mails of impersonation requests: pure functions from what they tell to the outbox's message. */

/** What a request asks, as the owner and the assignees read it. */
export interface AskedAccess {
  appName: string;
  /** The staff member who asks. */
  requester: { name: string; email: string };
  description: string;
  /** The reason code's words, the case or ticket reference and its link (access-reasons.ts). */
  reason: string | null;
  caseReference: string | null;
  caseUrl: string | null;
  roles: string[];
  permissions: string[];
  durationMinutes: number;
}

/** The reason and case lines of a mail (none on older requests). */
export const reasonLines = (a: Pick<AskedAccess, 'reason' | 'caseReference' | 'caseUrl'>) => [
  ...(a.reason ? [`Reason: ${a.reason}`] : []),
  ...(a.caseReference ? [`Case: ${a.caseReference}`] : []),
  // The link on a line of its own: nothing a mail reader could take as part of it.
  ...(a.caseReference && a.caseUrl ? [`Case link: ${a.caseUrl}`] : []),
];

const asked = (a: AskedAccess) => [
  `Site: ${a.appName}`,
  `Requested by: ${a.requester.name ? `${a.requester.name} <${a.requester.email}>` : a.requester.email}`,
  ...reasonLines(a),
  `Why: ${a.description}`,
  `Roles: ${a.roles.join(', ')}`,
  `Additional permissions: ${a.permissions.join(', ') || 'none'}`,
  `For: ${a.durationMinutes} minutes from approval`,
];

/** To the site's owner: staff ask for access; the consent link and the site-access page. */
export function consentRequestMail(m: {
  to: string;
  firstName: string;
  requestId: number;
  access: AskedAccess;
  consentUrl: string;
  siteAccessUrl: string;
}): MailMessage {
  return {
    to: m.to,
    subject: `Support asks to access your site ${m.access.appName} (request ${m.requestId})`,
    text: [
      `Hello ${m.firstName},`,
      '',
      'Our support staff ask for temporary access to your site:',
      '',
      ...asked(m.access),
      '',
      'Nothing happens unless you allow it. Open this link to allow or deny the access (it works once, for 7 days):',
      '',
      m.consentUrl,
      '',
      'Every access to your site, past and present, is listed here (90 days):',
      m.siteAccessUrl,
    ].join('\n'),
  };
}

/** To each SuperAdmin assignee of a staff request: a decision is needed. */
export function assignedRequestMail(m: {
  to: string;
  requestId: number;
  access: AskedAccess;
  assignedRequestsUrl: string;
}): MailMessage {
  return {
    to: m.to,
    subject: `Impersonation request ${m.requestId} for ${m.access.appName} needs your decision`,
    text: [
      'A new impersonation request is assigned to you.',
      '',
      ...asked(m.access),
      '',
      `Review it in the console: ${m.assignedRequestsUrl}`,
    ].join('\n'),
  };
}

/** To the owner who asked for help themselves: received; the site-access page. */
export function customerRequestReceivedMail(m: {
  to: string;
  firstName: string;
  requestId: number;
  appName: string;
  durationMinutes: number;
  siteAccessUrl: string;
}): MailMessage {
  return {
    to: m.to,
    subject: `Your request for help with ${m.appName} (request ${m.requestId})`,
    text: [
      `Hello ${m.firstName},`,
      '',
      `We received your request for help with ${m.appName}. A SuperAdmin will review it; access, if approved, lasts at most ${m.durationMinutes} minutes from approval.`,
      '',
      'Every access to your site, past and present, is listed here (90 days):',
      m.siteAccessUrl,
    ].join('\n'),
  };
}

/** To each SuperAdmin: a customer's own request needs a decision. */
export function customerRequestAssignedMail(m: {
  to: string;
  requestId: number;
  appName: string;
  ownerEmail: string;
  description: string;
  roles: string[];
  durationMinutes: number;
}): MailMessage {
  return {
    to: m.to,
    subject: `Customer request ${m.requestId} for ${m.appName} needs your decision`,
    text: `${m.ownerEmail} asks for help with ${m.appName}: ${m.description}\nRoles: ${m.roles.join(', ')}; ${m.durationMinutes} minutes.`,
  };
}

/** To the staff member concerned by an approval, rejection or revocation: the action's message. */
export function decisionMail(m: {
  to: string;
  requestId: number;
  status: string;
  message: string;
}): MailMessage {
  return { to: m.to, subject: `Impersonation request ${m.requestId}: ${m.status}`, text: m.message };
}

/** To the site's owner: the access was approved (roles, until when) or revoked (in whole or in part). */
export function ownerDecisionMail(
  m: { to: string; appName: string; status: string } & (
    | { approved: true; roles: string[]; expires: string }
    | { approved: false; inPart: boolean }
  ),
): MailMessage {
  return {
    to: m.to,
    subject: `Access to your site ${m.appName}: ${m.status}`,
    text: m.approved
      ? `The access you allowed to ${m.appName} was approved with the roles ${m.roles.join(', ')} until ${m.expires}.`
      : `The access of our support staff to ${m.appName} has been revoked${m.inPart ? ' in part' : ''}.`,
  };
}

/**
 * To the site's owner, at once: a SuperAdmin opened break-glass access to their site without
 * asking (an incident or a legal request), its reason and case, until when; the site-access page.
 */
export function breakGlassOwnerMail(m: {
  to: string;
  firstName: string;
  requestId: number;
  appName: string;
  opener: string;
  why: Pick<AskedAccess, 'reason' | 'caseReference' | 'caseUrl'>;
  roles: string[];
  expires: string;
  siteAccessUrl: string;
}): MailMessage {
  return {
    to: m.to,
    subject: `Emergency access to your site ${m.appName} (break-glass ${m.requestId})`,
    text: [
      `Hello ${m.firstName},`,
      '',
      `Our staff opened emergency ("break-glass") access to your site ${m.appName} without asking you first, because consent could not be had in time. Another administrator reviews every such access.`,
      '',
      `Site: ${m.appName}`,
      `Opened by: ${m.opener}`,
      ...reasonLines(m.why),
      `Roles: ${m.roles.join(', ')}`,
      `Until: ${m.expires} (at most 60 minutes, never extended)`,
      '',
      'Every access to your site, with each call made, is listed here (90 days):',
      m.siteAccessUrl,
    ].join('\n'),
  };
}
