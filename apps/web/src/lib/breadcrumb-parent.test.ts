import { describe, expect, it } from 'vitest';
import { crumbsUnder } from './breadcrumb-parent.ts';

describe('the breadcrumb of a screen shown under a list not in its path', () => {
  it("runs through the list's crumbs, the list linked with its query, then names the screen", () => {
    const labels = { '/manage-customer/view-customer': 'View Customer', '/bulk-job': 'Bulk job' };
    expect(crumbsUnder('/bulk-job', '/manage-customer/view-customer?uid=c1', labels)).toEqual([
      { label: 'Manage Customer', to: '/manage-customer' },
      { label: 'View Customer', to: '/manage-customer/view-customer?uid=c1', parent: true },
      { label: 'Bulk job', to: '/bulk-job' },
    ]);
  });
});
