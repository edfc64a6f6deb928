import { randomBytes } from 'node:crypto';
import { SETTINGS_MESSAGES as M, verificationRecordName } from '@sac/contract/site-settings';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import { isUniqueViolation } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { writeCustomerActivity } from '../activity/activity.service.ts';
import { ownedSite } from '../customers/sites.service.ts';
import * as repo from './custom-domains.repo.ts';
import { checkDomain } from './domain-check.ts';

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

export async function createDomain(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  domain: string,
) {
  await ownedSite(ctx.db, uid, appId);
  const token = `sac-verify-${randomBytes(16).toString('hex')}`;
  try {
    await repo.insertDomain(ctx.db, appId, domain, token, ctx.clock.now());
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('customDomainExists');
    throw e;
  }
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.customdomain.create', { appId, domain });
  const d = await repo.findDomain(ctx.db, domain);
  return { Data: domainOut(ctx, d!), Message: M.customDomainSaved };
}

export async function deleteDomain(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  domain: string,
) {
  await ownedSite(ctx.db, uid, appId);
  if (!(await repo.deleteDomain(ctx.db, appId, domain)))
    throw new AppError('notFound', 'This site has no such custom domain.');
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.customdomain.delete', { appId, domain });
  return { IsPosted: true, Message: M.customDomainDeleted };
}

/** Checks one domain's records and stores the outcome; Verified stays verified. */
async function runCheck(ctx: AppContext, d: repo.DomainRow): Promise<repo.DomainRow> {
  const check = await checkDomain({
    domain: d.domain,
    target: cnameTarget(ctx, d.app_name),
    txtName: verificationRecordName(d.domain),
    token: d.token,
    servers: ctx.config.dnsServers,
  });
  await repo.recordCheck(ctx.db, d.domain, check, ctx.clock.now());
  return (await repo.findDomain(ctx.db, d.domain))!;
}

export async function verifyDomain(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  domain: string,
) {
  await ownedSite(ctx.db, uid, appId);
  const d = await repo.findSiteDomain(ctx.db, appId, domain);
  if (!d) throw new AppError('notFound', 'This site has no such custom domain.');
  const after = await runCheck(ctx, d);
  // Every check is recorded, with its outcome: it stores what it found.
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.customdomain.verify', {
    appId,
    domain,
    status: after.status,
  });
  return {
    Data: domainOut(ctx, after),
    Message: after.status === 'Verified' ? M.customDomainVerified : (after.last_check_result ?? ''),
  };
}

/** The periodic re-check of pending domains (oldest check first, a bounded batch). */
export async function recheckPendingDomains(ctx: AppContext, batch = 50): Promise<number> {
  const pending = await repo.pendingDomains(ctx.db, batch);
  for (const d of pending) await runCheck(ctx, d);
  return pending.length;
}
