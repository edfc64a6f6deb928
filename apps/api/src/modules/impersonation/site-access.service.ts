import { Readable } from 'node:stream';
import { customerReasonOut, type ReasonSettings } from '@sac/contract/access-reasons';
import { consolePaths } from '@sac/contract/console-paths';
import { csvLine } from '@sac/contract/csv';
import {
  SITE_ACCESS_EXPORT_COLUMNS,
  SITE_ACCESS_FEED,
  SITE_ACCESS_LINK_TTL_MS,
} from '@sac/contract/impersonation-api';
import type { AppContext, Caller } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { consolePageFor } from '../../lib/console-url.ts';
import { hashSecret, randomSecret } from '../../lib/secrets.ts';
import { logExtentOfSite, logOfSite, logPageOfSite, requestsOfSite } from './impersonation.repo.ts';
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

/** The site a link from the owner's mail opens; 976 when the link is unknown or has expired. */
async function linkedSite(ctx: AppContext, token: string) {
  const site = await findSiteOfAccessToken(ctx.db, hashSecret(token), ctx.clock.now());
  if (!site) throw new AppError('siteAccessLinkInvalid');
  return { appId: Number(site.app_id), appName: site.app_name };
}

/**
 * How the owner's page, export and feed name people: provider staff by role and pseudonym
 * (staff-pseudonyms.ts), their addresses not shown; the owner's own steps keep the owner's email
 * and address. `namer(emails)` reads the roles of the staff among `emails` (one statement).
 */
async function ownerNaming(ctx: AppContext, appId: number) {
  const owner = (await ownerEmailOfSite(ctx.db, appId))?.toLowerCase();
  const isOwner = (email: string | null) => email !== null && email.toLowerCase() === owner;
  const showAddresses = ctx.config.siteAccessStaffNames === 'email';
  return async (emails: Iterable<string | null>) => {
    const label = await staffLabeller(
      ctx.db,
      (data) => ctx.crypto.mac('site-access-staff', data),
      [...emails].filter((e): e is string => Boolean(e) && !isOwner(e)),
      ctx.config.siteAccessStaffNames,
    );
    return {
      person: (email: string | null) => (isOwner(email) ? email : label(email)),
      address: (actor: string | null, address: string | null) =>
        isOwner(actor) || showAddresses ? address : null,
    };
  };
}

type LogRow = Awaited<ReturnType<typeof logOfSite>>[number];

/** A step as the owner reads it, with its request's reason and case. */
const ownerStep = (
  l: LogRow,
  n: Awaited<ReturnType<Awaited<ReturnType<typeof ownerNaming>>>>,
  reasons: ReasonSettings,
) => ({
  RequestId: Number(l.request_id),
  Event: l.event,
  Actor: n.person(l.actor),
  Date: new Date(l.at).toISOString(),
  ClientAddress: n.address(l.actor, l.client_address),
  ...customerReasonOut(reasons, l),
});

/** The owner's page: every request and step on their site, from the link in their email. */
export async function siteAccess(ctx: AppContext, _call: Caller, input: { token: string }) {
  const now = ctx.clock.now();
  const { appId, appName } = await linkedSite(ctx, input.token);
  const requests = await requestsOfSite(ctx.db, appId);
  const log = await logOfSite(ctx.db, appId);
  const named = requests.flatMap((r) => [r.initiator_email, ...r.assignees, r.action_taken_by ?? '']);
  const n = await (await ownerNaming(ctx, appId))([...named, ...log.map((l) => l.actor)]);
  return {
    Data: {
      AppName: appName,
      Requests: requests.map((r) => {
        const w = toWire(r, now, ctx.config.impersonationReasons);
        return {
          ...w,
          Initiator: n.person(w.Initiator)!,
          Request: { ...w.Request, CaseUrl: null, Assignees: w.Request.Assignees.map((a) => n.person(a)!) },
          Action: { ...w.Action, ActionTakenBy: n.person(w.Action.ActionTakenBy) },
        };
      }),
      Log: log.map((l) => ownerStep(l, n, ctx.config.impersonationReasons)),
    },
  };
}

/** Steps an export reads at a time. */
const EXPORT_PAGE = 2_000;

/**
 * Every step on the owner's site, oldest first, as CSV or as a JSON array, streamed a page at a
 * time, with people named as on the page; behind the same link.
 */
export async function siteAccessExport(
  ctx: AppContext,
  _call: Caller,
  input: { token: string; format: 'csv' | 'json' },
): Promise<{ filename: string; rows: number; body: Readable }> {
  const { appId, appName } = await linkedSite(ctx, input.token);
  const naming = await ownerNaming(ctx, appId);
  // the steps there are now, announced ahead; one written meanwhile waits for the next export
  const { rows, upTo } = await logExtentOfSite(ctx.db, appId);
  async function* steps() {
    let after: string | undefined;
    for (;;) {
      const page = await logPageOfSite(ctx.db, appId, { afterId: after, upTo, limit: EXPORT_PAGE });
      if (page.length === 0) return;
      const n = await naming(page.map((l) => l.actor));
      yield page.map((l) => ownerStep(l, n, ctx.config.impersonationReasons));
      if (page.length < EXPORT_PAGE) return;
      after = page.at(-1)!.id;
    }
  }
  async function* csv() {
    yield csvLine(SITE_ACCESS_EXPORT_COLUMNS);
    for await (const page of steps())
      yield page
        .map((s) =>
          csvLine([
            s.Date,
            appName,
            s.RequestId,
            s.Event,
            s.Actor,
            s.ClientAddress,
            s.ReasonLabel,
            s.CaseReference,
          ]),
        )
        .join('');
  }
  async function* json() {
    let first = true;
    yield '[';
    for await (const page of steps()) {
      const text = page.map((s) => JSON.stringify({ AppName: appName, ...s })).join(',\n');
      yield `${first ? '\n' : ',\n'}${text}`;
      first = false;
    }
    yield '\n]\n';
  }
  const stamp = ctx.clock.now().toISOString().slice(0, 10);
  const safeName = appName.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
  return {
    filename: `${safeName}-access-${stamp}.${input.format}`,
    rows,
    body: Readable.from(input.format === 'csv' ? csv() : json(), { objectMode: false }),
  };
}

/** The feed holds the newest steps, as readers keep what they saw. */
const FEED_ENTRIES = 100;

/** Characters XML 1.0 cannot hold at all, even escaped (controls but tab, line feed and return). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what it finds
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

const xml = (s: string) =>
  s
    .replace(NOT_XML, '\ufffd')
    .replace(
      /[<>&'"]/g,
      (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
    );

/**
 * The owner's feed (Atom, RFC 4287) of the newest steps on their site, for a feed reader to keep
 * them up to date; behind the same link, so it lasts as long as the link does.
 */
export async function siteAccessFeed(
  ctx: AppContext,
  _call: Caller,
  input: { token: string; pageUrl: string; selfUrl: string },
): Promise<{ entries: number; feed: string }> {
  const { appId, appName } = await linkedSite(ctx, input.token);
  const page = await logPageOfSite(ctx.db, appId, { limit: FEED_ENTRIES, newest: true });
  const n = await (await ownerNaming(ctx, appId))(page.map((l) => l.actor));
  const id = `urn:sac:site-access:${appId}`;
  const updated = page[0] ? new Date(page[0].at).toISOString() : ctx.clock.now().toISOString();
  const entries = page.map((l) => {
    const s = ownerStep(l, n, ctx.config.impersonationReasons);
    const title = SITE_ACCESS_FEED.entryTitle(s.Event, s.Actor, s.RequestId);
    const why = SITE_ACCESS_FEED.reason(s.ReasonLabel, s.CaseReference);
    return `  <entry>
    <id>${id}:${l.id}</id>
    <title>${xml(title)}</title>
    <updated>${s.Date}</updated>
    <link rel="alternate" href="${xml(input.pageUrl)}"/>
    <content type="text">${xml(`${title}${s.ClientAddress ? ` (${s.ClientAddress})` : ''}, ${s.Date}${why}`)}</content>
  </entry>`;
  });
  const feed = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${id}</id>
  <title>${xml(SITE_ACCESS_FEED.title(appName))}</title>
  <updated>${updated}</updated>
  <author><name>${xml(SITE_ACCESS_FEED.author)}</name></author>
  <link rel="self" href="${xml(input.selfUrl)}"/>
  <link rel="alternate" href="${xml(input.pageUrl)}"/>
${entries.join('\n')}
</feed>
`;
  return { entries: entries.length, feed };
}
