// The Node the API runs on (npm start, the tests that start it, the command lines): this one from
// Node 24 on, else a pinned Node 24 taken from the npm registry (the node-<platform>-<arch>
// package: the official build, no install script), unpacked once into .tmp/runtime. The API's
// TypeScript runs as it is, by Node's type stripping; Node 20 has none, and ended in April 2026.
// As a command, `node scripts/node-runtime.mjs <file.ts> [args…]` runs one file on it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NODE_RUNTIME = '24.21.0';

/**
 * The directory of the runtime's `node` and an environment with it first on PATH. Fetching it
 * prints one line; several processes may fetch at once (each unpacks into its own directory and
 * renames it into place). Throws when the registry cannot be reached.
 */
export function nodeRuntime() {
  if (Number(process.versions.node.split('.')[0]) >= 24) return withBin(path.dirname(process.execPath));
  const pkg = `node-${process.platform}-${process.arch}`;
  const dir = path.join(root, '.tmp', 'runtime', `${pkg}-${NODE_RUNTIME}`);
  if (!fs.existsSync(path.join(dir, 'bin', 'node'))) {
    // stderr: the command lines' own output on stdout stays theirs alone
    console.error(`Node ${NODE_RUNTIME} for the API (${pkg} from the npm registry, once)…`);
    const partial = `${dir}.${process.pid}`;
    fs.rmSync(partial, { recursive: true, force: true });
    fs.mkdirSync(partial, { recursive: true });
    const r = spawnSync(
      'bash',
      [
        '-c',
        `set -e; npm pack --silent ${pkg}@${NODE_RUNTIME} >/dev/null; tar xzf ${pkg}-${NODE_RUNTIME}.tgz --strip-components=1; rm ${pkg}-${NODE_RUNTIME}.tgz`,
      ],
      { cwd: partial, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (r.status !== 0) {
      fs.rmSync(partial, { recursive: true, force: true });
      throw new Error(`could not fetch ${pkg}@${NODE_RUNTIME} from the npm registry`);
    }
    try {
      fs.renameSync(partial, dir);
    } catch {
      // another process put it in place first
      fs.rmSync(partial, { recursive: true, force: true });
    }
  }
  return withBin(path.join(dir, 'bin'));
}

function withBin(bin) {
  return { node: path.join(bin, 'node'), env: { PATH: `${bin}${path.delimiter}${process.env.PATH}` } };
}

/**
 * Runs `file` with `args` on the runtime in the foreground: SIGINT and SIGTERM are passed on to it
 * (a container's stop reaches the server) and this process exits as it exits.
 */
export function runOnRuntime(file, args = [], opts = {}) {
  const child = spawn(nodeRuntime().node, [file, ...args], { stdio: 'inherit', ...opts });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, ...args] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node scripts/node-runtime.mjs <file.ts> [args…]');
    process.exit(2);
  }
  runOnRuntime(file, args);
}
