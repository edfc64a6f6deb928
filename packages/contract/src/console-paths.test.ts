import { describe, expect, it } from 'vitest';
import { consolePaths } from './console-paths.ts';

describe('consolePaths', () => {
  it('holds the console addresses the spec fixes, each once', () => {
    const patterns = Object.values(consolePaths).map((s) => s.path);
    expect(new Set(patterns).size).toBe(patterns.length);
    // Spec section 2 and the screens added since: a changed address is a deliberate edit here.
    expect(patterns.sort()).toEqual(
      [
        '/login',
        '/forgotpassword',
        '/login/second-step',
        '/login/enrol',
        '/sso/callback',
        '/logout',
        '/impersonation/consent',
        '/impersonation/site-access',
        '/unsubscribe',
        '/dashboard',
        '/manage-notifications',
        '/manage-notifications/compose',
        '/manage-notifications/notice',
        '/account',
        '/account/change-password',
        '/account/security',
        '/account/sessions',
        '/account/api-tokens',
        '/account/notifications',
        '/impersonation/site',
        '/bulk-job',
        '/manage-customer',
        '/manage-customer/search-customer',
        '/manage-customer/create-customer',
        '/manage-customer/edit-site',
        '/manage-customer/add-site',
        '/manage-customer/bulk-job',
        '/manage-customer/view-customer',
        '/manage-customer/impersonate',
        '/manage-customer/site-configuration',
        '/manage-customer/custom-domains',
        '/manage-customer/trials-ending',
        '/manage-superuser',
        '/manage-superuser/manage-superuser',
        '/manage-superuser/create-superuser',
        '/manage-superuser/single-sign-on',
        '/manage-superuser/webhooks',
        '/manage-superuser/webhook',
        '/manage-superuser/permissions',
        '/manage-superuser/roles',
        '/manage-superuser/profile/:uid',
        '/manage-superuser/impersonation/logs',
        '/manage-superuser/impersonation/break-glass-reviews',
        '/manage-superuser/impersonation/assigned-requests',
        '/manage-superuser/audit-trail',
      ].sort(),
    );
  });

  it('builds a link from the pattern: params encoded in the path, the query in the order given, undefined left out', () => {
    expect(consolePaths.dashboard()).toBe('/dashboard');
    expect(consolePaths.superuserProfile({ uid: 'a b/c' })).toBe('/manage-superuser/profile/a%20b%2Fc');
    expect(consolePaths.customerView({ uid: 'u&1' })).toBe('/manage-customer/view-customer?uid=u%261');
    expect(consolePaths.editSite({ uid: 'u1', appId: 11 })).toBe(
      '/manage-customer/edit-site?uid=u1&appId=11',
    );
    expect(consolePaths.siteConfiguration({ uid: 'u1', appId: 2, section: 'custom-domains' })).toBe(
      '/manage-customer/site-configuration?uid=u1&appId=2&section=custom-domains',
    );
    expect(consolePaths.customDomains()).toBe('/manage-customer/custom-domains');
    expect(consolePaths.customDomains({ status: undefined })).toBe('/manage-customer/custom-domains');
    expect(consolePaths.impersonationRequests({ request: 7 })).toBe(
      '/manage-superuser/impersonation/assigned-requests?request=7',
    );
    expect(consolePaths.auditTrail({ action: 'login.failed', range: '24h' })).toBe(
      '/manage-superuser/audit-trail?action=login.failed&range=24h',
    );
  });

  it('types a link by its pattern and query', () => {
    // @ts-expect-error the profile's :uid is required
    consolePaths.superuserProfile();
    // @ts-expect-error a customer view needs its uid
    consolePaths.customerView({});
    // @ts-expect-error editing a site needs its appId
    consolePaths.editSite({ uid: 'u1' });
    // @ts-expect-error appId is a number
    consolePaths.impersonate({ uid: 'u1', appId: '11' });
    // @ts-expect-error no such screen
    consolePaths.profile;
    expect(true).toBe(true);
  });
});
