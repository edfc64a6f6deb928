#!/usr/bin/env node
// The console's size budgets, checked on the build output: `npm test` runs this after
// `vite build`. It reads Vite's manifest (apps/web/dist/.vite/manifest.json), follows static
// imports, gzips each file (level 9, as bench/sign-in-bundle.bench.ts does) and exits 1 when a
// budget is exceeded. Sizes are a function of the build output only, so the check is deterministic.
//
// What is measured (KiB = 1024 bytes, gzipped):
// - sign-in screen: the entry (index.html) and every chunk it imports statically, transitively:
//   what the browser loads before the sign-in screen can show. CSS: the CSS files of those chunks.
// - first view after sign-in: the sign-in set plus the static closures of the first view's dynamic
//   entries (the signed-in shell and its phrases, the dashboard and its phrases): everything loaded
//   to show the dashboard.
// - first view of the customer search: the same for the search (the shell, the section's sidebar,
//   the search and the customers' phrases), the view e2e/transfer-size.spec.ts weighs on the wire.
// - each lazily loaded chunk: for every other dynamic entry (a lazy route, the section layout), its
//   own static closure minus every chunk of the first view (shared chunks already loaded are not
//   counted again).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const KiB = 1024;

/** The budgets, in KiB gzipped. */
export const BUDGETS = { signInJs: 182, signInCss: 40, firstViewJs: 219, searchViewJs: 211, lazyJs: 60 };

/**
 * The dynamic entries (manifest keys, i.e. source paths) the signed-in shell loads: its module and
 * its phrases (lib/i18n.tsx SHELL_NAMESPACES; a unit test keeps the two lists alike).
 */
export const SHELL = [
  'src/app/layout/app-shell.tsx',
  'src/i18n/en/screens.ts',
  'src/i18n/en/staff-notifications.ts',
];

/** The dynamic entries loaded for the first view after sign-in: the shell, the dashboard and its phrases. */
const FIRST_VIEW = [
  ...SHELL,
  'src/features/dashboard/components/dashboard-page.tsx',
  'src/i18n/en/impersonation.ts',
  'src/i18n/en/audit.ts',
  'src/i18n/en/audit-actions.ts',
];

/** The dynamic entries loaded for the customer search opened by its address. */
const SEARCH_VIEW = [
  ...SHELL,
  'src/app/layout/section-layout.tsx',
  'src/features/customers/components/search-customer-page.tsx',
  'src/i18n/en/customers.ts',
];

/** Manifest keys of `key` and of every chunk it imports statically, transitively. */
function staticClosure(manifest, key) {
  const seen = new Set();
  const visit = (k) => {
    if (seen.has(k)) return;
    if (!manifest[k]) throw new Error(`the manifest has no chunk ${k}`);
    seen.add(k);
    for (const i of manifest[k].imports ?? []) visit(i);
  };
  visit(key);
  return seen;
}

const jsFiles = (manifest, keys) => [...new Set([...keys].map((k) => manifest[k].file))];
const cssFiles = (manifest, keys) => [...new Set([...keys].flatMap((k) => manifest[k].css ?? []))];

/**
 * Measures a manifest. `sizeOf(file)` answers the gzipped size of a built file in bytes. Returns
 * one row per measured set ({ name, files, bytes, budgetKiB }) and the rows over budget, plus
 * problems that make the check impossible (a first-view entry missing from the manifest).
 */
export function checkBudget({
  manifest,
  sizeOf,
  budgets = BUDGETS,
  firstView = FIRST_VIEW,
  searchView = SEARCH_VIEW,
}) {
  const rows = [];
  const problems = [];
  const total = (files) => files.reduce((sum, f) => sum + sizeOf(f), 0);
  const row = (name, files, budgetKiB) => rows.push({ name, files, bytes: total(files), budgetKiB });

  const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  if (entries.length !== 1) {
    problems.push(`expected one entry (index.html) in the manifest, found ${entries.length}`);
    return { rows, over: [], problems };
  }
  const signIn = staticClosure(manifest, entries[0]);
  row('sign-in screen: JavaScript', jsFiles(manifest, signIn), budgets.signInJs);
  row('sign-in screen: CSS', cssFiles(manifest, signIn), budgets.signInCss);

  /** The sign-in set plus the static closures of a view's dynamic entries. */
  const view = (keys, what, list) => {
    const out = new Set(signIn);
    for (const key of keys) {
      if (!manifest[key]) {
        problems.push(`the ${what}'s chunk ${key} is not in the manifest (renamed? update ${list})`);
        continue;
      }
      for (const k of staticClosure(manifest, key)) out.add(k);
    }
    return out;
  };
  const first = view(firstView, 'first view', 'FIRST_VIEW');
  row('first view after sign-in: JavaScript', jsFiles(manifest, first), budgets.firstViewJs);
  const search = view(searchView, 'search view', 'SEARCH_VIEW');
  row('first view of the customer search: JavaScript', jsFiles(manifest, search), budgets.searchViewJs);

  const firstFiles = new Set(jsFiles(manifest, first));
  const lazy = Object.keys(manifest)
    .filter((k) => manifest[k].isDynamicEntry && !first.has(k))
    .sort();
  for (const key of lazy) {
    const own = jsFiles(manifest, staticClosure(manifest, key)).filter((f) => !firstFiles.has(f));
    row(`lazy: ${key}`, own, budgets.lazyJs);
  }
  const over = rows.filter((r) => r.bytes > r.budgetKiB * KiB);
  return { rows, over, problems };
}

/** The table `checkBudget`'s rows print as. */
export function formatRows(rows) {
  const width = Math.max(...rows.map((r) => r.name.length), 10);
  const lines = [`${'what'.padEnd(width)}  files  KiB gzip  budget  status`];
  for (const r of rows) {
    const kib = (r.bytes / KiB).toFixed(1);
    const ok = r.bytes <= r.budgetKiB * KiB;
    lines.push(
      `${r.name.padEnd(width)}  ${String(r.files.length).padStart(5)}  ${kib.padStart(8)}  ${String(r.budgetKiB).padStart(6)}  ${ok ? 'ok' : 'OVER BUDGET'}`,
    );
  }
  return lines.join('\n');
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const argDist = process.argv.indexOf('--dist');
  const dist = argDist > 0 ? path.resolve(process.argv[argDist + 1]) : path.join(root, 'apps/web/dist');
  const manifestFile = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) {
    console.error(
      `✗ No ${path.relative(root, manifestFile)}: build the console first (npm run build -w @sac/web).`,
    );
    process.exit(1);
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  const sizeOf = (file) => gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
  const { rows, over, problems } = checkBudget({ manifest, sizeOf });
  console.log(formatRows(rows));
  for (const p of problems) console.error(`✗ ${p}`);
  for (const r of over) {
    console.error(
      `✗ ${r.name}: ${(r.bytes / KiB).toFixed(1)} KiB gzipped, over its budget of ${r.budgetKiB} KiB`,
    );
  }
  if (problems.length || over.length) process.exit(1);
  console.log(`\nbundle budget: all ${rows.length} sets within budget`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
