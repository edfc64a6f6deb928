import { CUSTOMER_REQUEST_REASON } from '@sac/contract/access-reasons';
import { consolePaths } from '@sac/contract/console-paths';
import type { Priority } from '@sac/contract/impersonation';
import {
  type createImpersonationBody,
  type customerRequestBody,
  IMPERSONATION_MESSAGES as M,
} from '@sac/contract/impersonation-api';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { z } from 'zod';
import type { AppContext, Caller } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { consolePageFor } from '../../lib/console-url.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { hashSecret } from '../../lib/secrets.ts';
import { outOfScope } from '../../lib/site-scope.ts';
import { runWrite } from '../../lib/write-path.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { findStaffByEmail } from '../auth/staff.service.ts';
import { customerRoleCatalogue } from '../customers/sites.service.ts';
import {
  announceImpersonationChange,
  notifyStaff,
} from '../staff-notifications/staff-notifications.service.ts';
import {
  assignedRequestMail,
  consentRequestMail,
  customerRequestAssignedMail,
  customerRequestReceivedMail,
} from './impersonation.mails.ts';
import {
  findRequest,
  findRequestSite,
  findRequestSiteByKey,
  insertRequest,
  type RequestSite,
  type RequestWhy,
  rolesHeldByOthers,
  superAdminEmails,
} from './impersonation.repo.ts';
import { toWire } from './impersonation.wire.ts';
import { issueConsentLink } from './impersonation-consent.service.ts';
import { logEvent } from './impersonation-steps.ts';
import { checkedWhy, whyDetails, whyShown } from './impersonation-why.ts';
import { issueSiteAccessLink } from './site-access.service.ts';

/** What a request asks for, as both staff and customers send it. */
interface RequestContents {
  Priority: Priority;
  Description: string;
  Assignees: string[];
  ProxyRoles: string[];
  AdditionalPermissions: string[];
  Duration: number;
}

/** Assignees are SuperAdmins; roles and permissions are the customer roles' own. */
export async function checkRequestContents(
  db: Queryable,
  appId: number,
  exceptId: number | null,
  d: { Assignees: string[]; ProxyRoles: string[]; AdditionalPermissions: string[] },
  now: Date,
) {
  for (const email of d.Assignees) {
    const s = await findStaffByEmail(db, email);
    if (!s?.roles.includes(ROLE_SUPER_ADMIN))
      throw new AppError('impersonationInvalid', `${M.notApproverAssignee} (${email})`);
  }
  const roles = await customerRoleCatalogue(db);
  const roleNames = roles.map((r) => r.name);
  const permissionNames = [...new Set(roles.flatMap((r) => Object.keys(r.permissions)))];
  const unknownRoles = d.ProxyRoles.filter((r) => !roleNames.includes(r));
  if (unknownRoles.length)
    throw new AppError('impersonationInvalid', `There is no customer role ${unknownRoles.join(', ')}.`);
  const unknownPerms = d.AdditionalPermissions.filter((p) => !permissionNames.includes(p));
  if (unknownPerms.length)
    throw new AppError('impersonationInvalid', `There is no permission ${unknownPerms.join(', ')}.`);
  const held = await rolesHeldByOthers(db, appId, exceptId, now);
  const taken = d.ProxyRoles.filter((r) => held.includes(r));
  if (taken.length) throw new AppError('impersonationConflict', `${M.roleTaken}: ${taken.join(', ')}.`);
}

/** The site a request is opened on and what it asks, read under the site's lock. */
interface Opening {
  site: RequestSite;
  data: RequestContents & { why: RequestWhy };
}

/**
 * Opens a request through the write path: under the lock of its site (found and locked by `site`,
 * which refuses a site that is not there) the request's contents are checked, the roles other
 * live requests of the site hold among them; then the request is inserted with the owner's
 * consent link (unless the request carries the consent) and a site-access link, and logged, and
 * the notifications and mails are queued. The mails are kept with the request, or neither.
 * Answers the new request's id and its site as read under the lock.
 */
async function openRequest(
  ctx: AppContext,
  caller: Caller,
  o: {
    /** The request's site, read and locked in the write's transaction; throws when there is none. */
    site: (tx: Queryable) => Promise<RequestSite>;
    /** What the request asks, given its site (a customer's goes to every SuperAdmin, read under the lock). */
    data: (tx: Queryable, site: RequestSite) => Promise<RequestContents & { why: RequestWhy }>;
    initiator: (site: RequestSite) => { uid: string | null; email: string };
    /** A customer's own request: it is their consent. */
    fromCustomer: boolean;
    origin: string | undefined;
    now: Date;
    /** The owner's mail, and the assignees' (left out for those who chose in-app only). */
    mails: (
      id: number,
      opened: Opening,
      links: { consent: string | null; siteAccess: string },
    ) => { owner: MailMessage; assignees: MailMessage[] };
  },
): Promise<{ id: number; site: RequestSite }> {
  const now = o.now;
  return runWrite(ctx.db, {
    lock: async (tx): Promise<Opening> => {
      const site = await o.site(tx);
      const data = await o.data(tx, site);
      await checkRequestContents(tx, Number(site.app_id), null, data, now);
      return { site, data };
    },
    change: async (tx, { site, data: d }) => {
      const appId = Number(site.app_id);
      const id = await insertRequest(tx, {
        appId,
        initiator: o.initiator(site),
        isCustomerRequest: o.fromCustomer,
        consent: o.fromCustomer ? { at: now, address: caller.clientAddress } : null,
        priority: d.Priority,
        description: d.Description,
        why: d.why,
        assignees: d.Assignees,
        proxyRoles: d.ProxyRoles,
        additionalPermissions: d.AdditionalPermissions,
        durationMinutes: d.Duration,
        at: now,
      });
      const consent = o.fromCustomer ? null : await issueConsentLink(tx, ctx, id, o.origin, now);
      const siteAccess = await issueSiteAccessLink(tx, ctx, appId, o.origin, now);
      return { id, site, links: { consent, siteAccess } };
    },
    trail: async (tx, { id, links }, opened) => {
      const d = opened.data;
      const initiator = o.initiator(opened.site);
      await logEvent(tx, {
        requestId: id,
        at: now,
        actor: initiator.email,
        event: o.fromCustomer ? 'customer-request' : 'request',
        status: 'Pending',
        clientAddress: caller.clientAddress,
        details: {
          appId: Number(opened.site.app_id),
          roles: d.ProxyRoles,
          permissions: d.AdditionalPermissions,
          duration: d.Duration,
          ...whyDetails(d.why),
          ...(o.fromCustomer ? { consent: 'given by the request' } : {}),
        },
      });
      announceImpersonationChange(tx, ctx);
      // "Assigned to me", in the bell of each assignee but the one who asks.
      const inAppOnly = await notifyStaff(tx, ctx, {
        kind: 'assigned',
        to: d.Assignees.map((email) => ({ email })),
        actorEmail: o.fromCustomer ? null : initiator.email,
        requestId: id,
        appName: opened.site.app_name,
      });
      const mails = o.mails(id, opened, links);
      await ctx.mailer.send(tx, mails.owner);
      for (const mail of mails.assignees)
        if (!inAppOnly.has(mail.to.toLowerCase())) await ctx.mailer.send(tx, mail);
    },
  });
}

/** A staff member asks for access: the owner is mailed a consent link, the assignees are told. */
/** The links of the mails go to the console at `origin` (the call's Origin header). */
export async function create(
  ctx: AppContext,
  call: StaffCall,
  input: z.output<typeof createImpersonationBody> & { origin: string | undefined },
) {
  const actor = call.session;
  const { origin } = input;
  const d = input.data;
  const reasons = ctx.config.impersonationReasons;
  const why = checkedWhy(reasons, d, 'data.');
  const now = ctx.clock.now();
  const { id, site } = await openRequest(ctx, call, {
    // The site and its owner under the site's lock: the consent mail goes to the owner at commit.
    site: async (tx) => {
      const site = await findRequestSite(tx, d.AppId, true, actor.scope);
      if (!site) throw new AppError('notFound', 'There is no site with that AppId.');
      // A scoped requester asks only for sites in their scope (role-scopes.ts).
      if (site.in_scope === false) throw outOfScope('a site in scope');
      return site;
    },
    data: async () => ({ ...d, why }),
    initiator: () => ({ uid: actor.uid, email: actor.email }),
    fromCustomer: false,
    origin,
    now,
    mails: (requestId, { site }, links) => {
      const access = {
        appName: site.app_name,
        requester: { name: actor.name, email: actor.email },
        description: d.Description,
        ...whyShown(reasons, why),
        roles: d.ProxyRoles,
        permissions: d.AdditionalPermissions,
        durationMinutes: d.Duration,
      };
      return {
        owner: consentRequestMail({
          to: site.owner_email,
          firstName: site.first_name,
          requestId,
          // the case's reference, without the link into the provider's own tracker
          access: { ...access, caseUrl: null },
          consentUrl: links.consent!,
          siteAccessUrl: links.siteAccess,
        }),
        assignees: d.Assignees.map((to) =>
          assignedRequestMail({
            to,
            requestId,
            access,
            assignedRequestsUrl: consolePageFor(
              ctx.config,
              origin,
              consolePaths.impersonationRequests(),
            ).toString(),
          }),
        ),
      };
    },
  });
  const row = await findRequest(ctx.db, id);
  return { Data: toWire(row!, now, ctx.config.impersonationReasons), Message: M.created(id, site.app_name) };
}

/**
 * A customer asks for help: their site's API key and secret authenticate the call, and the
 * request itself is their consent. It goes to every SuperAdmin; the one who approves it helps.
 */
export async function customerRequest(
  ctx: AppContext,
  call: Caller,
  input: z.output<typeof customerRequestBody> & {
    apiKey: string | undefined;
    apiSecret: string | undefined;
    origin: string | undefined;
  },
) {
  const { apiKey, apiSecret, origin } = input;
  const d = input.data;
  const now = ctx.clock.now();
  const valid = /^[0-9a-f-]{36}$/i.test(apiKey ?? '') && (apiSecret ?? '') !== '';
  if (!valid) throw new AppError('customerAuthFailed');
  const { id, site } = await openRequest(ctx, call, {
    // The key and secret are checked under the site's lock: a rotation that ends them waits.
    site: async (tx) => {
      const site = await findRequestSiteByKey(tx, apiKey!.toLowerCase(), hashSecret(apiSecret!), now, true);
      if (!site) throw new AppError('customerAuthFailed');
      return site;
    },
    // They asked for help themselves: the reason says so; no case.
    data: async (tx) => ({
      ...d,
      Assignees: await superAdminEmails(tx),
      why: { reasonCode: CUSTOMER_REQUEST_REASON, caseReference: null },
    }),
    initiator: (site) => ({ uid: null, email: site.owner_email }),
    fromCustomer: true,
    origin,
    now,
    mails: (requestId, { site, data }, links) => ({
      owner: customerRequestReceivedMail({
        to: site.owner_email,
        firstName: site.first_name,
        requestId,
        appName: site.app_name,
        durationMinutes: d.Duration,
        siteAccessUrl: links.siteAccess,
      }),
      assignees: data.Assignees.map((to) =>
        customerRequestAssignedMail({
          to,
          requestId,
          appName: site.app_name,
          ownerEmail: site.owner_email,
          description: d.Description,
          roles: d.ProxyRoles,
          durationMinutes: d.Duration,
        }),
      ),
    }),
  });
  const row = await findRequest(ctx.db, id);
  return {
    Data: toWire(row!, now, ctx.config.impersonationReasons),
    Message: M.customerRequested(id, site.app_name),
  };
}
