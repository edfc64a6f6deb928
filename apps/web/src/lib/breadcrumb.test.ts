import { describe, expect, it } from 'vitest';
import { buildBreadcrumb, buildTitle, humanize } from './breadcrumb.ts';

describe('breadcrumb', () => {
  it('humanizes kebab segments', () => {
    expect(humanize('manage-superuser')).toBe('Manage Superuser');
    expect(humanize('dashboard')).toBe('Dashboard');
    expect(humanize('view%20customer')).toBe('View Customer');
  });

  it('names nothing after a segment that is not words, so a link cannot title the window', () => {
    const img = encodeURIComponent('<img src=x onerror=alert(1)>');
    expect(humanize(img)).toBe('');
    expect(buildBreadcrumb(`/no/${img}`).map((c) => c.label)).toEqual(['No']);
    expect(buildTitle(`/no/${img}`)).toBe('No | Super Admin Console');
  });

  it('builds one crumb per segment with cumulative links', () => {
    expect(buildBreadcrumb('/manage-superuser/create-superuser')).toEqual([
      { label: 'Manage Superuser', to: '/manage-superuser' },
      { label: 'Create Superuser', to: '/manage-superuser/create-superuser' },
    ]);
    expect(buildBreadcrumb('/')).toEqual([]);
    expect(buildBreadcrumb('/dashboard/')).toEqual([{ label: 'Dashboard', to: '/dashboard' }]);
  });

  it('names a section once when its default screen has its name', () => {
    expect(buildBreadcrumb('/manage-superuser/manage-superuser')).toEqual([
      { label: 'Manage Superuser', to: '/manage-superuser/manage-superuser' },
    ]);
  });

  it('uses known labels', () => {
    const crumbs = buildBreadcrumb('/manage-superuser/impersonation/logs', {
      '/manage-superuser/impersonation/logs': 'Impersonation Logs',
    });
    expect(crumbs.map((c) => c.label)).toEqual(['Manage Superuser', 'Impersonation', 'Impersonation Logs']);
  });
});

describe('breadcrumb patterns', () => {
  it("labels a path through a ':param' key", () => {
    const crumbs = buildBreadcrumb('/manage-superuser/profile/abc-1', {
      '/manage-superuser/profile/:uid': 'Super User Profile',
    });
    expect(crumbs.map((c) => c.label)).toEqual(['Manage Superuser', 'Profile', 'Super User Profile']);
  });
});

describe('document title', () => {
  it('is the section plus the dashboard title', () => {
    expect(buildTitle('/manage-superuser')).toBe('Manage Superuser | Super Admin Console');
    expect(buildTitle('/dashboard')).toBe('Dashboard | Super Admin Console');
  });

  it('names the screen before its section', () => {
    expect(buildTitle('/manage-superuser/create-superuser')).toBe(
      'Create Superuser | Manage Superuser | Super Admin Console',
    );
    expect(buildTitle('/manage-superuser/manage-superuser')).toBe('Manage Superuser | Super Admin Console');
  });

  it('is the dashboard title alone at the root', () => {
    expect(buildTitle('/')).toBe('Super Admin Console');
  });
});
