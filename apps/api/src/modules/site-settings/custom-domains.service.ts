import { randomBytes } from 'node:crypto';
import { sortParam } from '@sac/contract/list-sort';
import type { SiteScope } from '@sac/contract/role-scopes';
import {
  DOMAIN_LIST_PAGE_SIZE,
  DOMAIN_PATTERN,
  DOMAIN_STATUSES,
  type DomainListFilter,
  SETTINGS_MESSAGES as M,
  verificationRecordName,
} from '@sac/contract/site-settings';
import type { AppContext } from '../../app-context.ts';
import { isUniqueViolation } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { decodeCursor, encodeCursor, literal, oneOf, PG_TIMESTAMP, text } from '../../lib/keyset-cursor.ts';
import { ownedSite, type SiteInput, siteWrite } from '../customers/sites.service.ts';
import * as repo from './custom-domains.repo.ts';
import { checkDomain } from './domain-check.ts';

/** A cursor of the cross-site list: a domain as stored (the pattern domains are saved by). */
const DOMAIN_KEY = text(DOMAIN_PATTERN);

const cnameTarget = (ctx: AppContext, appName: string) => `${appName}.${ctx.config.hubDomain}`;

function domainOut(ctx: AppContext, d: repo.DomainRow) {
  return {
    Domain: d.domain,
    Status: d.status,
    Records: [
      { Type: 'CNAME' as const, Name: d.domain, Value: cnameTarget(ctx, d.app_name) },
      { Type: 'TXT' as const, Name: verificationRecordName(d.domain), Value: d.token },
    ],
    LastCheckedAt: isoOrNull(d.last_checked_at),
    LastCheckResult: d.last_check_result,
    VerifiedAt: isoOrNull(d.verified_at),
  };
}

export function hubDomain(ctx: AppContext) {
  return { Data: { HubDomain: ctx.config.hubDomain } };
}

export async function listDomains(ctx: AppContext, uid: string, appId: number) {
  await ownedSite(ctx.db, uid, appId);
  return { Data: (await repo.domainsOfSite(ctx.db, appId)).map((d) => domainOut(ctx, d)) };
}

export async function createDomain(ctx: AppContext, call: StaffCall, input: SiteInput & { domain: string }) {
  const { domain } = input;
  const token = `sac-verify-${randomBytes(16).toString('hex')}`;
  try {
    const d = await siteWrite(ctx, call, input, {
      action: 'site.customdomain.create',
      change: async (tx) => {
        await repo.insertDomain(tx, input.appId, domain, token, ctx.clock.now());
        return (await repo.findDomain(tx, domain))!;
      },
      details: () => ({ domain }),
    });
    return { Data: domainOut(ctx, d), Message: M.customDomainSaved };
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('customDomainExists');
    throw e;
  }
}

const noSuchDomain = () => new AppError('notFound', 'This site has no such custom domain.');

export async function deleteDomain(ctx: AppContext, call: StaffCall, input: SiteInput & { domain: string }) {
  const { domain } = input;
  await siteWrite(ctx, call, input, {
    action: 'site.customdomain.delete',
    change: async (tx) => {
      if (!(await repo.deleteDomain(tx, input.appId, domain))) throw noSuchDomain();
    },
    details: () => ({ domain }),
  });
  return { IsPosted: true, Message: M.customDomainDeleted };
}

/** Looks up one domain's records (DNS); stores nothing. */
function lookUp(ctx: AppContext, d: repo.DomainRow) {
  return checkDomain({
    domain: d.domain,
    target: cnameTarget(ctx, d.app_name),
    txtName: verificationRecordName(d.domain),
    token: d.token,
    servers: ctx.config.dnsServers,
  });
}

/** Checks one domain's records and stores the outcome (the periodic re-check); Verified stays verified. */
async function runCheck(ctx: AppContext, d: repo.DomainRow): Promise<void> {
  await recordPeriodicCheck(ctx, d.domain, await lookUp(ctx, d));
}

/**
 * What the periodic check found of a domain is stored, now (no trail row: the job is no one's act).
 * Also the demo seed's past checks.
 */
export async function recordPeriodicCheck(
  ctx: AppContext,
  domain: string,
  check: { result: string; ok: boolean },
): Promise<void> {
  await repo.recordCheck(ctx.db, domain, check, ctx.clock.now());
}

/**
 * Checks a domain's records now and stores the outcome with its trail row. The DNS lookup runs
 * before the write (no lock is held across the network); the write then finds the domain again
 * under the site's lock, so a domain removed meanwhile is a 404 and nothing is stored.
 */
export async function verifyDomain(ctx: AppContext, call: StaffCall, input: SiteInput & { domain: string }) {
  const { domain } = input;
  // Refused before the lookup when the site is not the customer's; decided again under the lock.
  await ownedSite(ctx.db, input.uid, input.appId);
  const d = await repo.findSiteDomain(ctx.db, input.appId, domain);
  if (!d) throw noSuchDomain();
  const check = await lookUp(ctx, d);
  const after = await siteWrite(ctx, call, input, {
    action: 'site.customdomain.verify',
    change: async (tx) => {
      if (!(await repo.findSiteDomain(tx, input.appId, domain))) throw noSuchDomain();
      await repo.recordCheck(tx, domain, check, ctx.clock.now());
      return (await repo.findDomain(tx, domain))!;
    },
    // Every check is recorded, with its outcome: it stores what it found.
    details: (a) => ({ domain, status: a.status }),
  });
  return {
    Data: domainOut(ctx, after),
    Message: after.status === 'Verified' ? M.customDomainVerified : (after.last_check_result ?? ''),
  };
}

/**
 * The periodic re-check (oldest check first, a bounded batch of each): pending domains every run,
 * so a customer's DNS change shows; verified ones once `domainVerifiedRecheckMs` has passed since
 * their last check, so records that broke later show as failing (the domain stays verified).
 */
export async function recheckDomains(ctx: AppContext, batch = 50): Promise<number> {
  const pending = await repo.pendingDomains(ctx.db, batch);
  const verifiedEvery = ctx.config.domainVerifiedRecheckMs;
  const verified =
    verifiedEvery > 0
      ? await repo.verifiedDomainsDue(ctx.db, new Date(ctx.clock.now().getTime() - verifiedEvery), batch)
      : [];
  for (const d of [...pending, ...verified]) await runCheck(ctx, d);
  return pending.length + verified.length;
}

/**
 * GET /admin/customdomains: custom domains of every site by name, filtered by status, keyset-paged
 * on the domain (the cursor is the last domain of the page).
 */
/**
 * A cursor of the cross-site list. By name: the domain, Z to A marked '-' before it (as they
 * always were). By status or creation: the order's name and direction, the row's key and domain.
 * A cursor of one order is refused under another.
 */
function domainCursor(
  row: { domain: string; status: string; created_key: string },
  order: repo.DomainOrder,
  descending: boolean,
): string {
  if (order === 'domain') return encodeCursor(descending ? ['-', row.domain] : [row.domain]);
  const name = sortParam({ key: order, descending });
  return encodeCursor([name, order === 'status' ? row.status : row.created_key, row.domain]);
}
function domainCursorKey(cursor: string, order: repo.DomainOrder, descending: boolean): repo.DomainKey {
  if (order === 'domain') {
    const domain = descending
      ? decodeCursor(cursor, [literal('-'), DOMAIN_KEY])[1]
      : decodeCursor(cursor, [DOMAIN_KEY])[0];
    return { key: undefined, domain };
  }
  const name = literal(sortParam({ key: order, descending }));
  const [, key, domain] = decodeCursor(cursor, [
    name,
    order === 'status' ? oneOf(DOMAIN_STATUSES) : PG_TIMESTAMP,
    DOMAIN_KEY,
  ]);
  return { key, domain };
}

export async function listAllDomains(
  ctx: AppContext,
  q: {
    status?: DomainListFilter | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
    sort?: { key: repo.DomainOrder; descending: boolean } | undefined;
  },
  scope: readonly SiteScope[] | undefined,
) {
  const order = q.sort?.key ?? 'domain';
  const descending = q.sort?.descending === true;
  const after = q.cursor === undefined ? undefined : domainCursorKey(q.cursor, order, descending);
  const limit = q.limit ?? DOMAIN_LIST_PAGE_SIZE;
  const rows = await repo.listDomains(ctx.db, {
    filter: q.status,
    after,
    limit: limit + 1,
    order,
    descending,
    scope,
  });
  const page = rows.slice(0, limit);
  return {
    Data: page.map((d) => ({
      Domain: d.domain,
      AppId: Number(d.app_id),
      AppName: d.app_name,
      OwnerUid: d.owner_uid,
      Status: d.status,
      CreatedAt: d.created_at.toISOString(),
      LastCheckedAt: isoOrNull(d.last_checked_at),
      LastCheckResult: d.last_check_result,
      VerifiedAt: isoOrNull(d.verified_at),
      FailingSince: isoOrNull(d.failing_since),
    })),
    NextCursor: rows.length > limit ? domainCursor(page.at(-1)!, order, descending) : null,
  };
}
