import type { APIRequestContext } from '@playwright/test';
import { apiSignIn } from './api.ts';

/**
 * A new customer with one site, created through the API as the demo SuperAdmin: a site of the
 * test's own (impersonation roles are per site, so tests do not hold each other's roles) whose
 * owner's mails reach the SMTP sink at `email`.
 */
export async function createSiteOwner(
  request: APIRequestContext,
  opts: { email: string; appname: string },
): Promise<{ uid: string; appId: number; appName: string; email: string }> {
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const r = await request.post('/admin/customer', {
    headers,
    data: { firstname: 'Site', lastname: 'Owner', email: opts.email, appname: opts.appname },
  });
  if (!r.ok()) throw new Error(`create customer ${opts.email}: ${r.status()} ${await r.text()}`);
  const { Customer, Site } = (
    (await r.json()) as {
      Data: { Customer: { Uid: string }; Site: { appId: number; AppName: string } };
    }
  ).Data;
  return { uid: Customer.Uid, appId: Site.appId, appName: Site.AppName, email: opts.email };
}
