import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { freshDir, startServer } from './support.ts';

/** The JavaScript the sign-in screen really loads in Chromium, raw and gzipped (level 9). */
export async function benchSignInBundle(): Promise<void> {
  const server = await startServer({
    port: 3942,
    dataDir: freshDir('bundle'),
    env: { DEMO_PASSWORD: 'Bench#Pass1' },
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    const scripts: Array<Promise<{ url: string; raw: number; gz: number }>> = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') {
        scripts.push(
          r.body().then((b) => ({ url: r.url(), raw: b.length, gz: gzipSync(b, { level: 9 }).length })),
        );
      }
    });
    const t0 = performance.now();
    await page.goto(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Sign in to Superadmin' }).waitFor();
    const shownMs = performance.now() - t0;
    await page.waitForLoadState('networkidle');
    const all = await Promise.all(scripts);
    const raw = all.reduce((s, x) => s + x.raw, 0);
    const gz = all.reduce((s, x) => s + x.gz, 0);
    for (const s of all)
      console.log(`  ${new URL(s.url).pathname.padEnd(44)} ${(s.gz / 1024).toFixed(1)} KiB gz`);
    console.log(
      `sign-in screen JavaScript: ${all.length} files, ${(raw / 1024).toFixed(1)} KiB raw, ${(gz / 1024).toFixed(1)} KiB gzipped`,
    );
    console.log(`sign-in screen shown after ${shownMs.toFixed(0)} ms (cold browser, localhost)`);
  } finally {
    await browser.close();
    await server.stop();
  }
}
