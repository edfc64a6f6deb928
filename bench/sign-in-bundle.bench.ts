import { gzipSync } from 'node:zlib';
import { BUDGETS } from '../scripts/check-bundle-budget.mjs';
import { freshDir, launchChromium, startServer } from './support.ts';

/**
 * The JavaScript the sign-in screen really loads in Chromium, raw and gzipped (level 9), then what
 * signing in adds until the dashboard shows (the first view after sign-in).
 */
export async function benchSignInBundle(): Promise<void> {
  const server = await startServer({
    port: 3942,
    dataDir: freshDir('bundle'),
    env: { DEMO_PASSWORD: 'Bench#Pass1' },
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const scripts: Array<Promise<{ url: string; raw: number; gz: number; phase: string }>> = [];
    let phase = 'sign-in';
    page.on('response', (r) => {
      // Module scripts and modulepreload links (Vite preloads a lazy chunk's imports) alike.
      if (r.request().resourceType() === 'script' || new URL(r.url()).pathname.endsWith('.js')) {
        const at = phase;
        scripts.push(
          r
            .body()
            .then((b) => ({ url: r.url(), raw: b.length, gz: gzipSync(b, { level: 9 }).length, phase: at })),
        );
      }
    });
    const t0 = performance.now();
    await page.goto(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Sign in to Superadmin' }).waitFor();
    const shownMs = performance.now() - t0;
    await page.waitForLoadState('networkidle');
    phase = 'first view';
    await page.getByLabel('Email').fill('superadmin@example.com');
    await page.getByLabel('Password', { exact: true }).fill('Bench#Pass1');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/dashboard$/);
    // The dashboard shows once the shell, its phrases and the dashboard have loaded; a client-side
    // navigation has no load state of its own, so wait until no script arrived for half a second.
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    for (let n = -1; n !== scripts.length; ) {
      n = scripts.length;
      await page.waitForTimeout(500);
    }
    const all = await Promise.all(scripts);
    const sum = (xs: typeof all, k: 'raw' | 'gz') => xs.reduce((n, x) => n + x[k], 0);
    const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    for (const s of all)
      console.log(`  ${s.phase.padEnd(10)} ${new URL(s.url).pathname.padEnd(48)} ${kib(s.gz)} gz`);
    const signIn = all.filter((s) => s.phase === 'sign-in');
    console.log(
      `sign-in screen JavaScript: ${signIn.length} files, ${kib(sum(signIn, 'raw'))} raw, ${kib(sum(signIn, 'gz'))} gzipped (the build's budget ${BUDGETS.signInJs} KiB)`,
    );
    console.log(
      `first view after sign-in (sign-in + shell + dashboard): ${all.length} files, ${kib(sum(all, 'gz'))} gzipped (the build's budget ${BUDGETS.firstViewJs} KiB)`,
    );
    console.log(`sign-in screen shown after ${shownMs.toFixed(0)} ms (cold browser, localhost)`);
    console.log(
      '(the same sizes are checked from the build output by scripts/check-bundle-budget.mjs in npm test)',
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}
