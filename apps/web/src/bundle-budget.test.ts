import { describe, expect, it } from 'vitest';
import { checkBudget, formatRows, type Manifest, SHELL } from '../../../scripts/check-bundle-budget.mjs';
import { SHELL_NAMESPACES } from './lib/i18n.tsx';

const KiB = 1024;

/**
 * A tiny build: entry + vendor, the shell and its phrases, the dashboard and its phrases, the
 * section layout, the search and the customers' phrases, and one more lazy route.
 */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_vendor.js'],
    css: ['assets/index.css'],
    dynamicImports: [
      'src/app/layout/app-shell.tsx',
      'src/app/layout/section-layout.tsx',
      'src/features/dashboard/components/dashboard-page.tsx',
      'src/features/customers/components/search-customer-page.tsx',
      'src/features/team/components/roles-page.tsx',
      'src/i18n/en/screens.ts',
      'src/i18n/en/staff-notifications.ts',
      'src/i18n/en/impersonation.ts',
      'src/i18n/en/audit.ts',
      'src/i18n/en/audit-actions.ts',
      'src/i18n/en/customers.ts',
    ],
  },
  '_vendor.js': { file: 'assets/vendor.js' },
  '_table.js': { file: 'assets/table.js', imports: ['_vendor.js'] },
  'src/app/layout/app-shell.tsx': {
    file: 'assets/app-shell.js',
    isDynamicEntry: true,
    imports: ['_table.js'],
  },
  'src/app/layout/section-layout.tsx': { file: 'assets/section-layout.js', isDynamicEntry: true },
  'src/features/dashboard/components/dashboard-page.tsx': {
    file: 'assets/dashboard.js',
    isDynamicEntry: true,
  },
  'src/i18n/en/screens.ts': { file: 'assets/screens.js', isDynamicEntry: true },
  'src/i18n/en/staff-notifications.ts': { file: 'assets/staff-notifications.js', isDynamicEntry: true },
  'src/i18n/en/impersonation.ts': { file: 'assets/impersonation.js', isDynamicEntry: true },
  'src/i18n/en/audit.ts': { file: 'assets/audit.js', isDynamicEntry: true },
  'src/i18n/en/audit-actions.ts': { file: 'assets/audit-actions.js', isDynamicEntry: true },
  'src/i18n/en/customers.ts': { file: 'assets/customers.js', isDynamicEntry: true },
  'src/features/customers/components/search-customer-page.tsx': {
    file: 'assets/search.js',
    isDynamicEntry: true,
    imports: ['_vendor.js', '_table.js', '_search-helpers.js'],
  },
  '_search-helpers.js': { file: 'assets/search-helpers.js' },
  'src/features/team/components/roles-page.tsx': { file: 'assets/roles.js', isDynamicEntry: true },
};

const sizes = (over: Record<string, number> = {}) => {
  const kib: Record<string, number> = {
    'assets/index.js': 20,
    'assets/index.css': 6,
    'assets/vendor.js': 130,
    'assets/table.js': 5,
    'assets/app-shell.js': 3,
    'assets/section-layout.js': 1,
    'assets/dashboard.js': 1,
    'assets/screens.js': 1,
    'assets/staff-notifications.js': 1,
    'assets/impersonation.js': 4,
    'assets/audit.js': 1,
    'assets/audit-actions.js': 2,
    'assets/customers.js': 3,
    'assets/search.js': 4,
    'assets/search-helpers.js': 2,
    'assets/roles.js': 1,
    ...over,
  };
  return (file: string) => {
    const k = kib[file];
    if (k === undefined) throw new Error(`no size for ${file}`);
    return k * KiB;
  };
};

const row = (r: ReturnType<typeof checkBudget>, name: string) => r.rows.find((x) => x.name === name);

describe('the bundle-budget check', () => {
  it('passes a build within every budget and measures each set as documented', () => {
    const r = checkBudget({ manifest, sizeOf: sizes() });
    expect(r.problems).toEqual([]);
    expect(r.over).toEqual([]);
    expect(row(r, 'sign-in screen: JavaScript')?.bytes).toBe(150 * KiB); // entry + vendor
    expect(row(r, 'sign-in screen: CSS')?.bytes).toBe(6 * KiB);
    // sign-in set + shell (and the table it imports) + its phrases + dashboard + its phrases
    expect(row(r, 'first view after sign-in: JavaScript')?.bytes).toBe(
      (150 + 3 + 5 + 1 + 1 + 1 + 4 + 1 + 2) * KiB,
    );
    // sign-in set + shell + its phrases + section layout + search (and its helpers) + customers' phrases
    expect(row(r, 'first view of the customer search: JavaScript')?.bytes).toBe(
      (150 + 3 + 5 + 1 + 1 + 1 + 4 + 2 + 3) * KiB,
    );
    // a lazy route counts only its own chunks: vendor and table are already loaded with the first view
    expect(row(r, 'lazy: src/features/customers/components/search-customer-page.tsx')?.files).toEqual([
      'assets/search.js',
      'assets/search-helpers.js',
    ]);
    expect(row(r, 'lazy: src/features/customers/components/search-customer-page.tsx')?.bytes).toBe(6 * KiB);
    expect(row(r, 'lazy: src/i18n/en/customers.ts')?.bytes).toBe(3 * KiB);
    expect(r.rows.some((x) => x.name.includes('app-shell'))).toBe(false);
  });

  it('counts with the shell the namespaces the shell loads (SHELL_NAMESPACES), and no other', () => {
    const file = (ns: string) => `src/i18n/en/${ns.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.ts`;
    expect([...SHELL].sort()).toEqual(['src/app/layout/app-shell.tsx', ...SHELL_NAMESPACES.map(file)].sort());
  });

  it('fails when the sign-in JavaScript is over 182 KiB', () => {
    const r = checkBudget({ manifest, sizeOf: sizes({ 'assets/vendor.js': 163 }) });
    expect(r.over.map((x) => x.name)).toContain('sign-in screen: JavaScript');
    expect(formatRows(r.rows)).toMatch(/sign-in screen: JavaScript\s+2\s+183\.0\s+182\s+OVER BUDGET/);
  });

  it('fails when the sign-in CSS is over 40 KiB', () => {
    const r = checkBudget({ manifest, sizeOf: sizes({ 'assets/index.css': 41 }) });
    expect(r.over.map((x) => x.name)).toEqual(['sign-in screen: CSS']);
  });

  it('fails when the first view after sign-in is over 219 KiB, even with a small sign-in screen', () => {
    const r = checkBudget({ manifest, sizeOf: sizes({ 'assets/dashboard.js': 53 }) });
    expect(r.over.map((x) => x.name)).toEqual(['first view after sign-in: JavaScript']);
  });

  it('fails when the first view of the customer search is over 211 KiB', () => {
    const r = checkBudget({ manifest, sizeOf: sizes({ 'assets/customers.js': 45 }) });
    expect(r.over.map((x) => x.name)).toEqual(['first view of the customer search: JavaScript']);
  });

  it('fails when one lazy route is over 60 KiB of its own chunks', () => {
    const r = checkBudget({ manifest, sizeOf: sizes({ 'assets/roles.js': 61 }) });
    expect(r.over.map((x) => x.name)).toEqual(['lazy: src/features/team/components/roles-page.tsx']);
  });

  it('accepts exactly the budget (the limit is inclusive)', () => {
    const r = checkBudget({ manifest, sizeOf: sizes({ 'assets/vendor.js': 162 }) });
    expect(row(r, 'sign-in screen: JavaScript')?.bytes).toBe(182 * KiB);
    expect(r.over).toEqual([]);
  });

  it('reports a first-view chunk missing from the manifest instead of silently measuring less', () => {
    const { 'src/i18n/en/audit.ts': _gone, ...rest } = manifest;
    const r = checkBudget({ manifest: rest, sizeOf: sizes() });
    expect(r.problems).toEqual([
      "the first view's chunk src/i18n/en/audit.ts is not in the manifest (renamed? update FIRST_VIEW)",
    ]);
  });
});
