import { consolePaths } from '@sac/contract/console-paths';
import { SITE_ACCESS_LINK_TTL_MS } from '@sac/contract/impersonation-api';
import type { AppContext, Caller } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { consolePageFor } from '../../lib/console-url.ts';
import { hashSecret, randomSecret } from '../../lib/secrets.ts';
import { logOfSite, requestsOfSite } from './impersonation.repo.ts';
import { toWire } from './impersonation.wire.ts';
import {
  findSiteOfAccessToken,
  insertSiteAccessToken,
  ownerEmailOfSite,
} from './impersonation-links.repo.ts';
import { staffLabeller } from './staff-pseudonyms.ts';

/** A link to the owner's page of every access to the site (stored hashed, 90 days); its address. */
export async function issueSiteAccessLink(
  db: Queryable,
  ctx: AppContext,
  appId: number,
  origin: string | undefined,
  now: Date,
): Promise<string> {
  const token = randomSecret();
  await insertSiteAccessToken(db, {
    tokenHash: hashSecret(token),
    appId,
    at: now,
    expiresAt: new Date(now.getTime() + SITE_ACCESS_LINK_TTL_MS),
  });
  const url = consolePageFor(ctx.config, origin, consolePaths.siteAccess());
  url.searchParams.set('token', token);
  return url.toString();
}

/** The owner's page: every request and step on their site, from the link in their email. */
export async function siteAccess(ctx: AppContext, _call: Caller, input: { token: string }) {
  const { token } = input;
  const now = ctx.clock.now();
  const site = await findSiteOfAccessToken(ctx.db, hashSecret(token), now);
  if (!site) throw new AppError('siteAccessLinkInvalid');
  const appId = Number(site.app_id);
  const requests = await requestsOfSite(ctx.db, appId);
  const log = await logOfSite(ctx.db, appId);
  // Provider staff are named by role and pseudonym (staff-pseudonyms.ts), and their addresses are
  // not shown; the owner's own steps keep the owner's email and address.
  const owner = (await ownerEmailOfSite(ctx.db, appId))?.toLowerCase();
  const isOwner = (email: string | null) => email !== null && email.toLowerCase() === owner;
  const named = requests.flatMap((r) => [r.initiator_email, ...r.assignees, r.action_taken_by ?? '']);
  const label = await staffLabeller(
    ctx.db,
    (data) => ctx.crypto.mac('site-access-staff', data),
    [...named, ...log.map((l) => l.actor ?? '')].filter((e) => e && !isOwner(e)),
    ctx.config.siteAccessStaffNames,
  );
  const person = (email: string | null) => (isOwner(email) ? email : label(email));
  return {
    Data: {
      AppName: site.app_name,
      Requests: requests.map((r) => {
        const w = toWire(r, now);
        return {
          ...w,
          Initiator: person(w.Initiator)!,
          Request: { ...w.Request, Assignees: w.Request.Assignees.map((a) => person(a)!) },
          Action: { ...w.Action, ActionTakenBy: person(w.Action.ActionTakenBy) },
        };
      }),
      Log: log.map((l) => ({
        RequestId: Number(l.request_id),
        Event: l.event,
        Actor: person(l.actor),
        Date: new Date(l.at).toISOString(),
        ClientAddress:
          isOwner(l.actor) || ctx.config.siteAccessStaffNames === 'email' ? l.client_address : null,
      })),
    },
  };
}
