import type { APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD } from './env.ts';
import { waitForLink } from './mail.ts';

const AJAX = { 'X-Requested-With': 'XMLHttpRequest' };

export async function apiSignIn(request: APIRequestContext, email: string, password = DEMO_PASSWORD) {
  const r = await request.post('/admin/login', { headers: AJAX, data: { email, password } });
  if (!r.ok()) throw new Error(`sign-in of ${email} failed: ${r.status()} ${await r.text()}`);
  const { xtoken, xsign } = (await r.json()) as { xtoken: string; xsign: string };
  return { ...AJAX, xtoken, xsign };
}

/**
 * Creates a super user through the API as the demo SuperAdmin, follows the invitation mail the
 * SMTP sink received, and sets their password: a ready account for a browser test.
 */
export async function createStaff(
  request: APIRequestContext,
  opts: { email: string; roles: string[]; name?: string; password?: string },
): Promise<{ uid: string; email: string; password: string }> {
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const since = Date.now() - 1;
  const r = await request.post('/admin/team', {
    headers,
    data: { email: opts.email, role: opts.roles, name: opts.name ?? '' },
  });
  if (!r.ok()) throw new Error(`create ${opts.email}: ${r.status()} ${await r.text()}`);
  const uid = ((await r.json()) as { Data: { Uid: string } }).Data.Uid;
  const password = opts.password ?? 'Staff#Pass1';
  {
    const link = new URL(await waitForLink(opts.email, since));
    const set = await request.put('/admin/resetpassword', {
      headers: AJAX,
      data: { password, resettoken: link.searchParams.get('vtoken') },
    });
    if (!set.ok()) throw new Error(`set password of ${opts.email}: ${set.status()}`);
  }
  return { uid, email: opts.email, password };
}

/** The appId of a demo customer's site, by its name. */
export async function appIdOf(
  request: APIRequestContext,
  headers: Record<string, string>,
  uid: string,
  name: string,
): Promise<number> {
  const r = await request.get(`/admin/apps?uid=${uid}`, { headers });
  const site = ((await r.json()) as { Data: Array<{ appId: number; AppName: string }> }).Data.find(
    (s) => s.AppName === name,
  );
  if (!site) throw new Error(`no site ${name} of ${uid}`);
  return site.appId;
}
