#!/usr/bin/env node
// `npm start`: the build steps first, each only when its output is missing: the console (Vite,
// also when older than its sources) and the embedded database's template (a migrated PGlite
// cluster a new ./data is copied from instead of running initdb). Then the API runs from its
// TypeScript sources on Node 24 (node-runtime.mjs): it migrates, creates demo data on the first
// start and serves console and API.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pgliteTemplateName } from '../apps/api/src/db/pglite-template-key.mjs';
import { nodeRuntime, runOnRuntime } from './node-runtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/web/dist/index.html');
const cache = path.join(root, 'node_modules/.cache/sac');
const apiEntry = path.join(root, 'apps/api/src/main.ts');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

const mtime = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : -1);
const contract = newestMtime(path.join(root, 'packages/contract/src'));

if (mtime(dist) < Math.max(newestMtime(path.join(root, 'apps/web')), contract)) {
  console.log('Building the console…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@sac/web', '--silent'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const runtime = nodeRuntime();

if (!process.env.DATABASE_URL && !fs.existsSync(path.join(cache, pgliteTemplateName(), 'PG_VERSION'))) {
  console.log('Preparing the embedded database template (once per install and set of migrations)…');
  const prepare = spawnSync(runtime.node, [path.join(root, 'apps/api/src/db/pglite-template-cli.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (prepare.status !== 0) console.log('  (no template: a new data directory runs initdb instead)');
}

// `--build-only`: the build steps alone (benches start the server themselves, as npm start does).
if (process.argv.includes('--build-only')) process.exit(0);

runOnRuntime(apiEntry, [], { cwd: root });
