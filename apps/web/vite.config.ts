import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';

/** In `vite dev`, the admin API (default http://localhost:3001) answers /admin/* and the runtime config. */
const apiTarget = process.env.SAC_API_URL ?? 'http://localhost:3001';

/** The chunk a module goes to: each library group its own, the console's modules left to the bundler. */
function chunkOf(id: string): string | null {
  // zod's configuration travels with zod: every chunk that builds a schema imports this chunk,
  // so jitless is set before the first schema whatever order the chunks are evaluated in. In the
  // entry chunk it would run only after the chunks the entry imports, which build schemas at
  // their top level, and zod's eval probe would already have raised a CSP violation.
  if (id.endsWith('/src/lib/zod-jitless.ts')) return 'vendor-zod';
  if (!id.includes('node_modules')) return null;
  if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'vendor-react';
  if (id.includes('node_modules/react-router')) return 'vendor-router';
  if (id.includes('node_modules/@tanstack')) return 'vendor-query';
  if (id.includes('node_modules/zod')) return 'vendor-zod';
  // Loaded on demand only (a QR code while setting up an app, a passkey prompt): never with the
  // sign-in screen.
  if (id.includes('node_modules/qrcode-generator')) return 'vendor-qr';
  if (id.includes('node_modules/@simplewebauthn')) return 'vendor-webauthn';
  return 'vendor';
}

/**
 * A lazy import's preload list (Vite's __vite__mapDeps, in the importing chunk) names every chunk
 * of the imported module's static closure, most of them loaded already: a module that runs
 * import() has its own static imports, transitively, loaded. Those are left out, so a screen's lazy
 * part costs the screen only the names of what it adds (the customer search's bulk bar: a handful
 * of names instead of 31, 0.6 KiB gzipped of the search's first view). Vite keeps the CSS files
 * itself (it loads a lazy chunk's styles by this list). The bundle is read in a generateBundle of
 * order 'pre', before Vite's own writes the lists.
 */
function preloadsNotLoaded(): {
  plugin: Plugin;
  resolveDependencies: (
    f: string,
    deps: string[],
    c: { hostId: string; hostType: 'html' | 'js' },
  ) => string[];
} {
  let bundle: Rollup.OutputBundle | undefined;
  const closures = new Map<string, Set<string>>();
  const closureOf = (file: string): Set<string> => {
    let seen = closures.get(file);
    if (seen) return seen;
    seen = new Set();
    const visit = (f: string) => {
      const chunk = bundle?.[f];
      if (seen!.has(f) || chunk?.type !== 'chunk') return;
      seen!.add(f);
      for (const i of chunk.imports) visit(i);
    };
    visit(file);
    closures.set(file, seen);
    return seen;
  };
  return {
    plugin: {
      name: 'sac:preloads-not-loaded',
      generateBundle: {
        order: 'pre',
        handler(_options, b) {
          bundle = b;
          closures.clear();
        },
      },
    },
    resolveDependencies: (_file, deps, { hostId, hostType }) => {
      if (hostType !== 'js' || !bundle?.[hostId]) return deps;
      const loaded = closureOf(hostId);
      return deps.filter((d) => !loaded.has(d));
    },
  };
}
const preloads = preloadsNotLoaded();

export default defineConfig({
  plugins: [react(), preloads.plugin],
  css: {
    // Module classes keep their kebab-case names in the sheets and read as camelCase in code
    // (styles.sidebarLink); names built at run time (styles[`toast-${type}`]) use the kebab form.
    modules: { localsConvention: 'camelCase' },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // dist/.vite/manifest.json: entries, chunks and their imports, read by the bundle-budget check
    // (scripts/check-bundle-budget.mjs) that `npm test` runs after the build.
    manifest: true,
    // The server's CSP forbids inline scripts: keep every module in its own file.
    assetsInlineLimit: 0,
    modulePreload: { resolveDependencies: preloads.resolveDependencies },
    rolldownOptions: {
      output: {
        // Libraries change less often than the console: separate files stay cached across releases.
        codeSplitting: {
          groups: [
            { name: chunkOf },
            // The contract modules the sign-in screen imports, in one chunk: the phrases' chunks
            // share different parts of them, and Rolldown would cut them into a chunk per set of
            // sharers (four more requests, 1.5 KiB more for the sign-in screen).
            { name: 'contract', test: /packages[\\/]contract[\\/]/, tags: ['$initial'] },
          ],
        },
      },
      onwarn(warning, warn) {
        // zod's sources carry comments Rollup cannot place; they are harmless.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules/zod')) return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: {
      '/admin': { target: apiTarget, changeOrigin: true },
      '/runtime-config.json': { target: apiTarget, changeOrigin: true },
    },
  },
});
