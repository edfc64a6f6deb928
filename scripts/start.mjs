#!/usr/bin/env node
// `npm start`: the build steps first, each only when its output is missing or older than its
// sources: the console (Vite), the API (one esbuild bundle, so no TypeScript is compiled while the
// server starts), and the embedded database's template (a migrated PGlite cluster a new ./data is
// copied from instead of running initdb). Then the API runs: it migrates, creates demo data on
// the first start and serves console and API.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pgliteTemplateName } from '../apps/api/src/db/pglite-template-key.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/web/dist/index.html');
const cache = path.join(root, 'node_modules/.cache/sac');
const apiEntry = path.join(root, 'apps/api/src/main.ts');
const apiBundle = path.join(cache, 'api/main.mjs');

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

/**
 * The API as one ES module: its sources and the contract bundled, packages left to node_modules.
 * Each module's import.meta.url stays its source file's URL, so paths derived from it (the
 * repository root, the migrations) are the same as under tsx. Undefined when esbuild is missing.
 */
async function bundleApi() {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined;
  }
  const ownSource = /\.(ts|mjs)$/;
  // esbuild's service process would outlive the build: stopped below, so nothing but the server
  // is left running under this process.
  await esbuild.build({
    entryPoints: [apiEntry],
    outfile: apiBundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    plugins: [
      {
        name: 'sac-api',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (a) =>
            a.path.startsWith('@sac/') ? undefined : { path: a.path, external: true },
          );
          b.onLoad({ filter: ownSource }, (a) => {
            if (a.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
            const source = fs.readFileSync(a.path, 'utf8');
            return {
              contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(a.path).href)),
              loader: a.path.endsWith('.ts') ? 'ts' : 'js',
            };
          });
        },
      },
    ],
  });
  await esbuild.stop?.();
  return apiBundle;
}

let api = ['--import', 'tsx', apiEntry];
if (mtime(apiBundle) < Math.max(newestMtime(path.join(root, 'apps/api/src')), contract)) {
  console.log('Building the API…');
  fs.rmSync(apiBundle, { force: true });
  if (!(await bundleApi())) console.log('  (esbuild is not installed: the API runs through tsx)');
}
if (fs.existsSync(apiBundle)) api = [apiBundle];

if (!process.env.DATABASE_URL && !fs.existsSync(path.join(cache, pgliteTemplateName(), 'PG_VERSION'))) {
  console.log('Preparing the embedded database template (once per install and set of migrations)…');
  const prepare = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'apps/api/src/db/pglite-template-cli.ts')],
    { cwd: root, stdio: 'inherit' },
  );
  if (prepare.status !== 0) console.log('  (no template: a new data directory runs initdb instead)');
}

// `--build-only`: the build steps alone (benches time the server as npm start runs it).
if (process.argv.includes('--build-only')) process.exit(0);

const server = spawn(process.execPath, api, { cwd: root, stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
